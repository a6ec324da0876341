// SPDX-License-Identifier: Apache-2.0
// ipt.medfilt2 on the CPU: the plan's middle order of each m x n window, or
// for an even window the plan's combination of the two middle orders (rules:
// common/ops/medfilt2.hpp; kernels: common/order_filter.hpp).
#include <type_traits>
#include <vector>

#include "common/op_registry.hpp"
#include "common/ops/medfilt2.hpp"
#include "common/order_filter.hpp"
#include "common/rounding.hpp"

namespace {

namespace ord = ipt::cpu::order;
using ipt::frontend::MedianRule;

// dst = the plan's rule applied to (lower, upper), in double.
template <class T>
void combine_middles(T* dst, const T* upper, int64_t rows, int64_t cols, MedianRule rule) {
    ipt::cpu::parallel_for(
        0, rows,
        [&](int64_t r) {
            T* lo = dst + r * cols;
            const T* hi = upper + r * cols;
            for (int64_t c = 0; c < cols; ++c) {
                const double v = 0.5 * static_cast<double>(lo[c]) + 0.5 * static_cast<double>(hi[c]);
                lo[c] = rule == MedianRule::Mean ? static_cast<T>(v) : ipt::cpu::saturate_round<T>(v);
            }
        },
        16);
}

void run_medfilt2(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::Medfilt2Plan plan = ipt::frontend::plan_medfilt2(args);
    const ipt_tensor* a = args.image("A");
    const ipt_tensor* b = args.output("B", plan.a_class, plan.rows, plan.cols);
    const ord::Domain dom = ord::full_domain(plan.window_rows, plan.window_cols, plan.centre_row, plan.centre_col);
    const int64_t k = plan.order - 1;
    ipt::cpu::visit_dtype(plan.a_class, [&](auto tag) {
        using T = decltype(tag);
        const T* src = static_cast<const T*>(a->data);
        T* dst = static_cast<T*>(b->data);
        if (plan.rule == MedianRule::Middle) {
            ord::filter(src, dst, plan.rows, plan.cols, dom, k, plan.pad);
        } else if (plan.rule == MedianRule::Upper) {
            ord::filter(src, dst, plan.rows, plan.cols, dom, k + 1, plan.pad);
        } else if constexpr (!std::is_same_v<T, bool>) {
            std::vector<T> upper(static_cast<size_t>(plan.rows * plan.cols));
            ord::filter(src, dst, plan.rows, plan.cols, dom, k, plan.pad);
            ord::filter(src, upper.data(), plan.rows, plan.cols, dom, k + 1, plan.pad);
            combine_middles(dst, upper.data(), plan.rows, plan.cols, plan.rule);
        } else {
            ipt::plugin::unsupported("ipt.medfilt2: no mean of two logical values");
        }
    });
}

}  // namespace

IPT_CPU_OP("ipt.medfilt2", "", 100, run_medfilt2)
