// SPDX-License-Identifier: Apache-2.0
// ipt.ordfilt2 on the CPU: the plan's order statistic of each window
// (rules: common/ops/ordfilt2.hpp; kernels: common/order_filter.hpp).
#include "common/op_registry.hpp"
#include "common/ops/ordfilt2.hpp"
#include "common/order_filter.hpp"

namespace {

namespace ord = ipt::cpu::order;

void run_ordfilt2(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::Ordfilt2Plan plan = ipt::frontend::plan_ordfilt2(args);
    const ipt_tensor* a = args.image("A");
    const ipt_tensor* b = args.output("B", plan.b_class, plan.rows, plan.cols);
    const ord::Domain dom = ord::domain_of(plan.window);
    const int64_t k = plan.order - 1;
    ipt::cpu::visit_dtype(plan.a_class, [&](auto tag) {
        using T = decltype(tag);
        const T* src = static_cast<const T*>(a->data);
        if (plan.window.with_offsets())
            ord::filter_offsets(src, static_cast<double*>(b->data), plan.rows, plan.cols, dom, k,
                                plan.window.s.data(), plan.pad);
        else
            ord::filter(src, static_cast<T*>(b->data), plan.rows, plan.cols, dom, k, plan.pad);
    });
}

}  // namespace

IPT_CPU_OP("ipt.ordfilt2", "", 100, run_ordfilt2)
