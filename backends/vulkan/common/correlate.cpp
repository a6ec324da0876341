// SPDX-License-Identifier: Apache-2.0
// Host side of the correlation engine (shaders/correlate.comp), shared by
// conv2, imfilter and edge (declarations in correlate.hpp).
#include <algorithm>
#include <string>
#include <vector>

#include "correlate.hpp"
#include "common/ops/imfilter.hpp"
#include "rank1.hpp"

namespace ipt::vk {

struct CorrelatePush {
    uint64_t a, k, out;
    double pad_value;
    int32_t ma, na, out_rows, out_cols, off_r, off_c, kr, kc;
    int32_t tile_w, tile_h;
};

// Capacities of correlate.comp's shared arrays (TILE_CAP, K_CAP).
constexpr int64_t kTileCap = 2048;
constexpr int64_t kKernelCap = 512;

Groups correlation_groups(const OpContext& ctx, const Correlation& c) {
    return {div_up(c.out_cols, ctx.tuning.group_x), div_up(c.out_rows, uint64_t(ctx.tuning.group_y) * ctx.tuning.per_invocation),
            uint32_t(c.planes)};
}

void record_correlation(OpContext& ctx, Recorder& rec, const Correlation& c) {
    if (c.out_rows * c.out_cols * c.planes == 0) return;
    for (int64_t v : {c.source_rows, c.source_cols, c.out_rows, c.out_cols, c.kernel_rows, c.kernel_cols})
        if (v > kMaxElements) ipt::plugin::unsupported(std::string(ctx.op()) + ": image too large for the Vulkan backend");
    const uint32_t gx = ctx.tuning.group_x, gy = ctx.tuning.group_y;
    // Stage the source tile and the kernel in shared memory when they fit.
    const int64_t tile_w = gx + c.kernel_cols - 1, tile_h = int64_t(gy) * ctx.tuning.per_invocation + c.kernel_rows - 1;
    const bool tiled = tile_w * tile_h <= kTileCap && c.kernel_rows * c.kernel_cols <= kKernelCap &&
                       c.kernel_rows * c.kernel_cols > 0;
    CorrelatePush p{c.source, c.kernel, c.out, c.pad_value, int32_t(c.source_rows), int32_t(c.source_cols),
                    int32_t(c.out_rows), int32_t(c.out_cols), int32_t(c.off_r), int32_t(c.off_c),
                    int32_t(c.kernel_rows), int32_t(c.kernel_cols), int32_t(tile_w), int32_t(tile_h)};
    VkPipeline pipeline =
        ctx.pipeline("correlate", gx, gy,
                     {uint32_t(c.source_dtype), uint32_t(c.kernel_dtype), uint32_t(c.out_dtype),
                      c.accumulate_double ? 1u : 0u, uint32_t(c.pad), c.skip_zero ? 1u : 0u, c.rotate ? 1u : 0u,
                      tiled ? 1u : 0u});
    if (c.indirect) {
        rec.dispatch_indirect(pipeline, &p, sizeof p, c.indirect, c.indirect_offset);
        return;
    }
    const Groups g = correlation_groups(ctx, c);
    rec.dispatch(pipeline, &p, sizeof p, g.x, g.y, g.z);
}

void record_filter(OpContext& ctx, Recorder& rec, const Correlation& base, const std::vector<double>& h) {
    if (base.out_rows * base.out_cols * base.planes == 0) return;
    const int64_t kr = base.kernel_rows, kc = base.kernel_cols;
    if (const ipt::common::Rank1 f = ipt::common::separable_route(h.data(), kr, kc, base.rotate); f.ok) {
        const int32_t acc_dtype = base.accumulate_double ? IPT_DOUBLE : IPT_SINGLE;
        const int64_t pcols = base.out_cols + kc - 1;
        Buffer* mid = rec.scratch(uint64_t(base.out_rows * pcols * base.planes) * dtype_bytes(acc_dtype));
        Correlation column = base;
        column.kernel = rec.params(f.u);
        column.kernel_dtype = IPT_DOUBLE;
        column.kernel_cols = 1;
        column.rotate = false;
        column.out = mid->address;
        column.out_dtype = acc_dtype;
        column.out_cols = pcols;
        record_correlation(ctx, rec, column);
        Correlation row = base;
        row.source = mid->address;
        row.source_dtype = acc_dtype;
        row.source_rows = base.out_rows;
        row.source_cols = pcols;
        row.kernel = rec.params(f.v);
        row.kernel_dtype = IPT_DOUBLE;
        row.kernel_rows = 1;
        row.rotate = false;
        row.pad = Pad::Skip;
        row.off_r = 0;
        row.off_c = 0;
        record_correlation(ctx, rec, row);
        return;
    }
    Correlation c = base;
    c.kernel = rec.params(h);
    c.kernel_dtype = IPT_DOUBLE;
    record_correlation(ctx, rec, c);
}

void record_filter_replicate(OpContext& ctx, Recorder& rec, VkDeviceAddress src, VkDeviceAddress dst,
                             int32_t working_dtype, int64_t rows, int64_t cols, const std::vector<double>& h,
                             int64_t kr, int64_t kc, bool conv) {
    Correlation c;
    c.source = src;
    c.source_dtype = working_dtype;
    c.source_rows = rows;
    c.source_cols = cols;
    c.kernel_rows = kr;
    c.kernel_cols = kc;
    c.rotate = conv;
    c.skip_zero = true;
    c.pad = Pad::Replicate;
    c.out = dst;
    c.out_dtype = working_dtype;
    c.out_rows = rows;
    c.out_cols = cols;
    c.off_r = -ipt::frontend::imfilter_origin(kr);
    c.off_c = -ipt::frontend::imfilter_origin(kc);
    c.accumulate_double = working_dtype == IPT_DOUBLE;
    record_filter(ctx, rec, c, h);
}

}  // namespace ipt::vk
