// SPDX-License-Identifier: Apache-2.0
// ipt.otsuthresh on Vulkan: the front-end computes T and EM on the host
// (common/ops/otsuthresh.hpp); this writes them to the outputs.
#include "op_support.hpp"
#include "common/host_scalars.hpp"
#include "common/ops/otsuthresh.hpp"

namespace {

using namespace ipt::vk;

void run_otsuthresh(OpContext& ctx) {
    const ipt::frontend::OtsuthreshPlan plan = ipt::frontend::plan_otsuthresh(ctx.args);
    write_host_scalars(ctx, plan.out_dtype, {{"T", plan.T}, {"EM", plan.EM}});
}

}  // namespace

IPT_VK_OP("ipt.otsuthresh", "", 60, run_otsuthresh)
