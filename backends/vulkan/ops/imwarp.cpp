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
    if (ctx.args.wanted("RB")) {
        const ipt_tensor* rb = ctx.args.output("RB", IPT_DOUBLE, 1, 6, 1);
        ctx.address(rb);
        Recorder rec(ctx.device);
        rec.write(static_cast<Buffer*>(rb->buffer), rb->offset, plan.ref.data(), 6 * sizeof(double));
        rec.submit();
    }
    run_warp(ctx, plan, out);
}

}  // namespace

IPT_VK_OP("ipt.imwarp", "wave32", 60, run_imwarp)
IPT_VK_OP("ipt.imwarp", "wave64", 50, run_imwarp)
