// SPDX-License-Identifier: Apache-2.0
// ipt.imrotate on Vulkan as the front-end plans it (common/ops/imrotate.hpp),
// sampled by the shared resampler (common/warp.hpp).
#include "op_support.hpp"
#include "common/warp.hpp"
#include "common/ops/imrotate.hpp"

namespace {

using namespace ipt::vk;

void run_imrotate(OpContext& ctx) {
    const ipt::frontend::WarpPlan plan = ipt::frontend::plan_imrotate(ctx.args);
    const ipt_tensor* out = ctx.args.output("J", plan.dtype, plan.out_rows, plan.out_cols, plan.channels);
    run_warp(ctx, plan, out);
}

}  // namespace

IPT_VK_OP("ipt.imrotate", "wave32", 60, run_imrotate)
IPT_VK_OP("ipt.imrotate", "wave64", 50, run_imrotate)
