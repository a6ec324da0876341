// SPDX-License-Identifier: Apache-2.0
// The resampler on Vulkan (common/warp.hpp): the matrix and the fill values
// travel as a parameter block of doubles, the geometry as push constants.
#include "warp.hpp"

#include <algorithm>
#include <vector>

namespace ipt::vk {
namespace {

struct Push {
    uint64_t a, b, params;
    int32_t rows, cols, row0, col0, win_rows, win_cols, out_rows, out_cols;
    int32_t tile_w, tiles_x, tiles_y, tiles;
};

}  // namespace

void run_warp(OpContext& ctx, const ipt::frontend::WarpPlan& p, const ipt_tensor* B, const ipt_tensor* RB) {
    const int64_t total = p.out_rows * p.out_cols * p.channels;
    check_size(ctx.op(), total);
    check_size(ctx.op(), p.rows * p.cols * p.channels);
    Recorder rec(ctx.device);
    if (RB) {  // in the same submission as the resampling
        ctx.address(RB);
        rec.write(static_cast<Buffer*>(RB->buffer), RB->offset, p.ref.data(), p.ref.size() * sizeof(double));
    }
    if (total == 0) {
        rec.submit();
        return;
    }
    std::vector<double> params(p.M.begin(), p.M.end());
    params.insert(params.end(), p.fill.begin(), p.fill.end());
    Push push{};
    push.a = p.rows * p.cols != 0 ? ctx.address(p.A) : 0;
    push.b = ctx.address(B);
    push.params = rec.params(params);
    push.rows = static_cast<int32_t>(p.rows);
    push.cols = static_cast<int32_t>(p.cols);
    push.row0 = static_cast<int32_t>(p.row0);
    push.col0 = static_cast<int32_t>(p.col0);
    push.win_rows = static_cast<int32_t>(p.win_rows);
    push.win_cols = static_cast<int32_t>(p.win_cols);
    push.out_rows = static_cast<int32_t>(p.out_rows);
    push.out_cols = static_cast<int32_t>(p.out_cols);
    const uint32_t group = ctx.tuning.group_size;
    // Tiles of tile_w x (group / tile_w) outputs, subgroups of `lanes` in each.
    const uint32_t lanes = std::min(ctx.tuning.wave != 0 ? ctx.tuning.wave : ctx.device.subgroup_size(), group);
    const int64_t tile_w = ipt::frontend::warp_patch_width(p, static_cast<int>(std::max(lanes, 1u)));
    const int64_t tile_h = group / tile_w;
    push.tile_w = static_cast<int32_t>(tile_w);
    push.tiles_x = static_cast<int32_t>((p.out_cols + tile_w - 1) / tile_w);
    push.tiles_y = static_cast<int32_t>((p.out_rows + tile_h - 1) / tile_h);
    const int64_t tiles = int64_t(push.tiles_x) * push.tiles_y * p.channels;
    check_size(ctx.op(), tiles * group);
    push.tiles = static_cast<int32_t>(tiles);
    VkPipeline pipeline = ctx.pipeline("warp", group, 1,
                                       {uint32_t(p.dtype), uint32_t(p.interp), p.projective ? 1u : 0u,
                                        p.smooth_edges ? 0u : 1u});
    Grid grid = grid_for(ctx.device, uint64_t(tiles), ctx.tuning.per_invocation);
    rec.dispatch(pipeline, &push, sizeof push, grid.x, grid.y);
    rec.submit();
}

}  // namespace ipt::vk
