// SPDX-License-Identifier: Apache-2.0
// ipt.intlut on Vulkan as the front-end plans it (common/ops/intlut.hpp): one
// pass over every channel with the one table. The wave64 tuning converts a
// 32-bit word per load.
#include "op_support.hpp"
#include "common/ops/intlut.hpp"

namespace {

using namespace ipt::vk;

struct Push {
    uint64_t a, lut, b;
    int32_t n;
};

void run_intlut(OpContext& ctx) {
    const ipt::frontend::IntlutPlan plan = ipt::frontend::plan_intlut(ctx.args);
    check_size("ipt.intlut", plan.numel);
    const ipt_tensor* b = ctx.args.output("B", plan.dtype, plan.rows, plan.cols, plan.channels);
    if (plan.numel == 0) return;
    Push push{ctx.address(plan.A), ctx.address(plan.LUT), ctx.address(b), static_cast<int32_t>(plan.numel)};
    const bool vec = ctx.tuning.vector_width > 1 && OpContext::aligned({push.a, push.b}, 4);
    const uint32_t per_word = vec ? (plan.dtype == IPT_UINT8 ? 4 : 2) : 1;
    const uint32_t group = ctx.tuning.group_size;
    VkPipeline pipeline = ctx.pipeline("intlut", group, 1, {uint32_t(plan.dtype)}, vec ? 4 : 1);
    Grid grid = grid_for(ctx.device, plan.numel, uint64_t(group) * ctx.tuning.per_invocation * per_word);
    Recorder rec(ctx.device);
    rec.dispatch(pipeline, &push, sizeof push, grid.x, grid.y);
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.intlut", "wave32", 60, run_intlut)
IPT_VK_OP("ipt.intlut", "wave64", 50, run_intlut)
