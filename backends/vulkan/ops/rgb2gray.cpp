// SPDX-License-Identifier: Apache-2.0
// ipt.rgb2gray on Vulkan as the front-end plans it (common/ops/rgb2gray.hpp):
// one pass over the pixels, the three planes read at plane strides, the
// front-end's weights in the push constants.
#include "op_support.hpp"
#include "common/ops/rgb2gray.hpp"

namespace {

using namespace ipt::vk;

struct Push {
    uint64_t rgb, i;
    double kr, kg, kb;
    int32_t plane;
};

void run_rgb2gray(OpContext& ctx) {
    const ipt::frontend::Rgb2grayPlan plan = ipt::frontend::plan_rgb2gray(ctx.args);
    check_size("ipt.rgb2gray", 3 * plan.plane);
    const ipt_tensor* I = ctx.args.output("I", plan.dtype, plan.rows, plan.cols, 1);
    if (plan.plane == 0) return;
    Push push{ctx.address(plan.RGB), ctx.address(I), ipt::frontend::kRgb2grayR, ipt::frontend::kRgb2grayG,
              ipt::frontend::kRgb2grayB, int32_t(plan.plane)};
    const uint32_t group = ctx.tuning.group_size;
    VkPipeline pipeline = ctx.pipeline("rgb2gray", group, 1, {uint32_t(plan.dtype)});
    Grid grid = grid_for(ctx.device, uint64_t(plan.plane), uint64_t(group) * ctx.tuning.per_invocation);
    Recorder rec(ctx.device);
    rec.dispatch(pipeline, &push, sizeof push, grid.x, grid.y);
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.rgb2gray", "wave32", 60, run_rgb2gray)
IPT_VK_OP("ipt.rgb2gray", "wave64", 50, run_rgb2gray)
