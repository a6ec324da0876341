// SPDX-License-Identifier: Apache-2.0
// ipt.adaptthresh on Vulkan as the front-end plans it
// (common/ops/adaptthresh.hpp): the passes of common/adaptthresh.cpp, in the
// CPU reference's order.
#include "common/adaptthresh.hpp"

namespace {

using namespace ipt::vk;

void run_adaptthresh(OpContext& ctx) {
    const ipt::frontend::AdaptthreshPlan plan = ipt::frontend::plan_adaptthresh(ctx.args);
    const ipt_tensor* T = ctx.args.output("T", IPT_DOUBLE, plan.rows, plan.cols, 1);
    if (plan.rows * plan.cols == 0) return;
    Recorder rec(ctx.device);
    record_adaptthresh(ctx, rec, plan, ctx.address(T));
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.adaptthresh", "wave32", 60, run_adaptthresh)
IPT_VK_OP("ipt.adaptthresh", "wave64", 50, run_adaptthresh)
