// SPDX-License-Identifier: Apache-2.0
// ipt.bwdist on Vulkan: nearest feature row per column (in segments of
// rows), then, euclidean, the lower envelope of the columns' parabolas per
// row (one work group per row, cost independent of the distances), other
// metrics, per pixel an outward search over the columns that stops at the
// best distance found (shaders/bwdist_*.comp). Exact for every metric.
#include <algorithm>
#include <cstdint>
#include <string>

#include "op_support.hpp"
#include "common/ops/bwdist.hpp"

namespace {

using namespace ipt::vk;

struct ColumnsPush {
    uint64_t bw, nearest, below, segments;
    int32_t rows, cols, seg_rows, seg_count;
};
struct RowsPush {
    uint64_t nearest, below, d, idx;
    double quasi_k;
    int32_t rows, cols;
};
struct EnvelopePush {
    uint64_t nearest, d, idx, scratch;
    int32_t rows, cols, len;
};

// Lanes per row in the envelope pass: 32 bands of columns, five merge rounds
// (CUDA's warp per row; 2048 rows keep 64K lanes busy). A work-group size,
// not a subgroup size: the lanes share data through barriers only.
constexpr uint32_t kEnvelopeLanes = 32;

// Euclidean phase 2 (bwdist_envelope.comp): the row's working set (three
// arrays by column) in shared memory when it fits, 16-bit where rows and
// columns allow, else in a global slice per work group.
void envelope_rows(OpContext& ctx, Recorder& rec, Buffer* nearest, const ipt_tensor* d, const ipt_tensor* idx,
                   int64_t rows, int64_t cols) {
    const bool narrow = rows <= 65535 && cols <= 65535;  // 0xFFFF is free to mean "none"
    // Elements per array: the padded slot of the last column (see slot() in
    // the shader), rounded up to 64 so that few sizes make pipelines.
    const int64_t padded = narrow ? (cols - 1) + (((cols - 1) >> 6) << 1) + 1 : (cols - 1) + ((cols - 1) >> 5) + 1;
    const int64_t len = (padded + 63) / 64 * 64;
    // The shader indexes a work group's three arrays with 32-bit integers
    // (the envelope's squares are int64: exact for sides below 2^31).
    if (3 * len > int64_t(INT32_MAX))
        ipt::plugin::unsupported("ipt.bwdist: rows of more than about 520 million columns are not handled by the "
                                 "Vulkan backend (euclidean)");
    const int64_t shared_bytes = 3 * len * (narrow ? 2 : 4) + 2 * int64_t(kEnvelopeLanes) * 4;
    uint32_t store = narrow ? 0 : 1;
    if (shared_bytes > int64_t(ctx.device.max_shared_bytes())) store = 2;
    // Rows are strided over the work groups; with global slices, at most
    // 256 MiB of them.
    int64_t groups = std::min<int64_t>(rows, 65535);
    Buffer* scratch = nullptr;
    if (store == 2) {
        groups = std::max<int64_t>(1, std::min<int64_t>(groups, (int64_t(256) << 20) / (12 * len)));
        scratch = rec.scratch(uint64_t(groups) * uint64_t(len) * 12);
    }
    EnvelopePush p{nearest->address, ctx.address(d), idx ? ctx.address(idx) : 0, scratch ? scratch->address : 0,
                   int32_t(rows), int32_t(cols), int32_t(len)};
    rec.dispatch(ctx.pipeline("bwdist_envelope", kEnvelopeLanes, 1,
                              {idx ? 1u : 0u, store, store == 2 ? 1u : uint32_t(len)}),
                 &p, sizeof p, uint32_t(groups));
}

void run_bwdist(OpContext& ctx) {
    using ipt::frontend::BwdistMetric;
    const auto& args = ctx.args;
    const ipt::frontend::BwdistPlan plan = ipt::frontend::plan_bwdist(args);
    const ipt_tensor* bw = args.image("BW");
    // The shaders' metric numbers.
    const uint32_t metric = plan.metric == BwdistMetric::Euclidean    ? 0
                            : plan.metric == BwdistMetric::Cityblock  ? 1
                            : plan.metric == BwdistMetric::Chessboard ? 2
                                                                      : 3;
    const int64_t rows = plan.rows, cols = plan.cols, n = rows * cols;
    check_size("ipt.bwdist", n);
    const bool want_idx = plan.want_idx;
    const bool want_below = want_idx && plan.metric == BwdistMetric::Chessboard;
    const ipt_tensor* d = args.output("D", plan.d_dtype, rows, cols, 1);
    const ipt_tensor* idx = want_idx ? args.output("IDX", plan.idx_dtype, rows, cols, 1) : nullptr;
    if (plan.empty()) return;
    Recorder rec(ctx.device);
    Buffer* nearest = rec.scratch(uint64_t(n) * 4);
    Buffer* below = want_below ? rec.scratch(uint64_t(n) * 4) : nullptr;
    // Phase 1 in column segments of at least 32 rows, enough of them for
    // about 64K invocations (2048 columns: 32 segments of 64 rows).
    const int64_t seg_count = std::clamp<int64_t>(div_up(65536, cols), 1, std::clamp<int64_t>(rows / 32, 1, 65535));
    const int64_t seg_rows = div_up(rows, seg_count);
    const int64_t segments = div_up(rows, seg_rows);
    Buffer* summaries = rec.scratch(uint64_t(segments) * uint64_t(cols) * 8);
    ColumnsPush p1{ctx.address(bw), nearest->address, below ? below->address : 0, summaries->address,
                   int32_t(rows), int32_t(cols), int32_t(seg_rows), int32_t(segments)};
    const uint32_t width = ctx.tuning.group_size;
    for (uint32_t pass : {0u, 1u})
        rec.dispatch(ctx.pipeline("bwdist_columns", width, 1, {uint32_t(bw->dtype), want_below ? 1u : 0u, pass}),
                     &p1, sizeof p1, div_up(cols, width), uint32_t(segments));
    if (metric == 0) {
        envelope_rows(ctx, rec, nearest, d, idx, rows, cols);
        rec.submit();
        return;
    }
    RowsPush p2{nearest->address, below ? below->address : 0, ctx.address(d), idx ? ctx.address(idx) : 0,
                ipt::frontend::kQuasiEuclideanK, int32_t(rows), int32_t(cols)};
    const uint32_t gx = ctx.tuning.group_x, gy = ctx.tuning.group_y;
    rec.dispatch(ctx.pipeline("bwdist_rows", gx, gy, {metric, want_idx ? 1u : 0u}), &p2, sizeof p2, div_up(cols, gx),
                 div_up(rows, gy));
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.bwdist", "wave32", 60, run_bwdist)
IPT_VK_OP("ipt.bwdist", "wave64", 50, run_bwdist)
