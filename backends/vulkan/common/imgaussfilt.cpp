// SPDX-License-Identifier: Apache-2.0
// imgaussfilt's routes as the CPU reference computes them
// (common/ops/imgaussfilt.hpp). Direct route: imfilter's arithmetic with the
// 2-D kernel (single in single, every other class in double; the reference's
// rank-1 split through record_filter). Separable route: the column pass from
// the source padded in the working class into a working-class image of the
// padded width, then the row pass into the output, rounded to its class.
#include "imgaussfilt.hpp"

#include "correlate.hpp"
#include "rank1.hpp"

namespace ipt::vk {
namespace {

struct Rank1Push {
    uint64_t a, b, u, v;
    double pad;
    int32_t m, n, top, left, tiles_x, tiles;
};

constexpr int64_t kRank1Tile = 32, kRank1MaxK = 15;  // TR = TC and the largest K of imgaussfilt_rank1.comp

// The direct route of an integer class with a square kernel that the
// reference splits exactly: both passes in one dispatch
// (shaders/imgaussfilt_rank1.comp). False where it does not apply.
bool record_rank1(OpContext& ctx, Recorder& rec, const ipt::frontend::ImgaussfiltPlan& p, VkDeviceAddress source,
                  int32_t source_dtype, VkDeviceAddress out) {
    const bool integer = p.out_class == IPT_UINT8 || p.out_class == IPT_UINT16 || p.out_class == IPT_INT16 ||
                         p.out_class == IPT_INT32 || p.out_class == IPT_UINT32;
    if (!integer || source_dtype != p.out_class || p.kr != p.kc || p.kr % 2 == 0 || p.kr > kRank1MaxK ||
        p.channels > 65535)
        return false;
    const ipt::common::Rank1 f = ipt::common::separable_route(p.h.data(), p.kr, p.kc, true);
    if (!f.ok) return false;
    const int64_t tiles_x = (p.cols + kRank1Tile - 1) / kRank1Tile;
    const int64_t tiles = tiles_x * ((p.rows + kRank1Tile - 1) / kRank1Tile);
    check_size(ctx.op(), tiles);
    const VkPipeline pipeline =
        ctx.pipeline("imgaussfilt_rank1", 32, 8,
                     {uint32_t(p.out_class), uint32_t(ipt::frontend::border_as<Pad>(p.boundary)), uint32_t(p.kr)});
    const Rank1Push push{source, out, rec.params(f.u), rec.params(f.v), p.pad_value, int32_t(p.rows),
                         int32_t(p.cols), int32_t(p.top), int32_t(p.left), int32_t(tiles_x), int32_t(tiles)};
    const Grid g = grid_for(ctx.device, uint64_t(tiles), 1);
    rec.dispatch(pipeline, &push, sizeof push, g.x, g.y, uint32_t(p.channels));
    return true;
}

}  // namespace

void record_imgaussfilt(OpContext& ctx, Recorder& rec, const ipt::frontend::ImgaussfiltPlan& p,
                        VkDeviceAddress source, int32_t source_dtype, VkDeviceAddress out) {
    const int64_t pcols = p.cols + p.kc - 1;
    check_size(ctx.op(), p.rows * pcols * p.channels);

    Correlation c;
    c.source = source;
    c.source_dtype = source_dtype;
    c.source_rows = p.rows;
    c.source_cols = p.cols;
    c.planes = p.channels;
    c.kernel_rows = p.kr;
    c.kernel_cols = p.kc;
    c.rotate = true;
    c.skip_zero = true;
    c.pad = ipt::frontend::border_as<Pad>(p.boundary);
    c.pad_value = p.pad_value;
    c.out = out;
    c.out_dtype = p.out_class;
    c.out_rows = p.rows;
    c.out_cols = p.cols;
    c.off_r = -p.top;
    c.off_c = -p.left;
    c.accumulate_double = p.work_class == IPT_DOUBLE;

    if (!p.separable) {
        if (!record_rank1(ctx, rec, p, source, source_dtype, out)) record_filter(ctx, rec, c, p.h);
        return;
    }
    Buffer* mid = rec.scratch(uint64_t(p.rows * pcols * p.channels) * dtype_bytes(p.work_class));
    Correlation column = c;
    column.kernel = rec.params(p.hcol);
    column.kernel_dtype = IPT_DOUBLE;
    column.kernel_cols = 1;
    column.out = mid->address;
    column.out_dtype = p.work_class;
    column.out_cols = pcols;
    record_correlation(ctx, rec, column);
    Correlation row = c;
    row.source = mid->address;
    row.source_dtype = p.work_class;
    row.source_cols = pcols;
    row.kernel = rec.params(p.hrow);
    row.kernel_dtype = IPT_DOUBLE;
    row.kernel_rows = 1;
    row.pad = Pad::Skip;
    row.off_r = 0;
    row.off_c = 0;
    record_correlation(ctx, rec, row);
}

}  // namespace ipt::vk
