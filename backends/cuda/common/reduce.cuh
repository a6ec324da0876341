// SPDX-License-Identifier: Apache-2.0
// Deterministic reductions on the device, in two launches (per-block partials,
// then one block): exact integer sums, and double sums carried as double-double
// (TwoSum) so that the result is the correctly rounded sum for all practical
// sizes, independent of the reduction tree.
#pragma once

#include <type_traits>

#include <cub/block/block_reduce.cuh>

#include "common/buffer.hpp"
#include "common/device.cuh"

namespace ipt::cuda {

struct DD {
    double hi, lo;
};

__device__ inline DD dd_add(DD a, DD b) {
    double s = a.hi + b.hi;
    // A sum that overflows (or meets NaN) is carried as the plain sum would
    // be, +-Inf or NaN as MATLAB's: the error terms would make Inf - Inf = NaN.
    if (!isfinite(s)) return {s, 0.0};
    double bb = s - a.hi;
    double err = (a.hi - (s - bb)) + (b.hi - bb);
    err += a.lo + b.lo;
    double hi = s + err;
    return {hi, err - (hi - s)};
}
__device__ inline DD dd_add(DD a, double b) { return dd_add(a, DD{b, 0.0}); }

struct DDSum {
    __device__ DD operator()(const DD& a, const DD& b) const { return dd_add(a, b); }
};

constexpr int kReduceThreads = 256;
constexpr int kReduceBlocks = 1024;

// Per-block double-double partial sums of load(i) for i in [0, n).
template <class Load>
__global__ void __launch_bounds__(kReduceThreads) dd_partials(Load load, int64_t n, DD* partials) {
    DD acc{0.0, 0.0};
    IPT_GRID_STRIDE(i, n) acc = dd_add(acc, load(i));
    using R = cub::BlockReduce<DD, kReduceThreads>;
    __shared__ typename R::TempStorage tmp;
    DD total = R(tmp).Reduce(acc, DDSum{});
    if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

// Sums the partials; finish(sum) runs on one thread with the final value.
template <class Finish>
__global__ void __launch_bounds__(kReduceThreads) dd_finish(const DD* partials, int count, Finish finish) {
    DD acc{0.0, 0.0};
    for (int i = threadIdx.x; i < count; i += blockDim.x) acc = dd_add(acc, partials[i]);
    using R = cub::BlockReduce<DD, kReduceThreads>;
    __shared__ typename R::TempStorage tmp;
    DD total = R(tmp).Reduce(acc, DDSum{});
    if (threadIdx.x == 0) finish(total.hi + total.lo);
}

// sum_{i<n} load(i) in double-double; then finish(sum) on the device.
template <class Load, class Finish>
void reduce_sum_dd(Load load, int64_t n, Finish finish, cudaStream_t stream, const char* what) {
    int blocks = static_cast<int>(grid_for(n, kReduceThreads, kReduceBlocks));
    DeviceArray<DD> partials(blocks, stream);
    dd_partials<<<blocks, kReduceThreads, 0, stream>>>(load, n, partials.get());
    check_launch(what);
    dd_finish<<<1, kReduceThreads, 0, stream>>>(partials.get(), blocks, finish);
    check_launch(what);
}

// Exact integer sums (int64 accumulators).
template <class Load>
__global__ void __launch_bounds__(kReduceThreads) int_partials(Load load, int64_t n, long long* partials) {
    long long acc = 0;
    IPT_GRID_STRIDE(i, n) acc += load(i);
    using R = cub::BlockReduce<long long, kReduceThreads>;
    __shared__ typename R::TempStorage tmp;
    long long total = R(tmp).Sum(acc);
    if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

template <class Finish>
__global__ void __launch_bounds__(kReduceThreads) int_finish(const long long* partials, int count, Finish finish) {
    long long acc = 0;
    for (int i = threadIdx.x; i < count; i += blockDim.x) acc += partials[i];
    using R = cub::BlockReduce<long long, kReduceThreads>;
    __shared__ typename R::TempStorage tmp;
    long long total = R(tmp).Sum(acc);
    if (threadIdx.x == 0) finish(total);
}

// load(i) for i in [0, n) gives an integer; n counts load's items (which may
// each cover several pixels).
template <class Load, class Finish>
void reduce_sum_int(Load load, int64_t n, Finish finish, cudaStream_t stream, const char* what) {
    int blocks = static_cast<int>(grid_for(n, kReduceThreads, kReduceBlocks));
    DeviceArray<long long> partials(blocks, stream);
    int_partials<<<blocks, kReduceThreads, 0, stream>>>(load, n, partials.get());
    check_launch(what);
    int_finish<<<1, kReduceThreads, 0, stream>>>(partials.get(), blocks, finish);
    check_launch(what);
}

// Maximum of load(i), NaN ignored; finish(max) on the device. load returns a
// double, or a double2 for two maxima at once (each component on its own: one
// pass over the data gives a minimum as the maximum of its negation, and a
// maximum).
__device__ inline double max_each(double a, double b) { return fmax(a, b); }
__device__ inline double2 max_each(double2 a, double2 b) { return make_double2(fmax(a.x, b.x), fmax(a.y, b.y)); }
template <class V>
__device__ inline V max_identity() {
    if constexpr (std::is_same_v<V, double>) return -static_cast<double>(INFINITY);
    else return make_double2(-static_cast<double>(INFINITY), -static_cast<double>(INFINITY));
}
struct MaxEach {
    template <class V>
    __device__ V operator()(const V& a, const V& b) const { return max_each(a, b); }
};

template <class Load, class V>
__global__ void __launch_bounds__(kReduceThreads) max_partials(Load load, int64_t n, V* partials) {
    V acc = max_identity<V>();
    IPT_GRID_STRIDE(i, n) acc = max_each(acc, load(i));
    using R = cub::BlockReduce<V, kReduceThreads>;
    __shared__ typename R::TempStorage tmp;
    const V total = R(tmp).Reduce(acc, MaxEach{});
    if (threadIdx.x == 0) partials[blockIdx.x] = total;
}
template <class V, class Finish>
__global__ void __launch_bounds__(kReduceThreads) max_finish(const V* partials, int count, Finish finish) {
    V acc = max_identity<V>();
    for (int i = threadIdx.x; i < count; i += blockDim.x) acc = max_each(acc, partials[i]);
    using R = cub::BlockReduce<V, kReduceThreads>;
    __shared__ typename R::TempStorage tmp;
    const V total = R(tmp).Reduce(acc, MaxEach{});
    if (threadIdx.x == 0) finish(total);
}
template <class Load, class Finish>
void reduce_max(Load load, int64_t n, Finish finish, cudaStream_t stream, const char* what) {
    using V = std::decay_t<decltype(load(int64_t(0)))>;
    int blocks = static_cast<int>(grid_for(n, kReduceThreads, kReduceBlocks));
    DeviceArray<V> partials(blocks, stream);
    max_partials<Load, V><<<blocks, kReduceThreads, 0, stream>>>(load, n, partials.get());
    check_launch(what);
    max_finish<V, Finish><<<1, kReduceThreads, 0, stream>>>(partials.get(), blocks, finish);
    check_launch(what);
}

}  // namespace ipt::cuda
