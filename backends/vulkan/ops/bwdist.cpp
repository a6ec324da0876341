// ipt.bwdist on Vulkan: nearest feature row per column (one invocation per
// column), then per pixel an outward search over the columns that stops at
// the best distance found (shaders/bwdist_*.comp). Exact for every metric.
#include <numbers>
#include <string>

#include "op_support.hpp"

namespace {

using namespace ipt::vk;

struct ColumnsPush {
    uint64_t bw, nearest, below;
    int32_t rows, cols;
};
struct RowsPush {
    uint64_t nearest, below, d, idx;
    double quasi_k;
    int32_t rows, cols;
};

void run_bwdist(OpContext& ctx) {
    const auto& args = ctx.args;
    const ipt_tensor* bw = args.image("BW");
    if (bw->channels != 1) ipt::plugin::invalid("ipt.bwdist: parameter 'BW' must be a 2-D image");
    uint32_t metric;
    if (args.is("method", "euclidean")) metric = 0;
    else if (args.is("method", "cityblock")) metric = 1;
    else if (args.is("method", "chessboard")) metric = 2;
    else if (args.is("method", "quasi-euclidean")) metric = 3;
    else ipt::plugin::invalid("ipt.bwdist: parameter 'method' must be euclidean, cityblock, chessboard or quasi-euclidean");
    const int64_t rows = bw->rows, cols = bw->cols, n = rows * cols;
    check_size("ipt.bwdist", n);
    const bool want_idx = args.wanted("IDX");
    const bool want_below = want_idx && metric == 2;
    const ipt_tensor* d = args.output("D", IPT_SINGLE, rows, cols, 1);
    const ipt_tensor* idx = want_idx ? args.output("IDX", IPT_UINT32, rows, cols, 1) : nullptr;
    if (n == 0) return;
    Recorder rec(ctx.device);
    Buffer* nearest = rec.scratch(uint64_t(n) * 4);
    Buffer* below = want_below ? rec.scratch(uint64_t(n) * 4) : nullptr;
    ColumnsPush p1{ctx.address(bw), nearest->address, below ? below->address : 0, int32_t(rows), int32_t(cols)};
    const uint32_t width = ctx.tuning.group_size;
    rec.dispatch(ctx.pipeline("bwdist_columns", width, 1, {uint32_t(bw->dtype), want_below ? 1u : 0u}), &p1,
                 sizeof p1, div_up(cols, width));
    RowsPush p2{nearest->address, below ? below->address : 0, ctx.address(d), idx ? ctx.address(idx) : 0,
                std::numbers::sqrt2 - 1.0, int32_t(rows), int32_t(cols)};
    const uint32_t gx = ctx.tuning.group_x, gy = ctx.tuning.group_y;
    rec.dispatch(ctx.pipeline("bwdist_rows", gx, gy, {metric, want_idx ? 1u : 0u}), &p2, sizeof p2, div_up(cols, gx),
                 div_up(rows, gy));
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.bwdist", run_bwdist)
