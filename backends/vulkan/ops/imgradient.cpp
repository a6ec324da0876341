// SPDX-License-Identifier: Apache-2.0
// ipt.imgradient on Vulkan as the front-end plans it
// (common/ops/imgradient.hpp): one pass, an invocation per pixel
// (shaders/imgradient.comp) computing the stencil, the magnitude and the
// direction; the input class, the method and whether the arithmetic is single
// are specialisation constants.
#include "op_support.hpp"
#include "common/ops/imgradient.hpp"

namespace {

using namespace ipt::vk;

struct Push {
    uint64_t src, mag, dir;
    int32_t rows, cols;
};

void run_imgradient(OpContext& ctx) {
    const ipt::frontend::ImgradientPlan plan = ipt::frontend::plan_imgradient(ctx.args);
    const auto& p = plan.xy;
    check_size("ipt.imgradient", p.numel);
    const ipt_tensor* mag = ctx.args.output("Gmag", plan.mag_dtype, p.rows, p.cols);
    const ipt_tensor* dir = ctx.args.wanted("Gdir") ? ctx.args.output("Gdir", plan.dir_dtype, p.rows, p.cols) : nullptr;
    if (p.numel == 0) return;
    Push push{ctx.address(p.I), ctx.address(mag), dir ? ctx.address(dir) : 0, static_cast<int32_t>(p.rows),
              static_cast<int32_t>(p.cols)};
    const uint32_t group = ctx.tuning.group_size;
    VkPipeline pipeline = ctx.pipeline("imgradient", group, 1,
                                       {uint32_t(p.in_dtype), p.out_dtype == IPT_SINGLE ? 1u : 0u, uint32_t(p.method)});
    Grid grid = grid_for(ctx.device, p.numel, uint64_t(group) * ctx.tuning.per_invocation);
    Recorder rec(ctx.device);
    rec.dispatch(pipeline, &push, sizeof push, grid.x, grid.y);
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.imgradient", "wave32", 60, run_imgradient)
IPT_VK_OP("ipt.imgradient", "wave64", 50, run_imgradient)
