// ipt.rgb2hsv on Vulkan as the front-end plans it (common/ops/rgb2hsv.hpp): one
// pass, an invocation per pixel (shaders/rgb2hsv.comp); the input and output
// classes are specialisation constants, single results rounded after every
// operation as the reference computes them.
#include "op_support.hpp"
#include "common/ops/rgb2hsv.hpp"

namespace {

using namespace ipt::vk;

struct Push {
    uint64_t src, dst;
    int32_t pixels, pixel_step, plane;
};

void run_rgb2hsv(OpContext& ctx) {
    const ipt::frontend::Rgb2hsvPlan plan = ipt::frontend::plan_rgb2hsv(ctx.args);
    check_size("ipt.rgb2hsv", plan.rows * plan.cols * plan.channels);
    const ipt_tensor* out = ctx.args.output("HSV", plan.out_dtype, plan.rows, plan.cols, plan.channels);
    if (plan.pixels == 0) return;
    Push push{ctx.address(plan.in), ctx.address(out), static_cast<int32_t>(plan.pixels),
              static_cast<int32_t>(plan.pixel_step), static_cast<int32_t>(plan.plane_step)};
    const uint32_t group = ctx.tuning.group_size;
    VkPipeline pipeline = ctx.pipeline("rgb2hsv", group, 1,
                                       {uint32_t(plan.in_dtype), uint32_t(plan.out_dtype),
                                        plan.out_dtype == IPT_SINGLE ? 1u : 0u});
    Grid grid = grid_for(ctx.device, plan.pixels, uint64_t(group) * ctx.tuning.per_invocation);
    Recorder rec(ctx.device);
    rec.dispatch(pipeline, &push, sizeof push, grid.x, grid.y);
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.rgb2hsv", "wave32", 60, run_rgb2hsv)
IPT_VK_OP("ipt.rgb2hsv", "wave64", 50, run_rgb2hsv)
