// SPDX-License-Identifier: Apache-2.0
// ipt.imgradientxy on Vulkan as the front-end plans it
// (common/ops/imgradientxy.hpp): one pass, an invocation per pixel
// (shaders/imgradientxy.comp); the input class, the method and whether the
// arithmetic is single are specialisation constants.
#include "op_support.hpp"
#include "common/ops/imgradientxy.hpp"

namespace {

using namespace ipt::vk;

struct Push {
    uint64_t src, gx, gy;
    int32_t rows, cols;
};

void run_imgradientxy(OpContext& ctx) {
    const ipt::frontend::ImgradientxyPlan plan = ipt::frontend::plan_imgradientxy(ctx.args);
    check_size("ipt.imgradientxy", plan.numel);
    const ipt_tensor* gx = ctx.args.output("Gx", plan.out_dtype, plan.rows, plan.cols);
    const ipt_tensor* gy = ctx.args.wanted("Gy") ? ctx.args.output("Gy", plan.out_dtype, plan.rows, plan.cols) : nullptr;
    if (plan.numel == 0) return;
    Push push{ctx.address(plan.I), ctx.address(gx), gy ? ctx.address(gy) : 0, static_cast<int32_t>(plan.rows),
              static_cast<int32_t>(plan.cols)};
    const uint32_t group = ctx.tuning.group_size;
    VkPipeline pipeline =
        ctx.pipeline("imgradientxy", group, 1,
                     {uint32_t(plan.in_dtype), plan.out_dtype == IPT_SINGLE ? 1u : 0u, uint32_t(plan.method)});
    Grid grid = grid_for(ctx.device, plan.numel, uint64_t(group) * ctx.tuning.per_invocation);
    Recorder rec(ctx.device);
    rec.dispatch(pipeline, &push, sizeof push, grid.x, grid.y);
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.imgradientxy", "wave32", 60, run_imgradientxy)
IPT_VK_OP("ipt.imgradientxy", "wave64", 50, run_imgradientxy)
