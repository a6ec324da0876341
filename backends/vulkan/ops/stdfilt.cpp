// SPDX-License-Identifier: Apache-2.0
// ipt.stdfilt on Vulkan as the front-end plans it (common/ops/stdfilt.hpp):
// one pass over every plane, each pixel summing its neighbourhood's offsets,
// in integers where the plan allows (shaders/stdfilt.comp).
#include <cstdint>
#include <vector>

#include "common/ops/stdfilt.hpp"
#include "op_support.hpp"

namespace {

using namespace ipt::vk;

struct Push {
    uint64_t a, j, offsets;
    int32_t rows, cols, count, extent;
};

void run_stdfilt(OpContext& ctx) {
    const ipt::frontend::StdfiltPlan plan = ipt::frontend::plan_stdfilt(ctx.args);
    check_size("ipt.stdfilt", plan.rows * plan.cols * plan.channels);
    const ipt_tensor* in = ctx.args.image("I");
    const ipt_tensor* j = ctx.args.output("J", plan.out_dtype, plan.rows, plan.cols, plan.channels);
    if (plan.rows == 0 || plan.cols == 0 || plan.channels == 0) return;
    std::vector<int32_t> offsets;
    for (const auto& m : plan.nhood.members) {
        offsets.push_back(int32_t(m.dr));
        offsets.push_back(int32_t(m.dc));
    }
    Recorder rec(ctx.device);
    const int32_t count = plan.zero ? 0 : int32_t(plan.count);
    Push push{ctx.address(in), ctx.address(j), count ? rec.params(offsets) : 0, int32_t(plan.rows),
              int32_t(plan.cols), count, int32_t(plan.nhood.extent)};
    const uint32_t gx = ctx.tuning.group_x, gy = ctx.tuning.group_y;
    VkPipeline pipeline = ctx.pipeline(
        "stdfilt", gx, gy, {uint32_t(plan.in_dtype), plan.out_dtype == IPT_SINGLE ? 1u : 0u, uint32_t(plan.sums)});
    rec.dispatch(pipeline, &push, sizeof push, div_up(plan.cols, gx),
                 div_up(plan.rows, uint64_t(gy) * ctx.tuning.per_invocation), uint32_t(plan.channels));
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.stdfilt", "wave32", 60, run_stdfilt)
IPT_VK_OP("ipt.stdfilt", "wave64", 50, run_stdfilt)
