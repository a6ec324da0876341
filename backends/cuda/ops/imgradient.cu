// SPDX-License-Identifier: Apache-2.0
// ipt.imgradient as the front-end plans it (common/ops/imgradient.hpp): the
// gradient walk of common/gradient.cuh (a column strip a thread), then the
// front-end's magnitude and direction in degrees with CUDA's sqrt, hypot and
// atan2 (single through double, one rounding; gradient_atan2_single and
// gradient_degrees_single give single directions at less cost, to the same
// bits).
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/gradient.cuh"
#include "common/op_registry.hpp"
#include "common/ops/imgradient.hpp"

namespace ipt::cuda {
namespace {

using ipt::frontend::GradientMethod;

// Dir is T, or double for roberts.
template <class T, class Dir, class In>
__global__ void __launch_bounds__(kGradientWidth)
magnitude_direction_kernel(const In* __restrict__ in, T* __restrict__ mag, Dir* __restrict__ dir, int64_t rows,
                           int64_t cols, GradientMethod method) {
    gradient_walk<T>(in, rows, cols, method, [&](int64_t i, T x, T y) {
        mag[i] = ipt::frontend::gradient_magnitude(x, y);
        if (!dir) return;
        if (method == GradientMethod::Roberts)
            dir[i] = static_cast<Dir>(ipt::frontend::roberts_direction(x, y));
        else if constexpr (sizeof(T) == 4)
            dir[i] = static_cast<Dir>(gradient_degrees_single(gradient_atan2_single(-y, x)));
        else
            dir[i] = static_cast<Dir>(ipt::frontend::gradient_direction(x, y));
    });
}

template <class T, class In>
void launch(const Device& dev, const ipt::frontend::ImgradientPlan& plan, const In* in, const ipt_tensor* mag,
            const ipt_tensor* dir) {
    const auto& p = plan.xy;
    const dim3 grid = gradient_grid(p.rows, p.cols);
    if (plan.dir_dtype == IPT_DOUBLE)
        magnitude_direction_kernel<T, double><<<grid, kGradientWidth, 0, dev.stream>>>(
            in, dptr<T>(mag), dir ? dptr<double>(dir) : nullptr, p.rows, p.cols, p.method);
    else
        magnitude_direction_kernel<T, float><<<grid, kGradientWidth, 0, dev.stream>>>(
            in, dptr<T>(mag), dir ? dptr<float>(dir) : nullptr, p.rows, p.cols, p.method);
}

void run_imgradient(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::ImgradientPlan plan = ipt::frontend::plan_imgradient(args);
    const ipt_tensor* mag = args.output("Gmag", plan.mag_dtype, plan.xy.rows, plan.xy.cols);
    const ipt_tensor* dir =
        args.wanted("Gdir") ? args.output("Gdir", plan.dir_dtype, plan.xy.rows, plan.xy.cols) : nullptr;
    if (plan.xy.numel == 0) return;
    visit_dtype(plan.xy.in_dtype, [&](auto tag) {
        using In = decltype(tag);
        const In* in = dptr<const In>(plan.xy.I);
        if (plan.mag_dtype == IPT_SINGLE) launch<float>(dev, plan, in, mag, dir);
        else launch<double>(dev, plan, in, mag, dir);
    });
    check_launch("ipt.imgradient");
}

IPT_CUDA_OP("ipt.imgradient", "", 100, run_imgradient)

}  // namespace
}  // namespace ipt::cuda
