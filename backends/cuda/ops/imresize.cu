// ipt.imresize as the front-end plans it (common/ops/imresize.hpp): one
// kernel launch per dimension, the first into scratch of the working class.
// Each thread forms one output element as the weighted sum over the
// front-end's taps in order, in double (--fmad=false: every product and sum
// rounds as on the host), so integer results are the CPU's bit for bit.
#include <type_traits>

#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/ops/imresize.hpp"

namespace ipt::cuda {
namespace {

struct PassGeometry {
    int64_t in_rows, in_cols, out_rows, out_cols, total;
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

template <class S, class D, bool AlongCols>
__global__ void imresize_pass(const S* __restrict__ src, D* __restrict__ dst, PassGeometry g,
                              const int32_t* __restrict__ idx, const double* __restrict__ w) {
    IPT_GRID_STRIDE(e, g.total) {
        const int64_t c = e % g.out_cols, t = e / g.out_cols;
        const int64_t r = t % g.out_rows, ch = t / g.out_rows;
        const S* plane = src + ch * g.in_rows * g.in_cols;
        const int64_t i = AlongCols ? c : r;
        const int32_t* ii = idx + i * g.taps;
        const double* ww = w + i * g.taps;
        double acc = 0;
        for (int k = 0; k < g.taps; ++k) {
            const int64_t j = __ldg(ii + k);
            const S v = AlongCols ? plane[r * g.in_cols + j] : plane[j * g.in_cols + c];
            acc = acc + __ldg(ww + k) * resize_load(v);
        }
        dst[e] = resize_store<D>(acc);
    }
}

template <class S, class D>
void launch_pass(const Device& dev, const S* src, D* dst, int dim, const PassGeometry& g, const int32_t* idx,
                 const double* w) {
    if (dim == 0)
        imresize_pass<S, D, false><<<grid_for(g.total), kThreads, 0, dev.stream>>>(src, dst, g, idx, w);
    else
        imresize_pass<S, D, true><<<grid_for(g.total), kThreads, 0, dev.stream>>>(src, dst, g, idx, w);
    check_launch("ipt.imresize");
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
    const DeviceArray<int32_t> idx1 = to_device(plan.axis[first].indices, dev.stream);
    const DeviceArray<double> w1 = to_device(plan.axis[first].weights, dev.stream);
    const DeviceArray<int32_t> idx2 = to_device(plan.axis[second].indices, dev.stream);
    const DeviceArray<double> w2 = to_device(plan.axis[second].weights, dev.stream);
    const PassGeometry g1{plan.rows, plan.cols, mid_rows, mid_cols, mid_rows * mid_cols * ch, plan.axis[first].taps};
    const PassGeometry g2{mid_rows, mid_cols, plan.out_rows, plan.out_cols, plan.out_rows * plan.out_cols * ch,
                          plan.axis[second].taps};
    visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        using W = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;
        DeviceArray<W> mid(static_cast<size_t>(g1.total), dev.stream);
        launch_pass(dev, dptr<const T>(plan.A), mid.get(), first, g1, idx1.get(), w1.get());
        launch_pass(dev, static_cast<const W*>(mid.get()), dptr<T>(B), second, g2, idx2.get(), w2.get());
    });
}

IPT_CUDA_OP("ipt.imresize", "", 100, run_imresize)

}  // namespace
}  // namespace ipt::cuda
