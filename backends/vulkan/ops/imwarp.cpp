// SPDX-License-Identifier: Apache-2.0
// ipt.imwarp on Vulkan as the front-end plans it (common/ops/imwarp.hpp),
// sampled by the shared resampler (common/warp.hpp).
#include "op_support.hpp"
#include "common/warp.hpp"
#include "common/ops/imwarp.hpp"

namespace {

using namespace ipt::vk;

void run_imwarp(OpContext& ctx) {
    const ipt::frontend::WarpPlan plan = ipt::frontend::plan_imwarp(ctx.args);
    const ipt_tensor* out = ctx.args.output("B", plan.dtype, plan.out_rows, plan.out_cols, plan.channels);
    const ipt_tensor* rb = ctx.args.wanted("RB") ? ctx.args.output("RB", IPT_DOUBLE, 1, 6, 1) : nullptr;
    run_warp(ctx, plan, out, rb);
}

}  // namespace

IPT_VK_OP("ipt.imwarp", "wave32", 60, run_imwarp)
IPT_VK_OP("ipt.imwarp", "wave64", 50, run_imwarp)
