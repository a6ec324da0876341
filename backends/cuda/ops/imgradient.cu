// SPDX-License-Identifier: Apache-2.0
// ipt.imgradient as the front-end plans it (common/ops/imgradient.hpp): one
// thread per pixel: the shared stencil, then hypot and the direction in
// degrees with CUDA's hypot and atan2 (a few ulp; single through double).
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/ops/imgradient.hpp"

namespace ipt::cuda {
namespace {

using ipt::frontend::GradientMethod;

// Dir is T, or double for roberts.
template <class T, class Dir, class In>
__global__ void magnitude_direction_kernel(const In* __restrict__ in, T* __restrict__ mag, Dir* __restrict__ dir,
                                           int64_t rows, int64_t cols, GradientMethod method) {
    // x: the column, y: the row (a grid-stride loop past 65535 rows): no thread divides.
    const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    for (int64_t r = blockIdx.y; r < rows; r += gridDim.y) {
        const int64_t i = r * cols + c;
        T x, y;
        ipt::frontend::gradient_xy<T>(in, rows, cols, r, c, method, x, y);
        mag[i] = ipt::frontend::gradient_magnitude(x, y);
        if (!dir) continue;
        if (method == GradientMethod::Roberts)
            dir[i] = static_cast<Dir>(ipt::frontend::roberts_direction(x, y));
        else
            dir[i] = static_cast<Dir>(ipt::frontend::gradient_direction(x, y));
    }
}

template <class T, class In>
void launch(const Device& dev, const ipt::frontend::ImgradientPlan& plan, const In* in, const ipt_tensor* mag,
            const ipt_tensor* dir) {
    const auto& p = plan.xy;
    constexpr int kWidth = 128;
    const dim3 grid(static_cast<unsigned>((p.cols + kWidth - 1) / kWidth),
                    static_cast<unsigned>(p.rows < 65535 ? p.rows : 65535));
    if (plan.dir_dtype == IPT_DOUBLE)
        magnitude_direction_kernel<T, double><<<grid, kWidth, 0, dev.stream>>>(
            in, dptr<T>(mag), dir ? dptr<double>(dir) : nullptr, p.rows, p.cols, p.method);
    else
        magnitude_direction_kernel<T, float><<<grid, kWidth, 0, dev.stream>>>(
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
