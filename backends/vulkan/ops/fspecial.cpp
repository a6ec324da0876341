// SPDX-License-Identifier: Apache-2.0
// ipt.fspecial on Vulkan: the front-end (backends/common/ops/fspecial.hpp)
// builds the filter on the host; it is copied into the output on the device.
#include "op_support.hpp"
#include "common/ops/fspecial.hpp"

namespace {

using namespace ipt::vk;

void run_fspecial(OpContext& ctx) {
    const ipt::frontend::FspecialPlan plan = ipt::frontend::plan_fspecial(ctx.args);
    const ipt_tensor* out = ctx.args.output("h", IPT_DOUBLE, plan.h.rows, plan.h.cols, 1);
    if (plan.h.h.empty()) return;
    ctx.address(out);
    Recorder rec(ctx.device);
    rec.write(static_cast<Buffer*>(out->buffer), out->offset, plan.h.h.data(), plan.h.h.size() * sizeof(double));
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.fspecial", "", 55, run_fspecial)
