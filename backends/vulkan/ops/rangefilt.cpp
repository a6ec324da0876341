// SPDX-License-Identifier: Apache-2.0
// ipt.rangefilt on Vulkan as the front-end plans it (common/ops/rangefilt.hpp):
// the maximum over the imdilate plan's members and the minimum over the
// imerode plan's, one pass over every plane (shaders/rangefilt.comp).
#include <cstdint>
#include <vector>

#include "common/ops/rangefilt.hpp"
#include "op_support.hpp"

namespace {

using namespace ipt::vk;

struct Push {
    uint64_t a, j, offsets;
    int32_t rows, cols, n_max, n_min;
};

void run_rangefilt(OpContext& ctx) {
    const ipt::frontend::RangefiltPlan plan = ipt::frontend::plan_rangefilt(ctx.args);
    check_size("ipt.rangefilt", plan.rows * plan.cols * plan.channels);
    const ipt_tensor* in = ctx.args.image("I");
    const ipt_tensor* j = ctx.args.output("J", plan.out_dtype, plan.rows, plan.cols, plan.channels);
    if (plan.rows == 0 || plan.cols == 0 || plan.channels == 0) return;
    std::vector<int32_t> offsets;
    for (const auto* p : {&plan.max_plan, &plan.min_plan})
        for (const auto& m : p->members) {
            offsets.push_back(int32_t(m.dr));
            offsets.push_back(int32_t(m.dc));
        }
    Recorder rec(ctx.device);
    Push push{ctx.address(in),
              ctx.address(j),
              offsets.empty() ? 0 : rec.params(offsets),
              int32_t(plan.rows),
              int32_t(plan.cols),
              int32_t(plan.max_plan.members.size()),
              int32_t(plan.min_plan.members.size())};
    const uint32_t gx = ctx.tuning.group_x, gy = ctx.tuning.group_y;
    VkPipeline pipeline =
        ctx.pipeline("rangefilt", gx, gy, {uint32_t(plan.in_dtype), uint32_t(plan.out_dtype)});
    rec.dispatch(pipeline, &push, sizeof push, div_up(plan.cols, gx),
                 div_up(plan.rows, uint64_t(gy) * ctx.tuning.per_invocation), uint32_t(plan.channels));
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.rangefilt", "wave32", 60, run_rangefilt)
IPT_VK_OP("ipt.rangefilt", "wave64", 50, run_rangefilt)
