// SPDX-License-Identifier: Apache-2.0
// ipt.imgradientxy as the front-end plans it (common/ops/imgradientxy.hpp):
// each pixel's stencil in the class of Gx, rows shared among threads (a row
// at a time, common/gradient_rows.hpp).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/gradient_rows.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/parallel.hpp"
#include "common/ops/imgradientxy.hpp"

namespace {

template <class T, class In>
void gradients(const ipt::frontend::ImgradientxyPlan& p, const In* in, T* gx, T* gy) {
    const int64_t cols = p.cols;
    constexpr int64_t kRows = 8;
    ipt::cpu::parallel_for(0, (p.rows + kRows - 1) / kRows, [&](int64_t blk) {
        // Gy into a scratch row when it is not wanted.
        std::vector<T> scratch(gy ? 0 : static_cast<size_t>(cols));
        for (int64_t r = blk * kRows; r < std::min(p.rows, (blk + 1) * kRows); ++r)
            ipt::cpu::gradient_xy_row<T>(p, in, r, gx + r * cols, gy ? gy + r * cols : scratch.data());
    });
}

void run_imgradientxy(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::ImgradientxyPlan plan = ipt::frontend::plan_imgradientxy(args);
    const ipt_tensor* gx = args.output("Gx", plan.out_dtype, plan.rows, plan.cols);
    const ipt_tensor* gy = args.wanted("Gy") ? args.output("Gy", plan.out_dtype, plan.rows, plan.cols) : nullptr;
    if (plan.numel == 0) return;
    ipt::cpu::visit_dtype(plan.in_dtype, [&](auto tag) {
        using In = decltype(tag);
        const auto* in = static_cast<const In*>(plan.I->data);
        if (plan.out_dtype == IPT_SINGLE)
            gradients<float>(plan, in, static_cast<float*>(gx->data), gy ? static_cast<float*>(gy->data) : nullptr);
        else
            gradients<double>(plan, in, static_cast<double*>(gx->data), gy ? static_cast<double*>(gy->data) : nullptr);
    });
}

}  // namespace

IPT_CPU_OP("ipt.imgradientxy", "", 100, run_imgradientxy)
