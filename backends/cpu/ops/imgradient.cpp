// SPDX-License-Identifier: Apache-2.0
// ipt.imgradient as the front-end plans it (common/ops/imgradient.hpp): each
// pixel's Gx and Gy from imgradientxy's stencils, then hypot and the
// direction in degrees, rows shared among threads (a row of Gx and Gy at a
// time, common/gradient_rows.hpp).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/gradient_rows.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/parallel.hpp"
#include "common/ops/imgradient.hpp"

namespace {

using ipt::frontend::GradientMethod;

// Dir is T, or double for roberts.
template <class T, class Dir, class In>
void magnitude_direction(const ipt::frontend::ImgradientxyPlan& p, const In* in, T* mag, Dir* dir) {
    const int64_t cols = p.cols;
    constexpr int64_t kRows = 8;
    ipt::cpu::parallel_for(0, (p.rows + kRows - 1) / kRows, [&](int64_t blk) {
        std::vector<T> gx(static_cast<size_t>(cols)), gy(static_cast<size_t>(cols));
        for (int64_t r = blk * kRows; r < std::min(p.rows, (blk + 1) * kRows); ++r) {
            ipt::cpu::gradient_xy_row<T>(p, in, r, gx.data(), gy.data());
            ipt::cpu::gradient_magnitude_row<T>(gx.data(), gy.data(), mag + r * cols, cols);
            if (!dir) continue;
            Dir* d = dir + r * cols;
            for (int64_t c = 0; c < cols; ++c) {
                const T x = gx[static_cast<size_t>(c)], y = gy[static_cast<size_t>(c)];
                if (p.method == GradientMethod::Roberts)
                    d[c] = static_cast<Dir>(ipt::frontend::roberts_direction(x, y));
                else
                    d[c] = static_cast<Dir>(ipt::frontend::gradient_direction(x, y));
            }
        }
    });
}

template <class T, class In>
void compute(const ipt::frontend::ImgradientPlan& plan, const In* in, const ipt_tensor* mag, const ipt_tensor* dir) {
    T* m = static_cast<T*>(mag->data);
    if (plan.dir_dtype == IPT_DOUBLE)
        magnitude_direction<T, double>(plan.xy, in, m, dir ? static_cast<double*>(dir->data) : nullptr);
    else
        magnitude_direction<T, float>(plan.xy, in, m, dir ? static_cast<float*>(dir->data) : nullptr);
}

void run_imgradient(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::ImgradientPlan plan = ipt::frontend::plan_imgradient(args);
    const ipt_tensor* mag = args.output("Gmag", plan.mag_dtype, plan.xy.rows, plan.xy.cols);
    const ipt_tensor* dir =
        args.wanted("Gdir") ? args.output("Gdir", plan.dir_dtype, plan.xy.rows, plan.xy.cols) : nullptr;
    if (plan.xy.numel == 0) return;
    ipt::cpu::visit_dtype(plan.xy.in_dtype, [&](auto tag) {
        using In = decltype(tag);
        const auto* in = static_cast<const In*>(plan.xy.I->data);
        if (plan.mag_dtype == IPT_SINGLE) compute<float>(plan, in, mag, dir);
        else compute<double>(plan, in, mag, dir);
    });
}

}  // namespace

IPT_CPU_OP("ipt.imgradient", "", 100, run_imgradient)
