// ipt.entropyfilt on Vulkan as the front-end plans it
// (common/ops/entropyfilt.hpp): one pass over every plane, each pixel
// counting its neighbourhood's bins (shaders/entropyfilt.comp).
#include <cstdint>
#include <vector>

#include "common/ops/entropyfilt.hpp"
#include "op_support.hpp"

namespace {

using namespace ipt::vk;

struct Push {
    uint64_t a, j, offsets;
    int32_t rows, cols, count;
};

void run_entropyfilt(OpContext& ctx) {
    const ipt::frontend::EntropyfiltPlan plan = ipt::frontend::plan_entropyfilt(ctx.args);
    check_size("ipt.entropyfilt", plan.rows * plan.cols * plan.channels);
    const ipt_tensor* in = ctx.args.image("I");
    const ipt_tensor* j = ctx.args.output("J", IPT_DOUBLE, plan.rows, plan.cols, plan.channels);
    if (plan.rows == 0 || plan.cols == 0 || plan.channels == 0) return;
    std::vector<int32_t> offsets;
    for (const auto& m : plan.nhood.members) {
        offsets.push_back(int32_t(m.dr));
        offsets.push_back(int32_t(m.dc));
    }
    Recorder rec(ctx.device);
    Push push{ctx.address(in), ctx.address(j), offsets.empty() ? 0 : rec.params(offsets), int32_t(plan.rows),
              int32_t(plan.cols), int32_t(plan.count)};
    const uint32_t gx = ctx.tuning.group_x, gy = ctx.tuning.group_y;
    VkPipeline pipeline = ctx.pipeline("entropyfilt", gx, gy, {uint32_t(plan.in_dtype)});
    rec.dispatch(pipeline, &push, sizeof push, div_up(plan.cols, gx),
                 div_up(plan.rows, uint64_t(gy) * ctx.tuning.per_invocation), uint32_t(plan.channels));
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.entropyfilt", "wave32", 60, run_entropyfilt)
IPT_VK_OP("ipt.entropyfilt", "wave64", 50, run_entropyfilt)
