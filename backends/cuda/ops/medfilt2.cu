// SPDX-License-Identifier: Apache-2.0
// ipt.medfilt2 on CUDA: the plan's middle order of each m x n window, or for
// an even window the plan's combination of the two middle orders (rules:
// common/ops/medfilt2.hpp: 0.5*v1 + 0.5*v2 in double, integers rounded half
// away from zero; logical takes the upper order). 3x3 and 5x5 windows of 8-
// and 16-bit classes use a median network (common/order_filter.cuh).
#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/ops/medfilt2.hpp"
#include "common/order_filter.cuh"

namespace ipt::cuda {
namespace {

using ipt::frontend::MedianRule;

void run_medfilt2(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::Medfilt2Plan plan = ipt::frontend::plan_medfilt2(args);
    const ipt_tensor* a = args.image("A");
    if (!order_window_fits(plan.count, false))
        ipt::plugin::unsupported("ipt.medfilt2: window too large for libipt_cuda");
    const ipt_tensor* b = args.output("B", plan.a_class, plan.rows, plan.cols);
    const int order1 = static_cast<int>(plan.rule == MedianRule::Upper ? plan.order + 1 : plan.order);
    const int order2 = plan.rule == MedianRule::Middle || plan.rule == MedianRule::Upper ? 0 : order1 + 1;
    const Border border = plan.pad.kind == ipt::frontend::order::Pad::Symmetric ? Border::Symmetric : Border::Constant;
    visit_dtype(plan.a_class, [&](auto tag) {
        using T = decltype(tag);
        const T pad = static_cast<T>(plan.pad.value);
        const int64_t m = plan.window_rows, n = plan.window_cols;
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t>) {
            // Odd K x K windows: centre (K-1)/2, the plan's centre_row/col.
            if (plan.rule == MedianRule::Middle && m == n && (m == 3 || m == 5) && plan.rows > 0 && plan.cols > 0) {
                dim3 grid(static_cast<unsigned>((plan.cols + 31) / 32), static_cast<unsigned>((plan.rows + 31) / 32));
                if (m == 3)
                    median_network<T, 3><<<grid, dim3(32, 8), 0, dev.stream>>>(dptr<const T>(a), dptr<T>(b), plan.rows,
                                                                               plan.cols, border, pad);
                else
                    median_network<T, 5><<<grid, dim3(32, 8), 0, dev.stream>>>(dptr<const T>(a), dptr<T>(b), plan.rows,
                                                                               plan.cols, border, pad);
                check_launch("ipt.medfilt2");
                return;
            }
        }
        order_filter_async<T, T, false>(dptr<const T>(a), dptr<T>(b), plan.rows, plan.cols, plan.window(), order1,
                                        order2, plan.pad, dev.stream, "ipt.medfilt2");
    });
}

IPT_CUDA_OP("ipt.medfilt2", "", 100, run_medfilt2)

}  // namespace
}  // namespace ipt::cuda
