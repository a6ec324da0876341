// SPDX-License-Identifier: Apache-2.0
// ipt.imgradientxy as the front-end plans it (common/ops/imgradientxy.hpp):
// the gradient walk of common/gradient.cuh (a column strip a thread) over the
// shared stencil in the class of Gx.
// The stencil adds and subtracts only (no products to contract into fused
// multiply-adds), so results match the reference bit for bit.
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/gradient.cuh"
#include "common/op_registry.hpp"
#include "common/ops/imgradientxy.hpp"

namespace ipt::cuda {
namespace {

using ipt::frontend::GradientMethod;

template <class T, class In>
__global__ void __launch_bounds__(kGradientWidth)
gradient_kernel(const In* __restrict__ in, T* __restrict__ gx, T* __restrict__ gy, int64_t rows, int64_t cols,
                GradientMethod method) {
    gradient_walk<T>(in, rows, cols, method, [&](int64_t i, T x, T y) {
        gx[i] = x;
        if (gy) gy[i] = y;
    });
}

void run_imgradientxy(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::ImgradientxyPlan plan = ipt::frontend::plan_imgradientxy(args);
    const ipt_tensor* gx = args.output("Gx", plan.out_dtype, plan.rows, plan.cols);
    const ipt_tensor* gy = args.wanted("Gy") ? args.output("Gy", plan.out_dtype, plan.rows, plan.cols) : nullptr;
    if (plan.numel == 0) return;
    visit_dtype(plan.in_dtype, [&](auto tag) {
        using In = decltype(tag);
        const In* in = dptr<const In>(plan.I);
        if (plan.out_dtype == IPT_SINGLE)
            gradient_kernel<float><<<gradient_grid(plan.rows, plan.cols), kGradientWidth, 0, dev.stream>>>(
                in, dptr<float>(gx), gy ? dptr<float>(gy) : nullptr, plan.rows, plan.cols, plan.method);
        else
            gradient_kernel<double><<<gradient_grid(plan.rows, plan.cols), kGradientWidth, 0, dev.stream>>>(
                in, dptr<double>(gx), gy ? dptr<double>(gy) : nullptr, plan.rows, plan.cols, plan.method);
    });
    check_launch("ipt.imgradientxy");
}

IPT_CUDA_OP("ipt.imgradientxy", "", 100, run_imgradientxy)

}  // namespace
}  // namespace ipt::cuda
