// SPDX-License-Identifier: Apache-2.0
// ipt.stretchlim on Vulkan as the front-end plans it
// (common/ops/stretchlim.hpp), computed by the device's stretchlim engine
// (common/stretchlim.cpp) into the output.
#include "common/stretchlim.hpp"

namespace {

using namespace ipt::vk;

void run_stretchlim(OpContext& ctx) {
    const ipt::frontend::StretchlimPlan plan = ipt::frontend::plan_stretchlim(ctx.args);
    check_size("ipt.stretchlim", plan.plane * plan.channels);
    const ipt_tensor* out = ctx.args.output("LOWHIGH", plan.out_dtype, plan.out_rows, plan.out_cols, 1);
    Recorder rec(ctx.device);
    ctx.address(out);  // checks that it is on this device
    record_stretchlim(ctx, rec, plan, static_cast<Buffer*>(out->buffer), out->offset);
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.stretchlim", "wave32", 60, run_stretchlim)
IPT_VK_OP("ipt.stretchlim", "wave64", 50, run_stretchlim)
