// SPDX-License-Identifier: Apache-2.0
// ipt.imresize as the front-end plans it (common/ops/imresize.hpp): one
// kernel launch per dimension, the first into scratch of the working class,
// with the front-end's tables kept on the device across calls.
// Each thread forms one output element as the weighted sum over the
// front-end's taps in order, in double (--fmad=false: every product and sum
// rounds as on the host), so integer results are the CPU's bit for bit.
#include <type_traits>

#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/ops/imresize.hpp"
#include "common/table_cache.hpp"

namespace ipt::cuda {
namespace {

struct PassGeometry {
    int64_t in_rows, in_cols, out_rows, out_cols, channels;
    int taps;
};

// logical reads as im2uint8 does (true = 255).
template <class S>
__device__ __forceinline__ double resize_load(S v) {
    if constexpr (std::is_same_v<S, bool>) return v ? 255.0 : 0.0;
    else return static_cast<double>(v);
}

// A logical destination holds the uint8 result > 128.
template <class D>
__device__ __forceinline__ D resize_store(double acc) {
    if constexpr (std::is_same_v<D, bool>) return saturate_round<uint8_t>(acc) > 128;
    else return saturate_round<D>(acc);
}

// x: the output column, y: the row, z: the plane, so no thread divides.
// Along the rows every thread of a block row shares the row's taps
// (broadcast loads); along the columns each thread reads its column's taps.
template <class S, class D, bool AlongCols>
__global__ void imresize_pass(const S* __restrict__ src, D* __restrict__ dst, PassGeometry g,
                              const int32_t* __restrict__ idx, const double* __restrict__ w) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (c >= g.out_cols) return;
    for (int64_t ch = blockIdx.z; ch < g.channels; ch += gridDim.z)
    for (int64_t r = blockIdx.y; r < g.out_rows; r += gridDim.y) {
        const S* plane = src + ch * g.in_rows * g.in_cols;
        const int64_t i = AlongCols ? c : r;
        const int32_t* ii = idx + i * g.taps;
        const double* ww = w + i * g.taps;
        auto at = [&](int64_t j) { return AlongCols ? plane[r * g.in_cols + j] : plane[j * g.in_cols + c]; };
        // Four taps' indices, weights and values are loaded before any is
        // used, so that their latencies overlap; the sum stays in tap order.
        double acc = 0;
        int k = 0;
        for (; k + 4 <= g.taps; k += 4) {
            int32_t j[4];
            double wk[4];
            S v[4];
#pragma unroll
            for (int q = 0; q < 4; ++q) j[q] = __ldg(ii + k + q);
#pragma unroll
            for (int q = 0; q < 4; ++q) wk[q] = __ldg(ww + k + q);
#pragma unroll
            for (int q = 0; q < 4; ++q) v[q] = at(j[q]);
#pragma unroll
            for (int q = 0; q < 4; ++q) acc = acc + wk[q] * resize_load(v[q]);
        }
        for (; k < g.taps; ++k) acc = acc + __ldg(ww + k) * resize_load(at(__ldg(ii + k)));
        dst[(ch * g.out_rows + r) * g.out_cols + c] = resize_store<D>(acc);
    }
}

template <class S, class D>
void launch_pass(const Device& dev, const S* src, D* dst, int dim, const PassGeometry& g, const int32_t* idx,
                 const double* w) {
    constexpr int kWidth = 128;
    const dim3 block(kWidth);
    const dim3 grid(static_cast<unsigned>((g.out_cols + kWidth - 1) / kWidth),
                    static_cast<unsigned>(g.out_rows < 65535 ? g.out_rows : 65535),
                    static_cast<unsigned>(g.channels < 65535 ? g.channels : 65535));
    if (dim == 0)
        imresize_pass<S, D, false><<<grid, block, 0, dev.stream>>>(src, dst, g, idx, w);
    else
        imresize_pass<S, D, true><<<grid, block, 0, dev.stream>>>(src, dst, g, idx, w);
    check_launch("ipt.imresize");
}

// The device copies of one axis's tables (cached per device by the address
// of the front-end's shared tables).
struct AxisTables {
    const int32_t* indices;
    const double* weights;
};

AxisTables device_tables(const Device& dev, const ipt::frontend::ImresizeAxis& ax) {
    DeviceTableCache& cache = table_cache(dev.ordinal);
    return {static_cast<const int32_t*>(cache.get(dev.stream, ax.tables, ax.indices.data(), ax.indices.size_bytes())),
            static_cast<const double*>(cache.get(dev.stream, ax.tables, ax.weights.data(), ax.weights.size_bytes()))};
}

void run_imresize(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::ImresizePlan plan = ipt::frontend::plan_imresize(args);
    const int64_t ch = plan.channels;
    const ipt_tensor* B = args.output("B", plan.dtype, plan.out_rows, plan.out_cols, ch);
    if (plan.out_rows * plan.out_cols * ch == 0) return;
    int64_t mid_rows, mid_cols;
    ipt::frontend::imresize_middle_size(plan, &mid_rows, &mid_cols);
    const int first = plan.first, second = 1 - first;
    const AxisTables t1 = device_tables(dev, plan.axis[first]);
    const AxisTables t2 = device_tables(dev, plan.axis[second]);
    const PassGeometry g1{plan.rows, plan.cols, mid_rows, mid_cols, ch, plan.axis[first].taps};
    const PassGeometry g2{mid_rows, mid_cols, plan.out_rows, plan.out_cols, ch, plan.axis[second].taps};
    visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        using W = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;
        DeviceArray<W> mid(static_cast<size_t>(mid_rows * mid_cols * ch), dev.stream);
        launch_pass(dev, dptr<const T>(plan.A), mid.get(), first, g1, t1.indices, t1.weights);
        launch_pass(dev, static_cast<const W*>(mid.get()), dptr<T>(B), second, g2, t2.indices, t2.weights);
    });
}

IPT_CUDA_OP("ipt.imresize", "", 100, run_imresize)

}  // namespace
}  // namespace ipt::cuda
