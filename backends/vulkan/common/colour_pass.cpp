// SPDX-License-Identifier: Apache-2.0
#include "common/colour_pass.hpp"

namespace ipt::vk {

void run_colour_pass(OpContext& ctx, const char* shader, const char* out_name, const ipt::common::ColourLayout& l,
                     const std::vector<uint32_t>& extra_constants, const std::vector<double>* coef) {
    check_size(ctx.op(), l.rows * l.cols * l.channels);
    const ipt_tensor* out = ctx.args.output(out_name, l.out_dtype, l.rows, l.cols, l.channels);
    if (l.pixels == 0) return;
    std::vector<uint32_t> constants{uint32_t(l.in_dtype), uint32_t(l.out_dtype), l.out_dtype == IPT_SINGLE ? 1u : 0u};
    constants.insert(constants.end(), extra_constants.begin(), extra_constants.end());
    const uint32_t group = ctx.tuning.group_size;
    VkPipeline pipeline = ctx.pipeline(shader, group, 1, constants);
    Grid grid = grid_for(ctx.device, l.pixels, uint64_t(group) * ctx.tuning.per_invocation);
    const uint64_t src = ctx.address(l.in), dst = ctx.address(out);
    const auto pixels = static_cast<int32_t>(l.pixels), pixel_step = static_cast<int32_t>(l.pixel_step),
               plane = static_cast<int32_t>(l.plane_step);
    Recorder rec(ctx.device);
    if (coef) {
        struct {
            uint64_t src, dst, coef;
            int32_t pixels, pixel_step, plane;
        } push{src, dst, rec.params(*coef), pixels, pixel_step, plane};
        rec.dispatch(pipeline, &push, sizeof push, grid.x, grid.y);
    } else {
        struct {
            uint64_t src, dst;
            int32_t pixels, pixel_step, plane;
        } push{src, dst, pixels, pixel_step, plane};
        rec.dispatch(pipeline, &push, sizeof push, grid.x, grid.y);
    }
    rec.submit();
}

}  // namespace ipt::vk
