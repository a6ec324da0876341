// SPDX-License-Identifier: Apache-2.0
// ipt.adapthisteq on Vulkan as the front-end plans it
// (common/ops/adapthisteq.hpp): one work group per tile counts the tile's
// histogram (shaders/adapthisteq_hist.comp), with I's least and greatest
// value for 'Range' 'original' (common/minmax.cpp); the counts come back and
// the clipped tables and value bins are built on the host; then one pass
// blends every pixel (shaders/adapthisteq_apply.comp).
#include <memory>
#include <vector>

#include "common/minmax.hpp"
#include "common/ops/adapthisteq.hpp"

namespace {

using namespace ipt::vk;
using namespace ipt::frontend;

struct Release {
    Device* device;
    void operator()(Buffer* b) const { device->release(b); }
};

struct HistPush {
    uint64_t a, hist;
    double int_scale;
    int32_t rows, cols, tiles_c, tile_h, tile_w, pad_top, pad_left, tiles;
};

struct ApplyPush {
    uint64_t a, bins, table, j;
    double top, scale1;
    int32_t nvalue, nbins, rows, cols, tiles_r, tiles_c, tile_h, tile_w, pad_top, pad_left, H, W;
};

void run_adapthisteq(OpContext& ctx) {
    const AdapthisteqPlan p = plan_adapthisteq(ctx.args);
    check_size("ipt.adapthisteq", p.H * p.W);
    const ipt_tensor* J = ctx.args.output("J", p.out_dtype, p.rows, p.cols, 1);
    const int64_t tiles = p.tiles_r * p.tiles_c;
    check_size("ipt.adapthisteq", tiles * p.nbins);
    const uint64_t hist_bytes = uint64_t(tiles * p.nbins) * 4;
    const uint64_t limits_at = (hist_bytes + 15) / 16 * 16;  // two doubles after the counts
    std::unique_ptr<Buffer, Release> hist(ctx.device.allocate(limits_at + 16, MemoryKind::DeviceLocal),
                                          Release{&ctx.device});
    {
        Recorder rec(ctx.device);
        rec.fill(hist.get(), 0, hist_bytes, 0);
        const double top = clahe_integer(p.dtype) ? p.top : 1.0;
        HistPush hp{ctx.address(p.I), hist->address, double(p.nbins - 1) / top, int32_t(p.rows), int32_t(p.cols),
                    int32_t(p.tiles_c), int32_t(p.tile_h), int32_t(p.tile_w), int32_t(p.pad_top),
                    int32_t(p.pad_left), int32_t(tiles)};
        const uint32_t width = ctx.tuning.group_size;
        const Grid grid = grid_for(ctx.device, uint64_t(tiles), 1);
        rec.dispatch(ctx.pipeline("adapthisteq_hist", width, 1, {uint32_t(p.dtype), uint32_t(p.nbins)}), &hp,
                     sizeof hp, grid.x, grid.y, 1);
        if (p.original) record_minmax(ctx, rec, ctx.address(p.I), p.dtype, p.rows * p.cols, hist->address + limits_at);
        rec.submit();
    }
    std::vector<uint32_t> counts(size_t(tiles * p.nbins));
    ctx.device.download(hist.get(), 0, counts.data(), hist_bytes);
    double limits[2] = {0, 0};
    if (p.original) {
        ctx.device.download(hist.get(), limits_at, limits, sizeof limits);
        if (p.dtype == IPT_INT16) limits[0] += 32768.0, limits[1] += 32768.0;
    }
    const ClaheRange range = clahe_range(p, limits[0], limits[1]);
    const std::vector<double> tab = adapthisteq_tables(p, counts.data(), range);
    const std::vector<int32_t> bins = adapthisteq_value_bins(p, range);
    Recorder rec(ctx.device);
    Buffer* tab_buf = rec.scratch(tab.size() * sizeof(double));
    rec.write(tab_buf, 0, tab.data(), tab.size() * sizeof(double));
    Buffer* bin_buf = rec.scratch(bins.size() * sizeof(int32_t));
    rec.write(bin_buf, 0, bins.data(), bins.size() * sizeof(int32_t));
    const double scale1 = clahe_integer(p.dtype) ? static_cast<double>(int64_t(bins.size()) - 1) / p.top : 0.0;
    ApplyPush ap{ctx.address(p.I), bin_buf->address, tab_buf->address, ctx.address(J), p.top, scale1,
                 int32_t(bins.size()), int32_t(p.nbins), int32_t(p.rows), int32_t(p.cols), int32_t(p.tiles_r),
                 int32_t(p.tiles_c), int32_t(p.tile_h), int32_t(p.tile_w), int32_t(p.pad_top), int32_t(p.pad_left),
                 int32_t(p.H), int32_t(p.W)};
    const uint32_t width = ctx.tuning.group_size;
    const Grid grid = grid_for(ctx.device, uint64_t(p.rows * p.cols), uint64_t(width) * ctx.tuning.per_invocation);
    rec.dispatch(ctx.pipeline("adapthisteq_apply", width, 1, {uint32_t(p.dtype)}), &ap, sizeof ap, grid.x, grid.y, 1);
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.adapthisteq", "wave32", 60, run_adapthisteq)
IPT_VK_OP("ipt.adapthisteq", "wave64", 50, run_adapthisteq)
