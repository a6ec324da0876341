// SPDX-License-Identifier: Apache-2.0
// Deterministic reductions on the device in one launch: every block reduces
// its share, writes its partial, and the last block to finish
// (common/last_block.cuh) reduces the partials in a fixed order and hands the
// total to finish() on one thread. Exact integer sums, maxima, and double
// sums carried as double-double (TwoSum) so that the result is the correctly
// rounded sum for all practical sizes, independent of the reduction tree.
// The partials and the counter live in the stream's zeroed scratch
// (common/stream_scratch.hpp), which the last block leaves zero again.
#pragma once

#include <cstring>
#include <type_traits>

#include <cub/block/block_reduce.cuh>

#include "common/device.cuh"
#include "common/last_block.cuh"
#include "common/stream_scratch.hpp"

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

constexpr int kReduceThreads = 256;
constexpr int kReduceBlocks = 1024;

// How a reduction combines (V: its accumulator); result() is what finish()
// receives.
struct SumDD {
    using V = DD;
    __device__ static DD identity() { return {0.0, 0.0}; }
    __device__ DD operator()(const DD& a, const DD& b) const { return dd_add(a, b); }
    __device__ DD operator()(const DD& a, double b) const { return dd_add(a, b); }
    __device__ static double result(const DD& v) { return v.hi + v.lo; }
};
struct SumInt {
    using V = long long;
    __device__ static long long identity() { return 0; }
    __device__ long long operator()(long long a, long long b) const { return a + b; }
    __device__ static long long result(long long v) { return v; }
};

// Maximum, NaN ignored. V is a double, or a double2 for two maxima at once
// (each component on its own: one pass over the data gives a minimum as the
// maximum of its negation, and a maximum).
__device__ inline double max_each(double a, double b) { return fmax(a, b); }
__device__ inline double2 max_each(double2 a, double2 b) { return make_double2(fmax(a.x, b.x), fmax(a.y, b.y)); }
template <class Value>
struct MaxOf {
    using V = Value;
    __device__ static V identity() {
        constexpr double lowest = -static_cast<double>(INFINITY);
        if constexpr (std::is_same_v<V, double>) return lowest;
        else return make_double2(lowest, lowest);
    }
    __device__ V operator()(const V& a, const V& b) const { return max_each(a, b); }
    __device__ static V result(const V& v) { return v; }
};

// A partial written by another block, read past this multiprocessor's L1.
template <class V>
__device__ inline V load_partial(const V* p) {
    static_assert(sizeof(V) == 8 || sizeof(V) == 16, "partials of 8 or 16 bytes");
    V v;
    if constexpr (sizeof(V) == 16) {
        const double2 d = __ldcg(reinterpret_cast<const double2*>(p));
        memcpy(&v, &d, sizeof v);
    } else {
        const long long d = __ldcg(reinterpret_cast<const long long*>(p));
        memcpy(&v, &d, sizeof v);
    }
    return v;
}

template <class Op, class Load, class Finish>
__global__ void __launch_bounds__(kReduceThreads)
reduce_one_launch(Load load, int64_t n, unsigned* counter, typename Op::V* partials, Finish finish) {
    using V = typename Op::V;
    const Op op{};
    V acc = Op::identity();
    IPT_GRID_STRIDE(i, n) acc = op(acc, load(i));
    using R = cub::BlockReduce<V, kReduceThreads>;
    __shared__ typename R::TempStorage tmp;
    const V block_total = R(tmp).Reduce(acc, op);
    if (threadIdx.x == 0) partials[blockIdx.x] = block_total;
    if (!arrived_last(counter)) return;
    acc = Op::identity();
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) {
        acc = op(acc, load_partial(partials + b));
        partials[b] = V{};  // the scratch back to zero
    }
    __syncthreads();  // tmp is reused
    const V total = R(tmp).Reduce(acc, op);
    if (threadIdx.x == 0) finish(Op::result(total));
}

// Scratch layout: the counter, then the partials from byte 256 on.
constexpr size_t kPartialsOffset = 256;
static_assert(kPartialsOffset + kReduceBlocks * 16 <= kStreamScratchBytes, "stream scratch holds the partials");

template <class Op, class Load, class Finish>
void reduce_async(Load load, int64_t n, Finish finish, cudaStream_t stream, const char* what) {
    using V = typename Op::V;
    const int blocks = static_cast<int>(grid_for(n, kReduceThreads, kReduceBlocks));
    ZeroedScratch scratch(stream, kPartialsOffset + blocks * sizeof(V));
    auto* base = static_cast<unsigned char*>(scratch.get());
    reduce_one_launch<Op><<<blocks, kReduceThreads, 0, stream>>>(
        load, n, reinterpret_cast<unsigned*>(base), reinterpret_cast<V*>(base + kPartialsOffset), finish);
    check_launch(what);
}

// sum_{i<n} load(i) (doubles) in double-double; then finish(sum) on the device.
template <class Load, class Finish>
void reduce_sum_dd(Load load, int64_t n, Finish finish, cudaStream_t stream, const char* what) {
    reduce_async<SumDD>(load, n, finish, stream, what);
}

// Exact integer sum (int64 accumulators): load(i) for i in [0, n) gives an
// integer; n counts load's items (which may each cover several pixels).
template <class Load, class Finish>
void reduce_sum_int(Load load, int64_t n, Finish finish, cudaStream_t stream, const char* what) {
    reduce_async<SumInt>(load, n, finish, stream, what);
}

// Maximum of load(i) (a double or a double2), NaN ignored; finish(max) on the device.
template <class Load, class Finish>
void reduce_max(Load load, int64_t n, Finish finish, cudaStream_t stream, const char* what) {
    using V = std::decay_t<decltype(load(int64_t(0)))>;
    reduce_async<MaxOf<V>>(load, n, finish, stream, what);
}

}  // namespace ipt::cuda
