// SPDX-License-Identifier: Apache-2.0
// Image class conversions on Vulkan (common/class_conversion.hpp).
#include "class_conversion.hpp"

namespace ipt::vk {
namespace {

struct Push {
    uint64_t a;
    uint64_t z;
    int32_t n;
};

}  // namespace

void run_im2class(OpContext& ctx, const ipt::frontend::Im2ClassPlan& plan) {
    const int64_t n = plan.numel;
    check_size(ctx.op(), n);
    const ipt_tensor* z = ctx.args.output("J", plan.out_dtype, plan.rows, plan.cols, plan.channels);
    if (n == 0) return;
    Push push{};
    push.a = ctx.address(plan.I);
    push.z = ctx.address(z);
    push.n = static_cast<int32_t>(n);
    const uint32_t group = ctx.tuning.group_size;
    VkPipeline pipeline =
        ctx.pipeline("im2class", group, 1, {uint32_t(plan.in_dtype), uint32_t(plan.out_dtype)});
    Grid grid = grid_for(ctx.device, n, uint64_t(group) * ctx.tuning.per_invocation);
    Recorder rec(ctx.device);
    rec.dispatch(pipeline, &push, sizeof push, grid.x, grid.y);
    rec.submit();
}

}  // namespace ipt::vk
