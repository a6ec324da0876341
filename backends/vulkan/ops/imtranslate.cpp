// SPDX-License-Identifier: Apache-2.0
// ipt.imtranslate on Vulkan as the front-end plans it (common/ops/imtranslate.hpp),
// sampled by the shared resampler (common/warp.hpp).
#include "op_support.hpp"
#include "common/warp.hpp"
#include "common/ops/imtranslate.hpp"

namespace {

using namespace ipt::vk;

void run_imtranslate(OpContext& ctx) {
    const ipt::frontend::WarpPlan plan = ipt::frontend::plan_imtranslate(ctx.args);
    const ipt_tensor* out = ctx.args.output("B", plan.dtype, plan.out_rows, plan.out_cols, plan.channels);
    run_warp(ctx, plan, out);
}

}  // namespace

IPT_VK_OP("ipt.imtranslate", "wave32", 60, run_imtranslate)
IPT_VK_OP("ipt.imtranslate", "wave64", 50, run_imtranslate)
