// SPDX-License-Identifier: Apache-2.0
// ipt.strel on Vulkan: the plan (backends/common/ops/strel.hpp) is built on
// the host and copied into the outputs on the device.
#include "common/ops/strel.hpp"
#include "op_support.hpp"

namespace {

using namespace ipt::vk;

void run_strel(OpContext& ctx) {
    const ipt::plugin::KernelArgs& args = ctx.args;
    const ipt::frontend::StrelPlan plan = ipt::frontend::plan_strel(args);
    const ipt::common::StrelMask& nh = plan.strel.nhood;
    const ipt_tensor* nhood = args.output("nhood", IPT_LOGICAL, nh.rows, nh.cols, 1);
    const ipt_tensor* dec =
        plan.factor_count ? args.output("decomposition", IPT_LOGICAL, nh.rows, nh.cols, plan.factor_count) : nullptr;
    ctx.address(nhood);
    Recorder rec(ctx.device);
    rec.write(static_cast<Buffer*>(nhood->buffer), nhood->offset, nh.bits.data(), nh.bits.size());
    if (dec) {
        ctx.address(dec);
        rec.write(static_cast<Buffer*>(dec->buffer), dec->offset, plan.planes.data(), plan.planes.size());
    }
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.strel", "", 55, run_strel)
