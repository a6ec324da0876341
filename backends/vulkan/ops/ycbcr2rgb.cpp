// ipt.ycbcr2rgb on Vulkan as the front-end plans it (common/ops/ycbcr2rgb.hpp): one
// pass, an invocation per pixel (shaders/ycbcr2rgb.comp); the class is a
// specialisation constant and the twelve coefficients travel as parameters.
#include <vector>

#include "op_support.hpp"
#include "common/ops/ycbcr2rgb.hpp"

namespace {

using namespace ipt::vk;

struct Push {
    uint64_t src, dst, coef;
    int32_t pixels, pixel_step, plane;
};

void run_ycbcr2rgb(OpContext& ctx) {
    const ipt::frontend::Ycbcr2rgbPlan plan = ipt::frontend::plan_ycbcr2rgb(ctx.args);
    const ipt::common::ColourLayout& l = plan.layout;
    check_size("ipt.ycbcr2rgb", l.rows * l.cols * l.channels);
    const ipt_tensor* out = ctx.args.output("RGB", l.out_dtype, l.rows, l.cols, l.channels);
    if (l.pixels == 0) return;
    std::vector<double> coef;
    for (const auto& row : plan.matrix.m) coef.insert(coef.end(), row, row + 3);
    coef.insert(coef.end(), plan.matrix.offset, plan.matrix.offset + 3);
    Push push{ctx.address(l.in), ctx.address(out), 0, static_cast<int32_t>(l.pixels),
              static_cast<int32_t>(l.pixel_step), static_cast<int32_t>(l.plane_step)};
    const uint32_t group = ctx.tuning.group_size;
    VkPipeline pipeline = ctx.pipeline("ycbcr2rgb", group, 1,
                                       {uint32_t(l.in_dtype), uint32_t(l.out_dtype),
                                        l.out_dtype == IPT_SINGLE ? 1u : 0u, plan.matrix.clamp_unit ? 1u : 0u});
    Grid grid = grid_for(ctx.device, l.pixels, uint64_t(group) * ctx.tuning.per_invocation);
    Recorder rec(ctx.device);
    push.coef = rec.params(coef);
    rec.dispatch(pipeline, &push, sizeof push, grid.x, grid.y);
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.ycbcr2rgb", "wave32", 60, run_ycbcr2rgb)
IPT_VK_OP("ipt.ycbcr2rgb", "wave64", 50, run_ycbcr2rgb)
