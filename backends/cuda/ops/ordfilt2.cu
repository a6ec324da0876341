// SPDX-License-Identifier: Apache-2.0
// ipt.ordfilt2 on CUDA: the plan's order statistic of each window, with the
// additive offsets S when given (rules: common/ops/ordfilt2.hpp; kernel:
// common/order_filter.cuh).
#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/ops/ordfilt2.hpp"
#include "common/order_filter.cuh"

namespace ipt::cuda {
namespace {

void run_ordfilt2(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::Ordfilt2Plan plan = ipt::frontend::plan_ordfilt2(args);
    if (!order_window_fits(plan.window.count(), plan.window.with_offsets()))
        ipt::plugin::unsupported("ipt.ordfilt2: domain too large for libipt_cuda");
    const ipt_tensor* a = args.image("A");
    const ipt_tensor* b = args.output("B", plan.b_class, plan.rows, plan.cols);
    const int order = static_cast<int>(plan.order);
    visit_dtype(plan.a_class, [&](auto tag) {
        using T = decltype(tag);
        if (plan.window.with_offsets())
            order_filter_async<T, double, true>(dptr<const T>(a), dptr<double>(b), plan.rows, plan.cols, plan.window,
                                                order, 0, plan.pad, dev.stream, "ipt.ordfilt2");
        else
            order_filter_async<T, T, false>(dptr<const T>(a), dptr<T>(b), plan.rows, plan.cols, plan.window, order, 0,
                                            plan.pad, dev.stream, "ipt.ordfilt2");
    });
}

IPT_CUDA_OP("ipt.ordfilt2", "", 100, run_ordfilt2)

}  // namespace
}  // namespace ipt::cuda
