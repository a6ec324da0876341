// ipt.hsv2rgb on Vulkan as the front-end plans it (common/ops/hsv2rgb.hpp): one
// pass, an invocation per pixel (shaders/hsv2rgb.comp); the input and output
// classes are specialisation constants, single results rounded after every
// operation as the reference computes them.
#include "op_support.hpp"
#include "common/ops/hsv2rgb.hpp"

namespace {

using namespace ipt::vk;

struct Push {
    uint64_t src, dst;
    int32_t pixels, pixel_step, plane;
};

void run_hsv2rgb(OpContext& ctx) {
    const ipt::frontend::Hsv2rgbPlan plan = ipt::frontend::plan_hsv2rgb(ctx.args);
    check_size("ipt.hsv2rgb", plan.rows * plan.cols * plan.channels);
    const ipt_tensor* out = ctx.args.output("RGB", plan.out_dtype, plan.rows, plan.cols, plan.channels);
    if (plan.pixels == 0) return;
    Push push{ctx.address(plan.in), ctx.address(out), static_cast<int32_t>(plan.pixels),
              static_cast<int32_t>(plan.pixel_step), static_cast<int32_t>(plan.plane_step)};
    const uint32_t group = ctx.tuning.group_size;
    VkPipeline pipeline = ctx.pipeline("hsv2rgb", group, 1,
                                       {uint32_t(plan.in_dtype), uint32_t(plan.out_dtype),
                                        plan.out_dtype == IPT_SINGLE ? 1u : 0u});
    Grid grid = grid_for(ctx.device, plan.pixels, uint64_t(group) * ctx.tuning.per_invocation);
    Recorder rec(ctx.device);
    rec.dispatch(pipeline, &push, sizeof push, grid.x, grid.y);
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.hsv2rgb", "wave32", 60, run_hsv2rgb)
IPT_VK_OP("ipt.hsv2rgb", "wave64", 50, run_hsv2rgb)
