// ipt.otsuthresh on Vulkan: the front-end computes T and EM on the host
// (common/ops/otsuthresh.hpp); this writes them to the outputs.
#include "op_support.hpp"
#include "common/ops/otsuthresh.hpp"

namespace {

using namespace ipt::vk;

void run_otsuthresh(OpContext& ctx) {
    const ipt::frontend::OtsuthreshPlan plan = ipt::frontend::plan_otsuthresh(ctx.args);
    Recorder rec(ctx.device);
    const ipt_tensor* t = ctx.args.output("T", plan.out_dtype, 1, 1, 1);
    ctx.address(t);  // checks that it is on this device
    rec.write(static_cast<Buffer*>(t->buffer), t->offset, &plan.T, sizeof(double));
    if (ctx.args.wanted("EM")) {
        const ipt_tensor* em = ctx.args.output("EM", plan.out_dtype, 1, 1, 1);
        ctx.address(em);
        rec.write(static_cast<Buffer*>(em->buffer), em->offset, &plan.EM, sizeof(double));
    }
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.otsuthresh", "", 60, run_otsuthresh)
