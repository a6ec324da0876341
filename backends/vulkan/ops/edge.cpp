// SPDX-License-Identifier: Apache-2.0
// ipt.edge on Vulkan: Sobel, Prewitt, Roberts, Laplacian of Gaussian,
// zero-cross and Canny, with the filters and defaults of the front-end
// (common/ops/edge.hpp), following the CPU reference step by step in its
// working class (single for every class but double): im2single, imfilter
// with 'replicate' on the correlation engine (same kernels, same route),
// thresholds from device reductions, and the pixel decisions of
// shaders/edge.comp with the reference's roundings. Canny's hysteresis keeps
// the 8-connected components of the non-maximum-suppressed map that hold a
// strong pixel, labelled by union-find. Every threshold stays on the device.
// The automatic thresholds' constants are the front-end's, pushed to the
// shaders, so MATLAB's rule lives in one place.
#include <cstddef>
#include <vector>

#include "common/correlate.hpp"
#include "common/ops/edge.hpp"

namespace {

using namespace ipt::vk;
using ipt::frontend::EdgeMethod;
using ipt::frontend::EdgePlan;

// The push blocks of shaders/edge.comp and shaders/edge_reduce.comp, member
// for member (doubles 8-byte aligned, padded to a multiple of 8).
struct EdgePush {
    uint64_t a, b, c, out, stats, flags;
    double kx, ky;
    double not_edges, ratio;  // pass 7: the canny thresholds' fraction and low/high ratio
    int32_t rows, cols;
    int32_t bins;             // passes 6, 7: canny's histogram bins
    int32_t pad;
};
static_assert(offsetof(EdgePush, kx) == 48 && offsetof(EdgePush, not_edges) == 64 &&
              offsetof(EdgePush, rows) == 80 && offsetof(EdgePush, bins) == 88 && sizeof(EdgePush) == 96);
static_assert(sizeof(EdgePush) <= kPushConstantBytes);
struct ReducePush {
    uint64_t src, partials, stats, thresh;
    double scale;
    int32_t n, chunk, count;
};
static_assert(offsetof(ReducePush, scale) == 32 && offsetof(ReducePush, n) == 40 && sizeof(ReducePush) == 56);

struct Edge {
    OpContext& ctx;
    Recorder& rec;
    int64_t rows, cols;
    int32_t wdt;          // working class
    uint32_t wd;          // 1 when double
    Buffer* stats;        // doubles: [0] cutoff / t / low, [1] high, [2] max
    VkDeviceAddress thresh;

    Buffer* work() { return rec.scratch(uint64_t(rows * cols) * dtype_bytes(wdt)); }

    void pass(uint32_t pass, const EdgePush& p, uint32_t dt = IPT_UINT8, uint32_t roberts = 0, uint32_t thinning = 1) {
        const uint32_t gx = ctx.tuning.group_x, gy = ctx.tuning.group_y;
        VkPipeline pipeline = ctx.pipeline("edge", gx, gy, {pass, wd, dt, roberts, thinning});
        if (pass == 7) rec.dispatch(pipeline, &p, sizeof p, 1, 1);
        else rec.dispatch(pipeline, &p, sizeof p, div_up(cols, gx), div_up(rows, gy));
    }
    EdgePush push() const {
        EdgePush p{};
        p.stats = stats->address;
        p.rows = int32_t(rows);
        p.cols = int32_t(cols);
        p.not_edges = ipt::frontend::kCannyNotEdges;
        p.ratio = ipt::frontend::kCannyRatio;
        p.bins = ipt::frontend::kCannyBins;
        return p;
    }
    // MODE 0: scale*sum(b)/n (and sqrt), 1: scale*sum|b|/n, 2: max -> stats.
    void reduce(uint32_t mode, VkDeviceAddress src, double scale) {
        const int64_t n = rows * cols;
        const uint32_t width = ctx.tuning.group_size;
        int64_t chunk = std::max<int64_t>(int64_t(width) * 4, (n + 1023) / 1024);
        chunk = (chunk + width - 1) / width * width;
        const int64_t groups = std::max<int64_t>(1, (n + chunk - 1) / chunk);
        Buffer* partials = rec.scratch(uint64_t(groups) * 16);
        ReducePush p1{src, partials->address, stats->address, thresh, scale, int32_t(n), int32_t(chunk), int32_t(n)};
        rec.dispatch(ctx.pipeline("edge_reduce", width, 1, {mode, wd, 0}), &p1, sizeof p1, uint32_t(groups));
        ReducePush p2{partials->address, partials->address, stats->address, thresh, scale, int32_t(groups),
                      int32_t(chunk), int32_t(n)};
        rec.dispatch(ctx.pipeline("edge_reduce", width, 1, {mode, wd, 1}), &p2, sizeof p2, 1);
    }
};

void run_edge(OpContext& ctx) {
    const EdgePlan plan = ipt::frontend::plan_edge(ctx.args);
    const ipt_tensor* I = plan.I;
    const EdgeMethod method = plan.method;
    const double kx = plan.kx, ky = plan.ky;
    const int64_t rows = I->rows, cols = I->cols, n = rows * cols;
    check_size("ipt.edge", n);

    const ipt_tensor* BW = ctx.args.output("BW", IPT_LOGICAL, rows, cols, 1);
    const ipt_tensor* T =
        ctx.args.wanted("thresh") ? ctx.args.output("thresh", IPT_DOUBLE, 1, plan.thresh_count, 1) : nullptr;
    Recorder rec(ctx.device);
    Buffer* stats = rec.scratch(4 * sizeof(double));
    Buffer* thresh_buf = T ? static_cast<Buffer*>(T->buffer) : rec.scratch(2 * sizeof(double));
    if (T) ctx.address(T);  // checks that it is on this device
    const VkDeviceSize thresh_offset = T ? T->offset : 0;
    const int32_t wdt = plan.working_class;
    Edge e{ctx, rec, rows, cols, wdt, wdt == IPT_DOUBLE ? 1u : 0u, stats, thresh_buf->address + thresh_offset};

    if (plan.empty()) {
        const std::vector<double> t = plan.thresh_without_pixels();
        if (T) rec.write(thresh_buf, thresh_offset, t.data(), t.size() * sizeof(double));
        rec.submit();
        return;
    }

    Buffer* work = e.work();
    EdgePush p = e.push();
    p.a = ctx.address(I);
    p.b = work->address;
    e.pass(0, p, uint32_t(I->dtype));

    if (plan.gradient) {
        const ipt::frontend::GradientOperators& g = plan.operators;
        const int64_t ks = g.size;
        const double scale = g.scale;
        Buffer* bx = e.work();
        Buffer* by = e.work();
        Buffer* b = e.work();
        record_filter_replicate(ctx, rec, work->address, bx->address, wdt, rows, cols, g.x, ks, ks, false);
        record_filter_replicate(ctx, rec, work->address, by->address, wdt, rows, cols, g.y, ks, ks, false);
        EdgePush q = e.push();
        q.a = bx->address;
        q.b = by->address;
        q.c = b->address;
        q.kx = kx;
        q.ky = ky;
        e.pass(1, q);
        if (plan.threshold_given) {
            const double t[3] = {plan.cutoff, 0, 0};
            rec.write(stats, 0, t, sizeof t);
            rec.write(thresh_buf, thresh_offset, plan.given.data(), sizeof(double));
        } else {
            e.reduce(0, b->address, scale);
        }
        EdgePush d = e.push();
        d.a = b->address;
        d.b = bx->address;
        d.c = by->address;
        d.out = ctx.address(BW);
        d.kx = kx;
        d.ky = ky;
        e.pass(2, d, IPT_UINT8, method == EdgeMethod::Roberts ? 1 : 0, plan.thinning ? 1 : 0);
        rec.submit();
        return;
    }

    if (method != EdgeMethod::Canny) {
        const ipt::common::Filter2D& op = plan.zero_crossing;
        Buffer* b = e.work();
        record_filter_replicate(ctx, rec, work->address, b->address, wdt, rows, cols, op.h, op.rows, op.cols, false);
        if (plan.threshold_given) {
            const double t[3] = {plan.given[0], 0, 0};
            rec.write(stats, 0, t, sizeof t);
            rec.write(thresh_buf, thresh_offset, plan.given.data(), sizeof(double));
        } else {
            e.reduce(1, b->address, ipt::frontend::kZeroCrossingScale);
        }
        EdgePush d = e.push();
        d.a = b->address;
        d.out = ctx.address(BW);
        e.pass(3, d);
        rec.submit();
        return;
    }

    const std::vector<double>& g = plan.canny.gauss;
    const std::vector<double>& dg = plan.canny.deriv;
    const int64_t len = static_cast<int64_t>(g.size());
    Buffer* sx = e.work();
    Buffer* gx = e.work();
    Buffer* sy = e.work();
    Buffer* gy = e.work();
    record_filter_replicate(ctx, rec, work->address, sx->address, wdt, rows, cols, g, len, 1, true);
    record_filter_replicate(ctx, rec, sx->address, gx->address, wdt, rows, cols, dg, 1, len, true);
    record_filter_replicate(ctx, rec, work->address, sy->address, wdt, rows, cols, g, 1, len, true);
    record_filter_replicate(ctx, rec, sy->address, gy->address, wdt, rows, cols, dg, len, 1, true);
    Buffer* mag = sx;  // sx is no longer needed
    EdgePush q = e.push();
    q.a = gx->address;
    q.b = gy->address;
    q.c = mag->address;
    e.pass(4, q);
    e.reduce(2, mag->address, 0);
    EdgePush norm = e.push();
    norm.a = mag->address;
    e.pass(5, norm);
    if (plan.threshold_given) {
        const double t[3] = {plan.given[0], plan.given[1], 0};
        rec.write(stats, 0, t, 2 * sizeof(double));
        rec.write(thresh_buf, thresh_offset, t, 2 * sizeof(double));
    } else {
        const uint64_t hist_bytes = uint64_t(ipt::frontend::kCannyBins) * 4;
        Buffer* hist = rec.scratch(hist_bytes);
        rec.fill(hist, 0, hist_bytes, 0);
        EdgePush hp = e.push();
        hp.a = mag->address;
        hp.out = hist->address;
        e.pass(6, hp);
        EdgePush tp = e.push();
        tp.a = hist->address;
        tp.out = e.thresh;
        e.pass(7, tp);
    }
    Buffer* state = rec.scratch(uint64_t(n));
    Buffer* labels = rec.scratch(uint64_t(n) * 4);
    Buffer* flags = rec.scratch(uint64_t(n) * 4);
    rec.fill(flags, 0, uint64_t(n) * 4, 0);
    EdgePush nms = e.push();
    nms.a = mag->address;
    nms.b = gx->address;
    nms.c = gy->address;
    nms.out = state->address;
    e.pass(8, nms);
    EdgePush uf = e.push();
    uf.b = state->address;
    uf.c = labels->address;
    uf.out = flags->address;
    uf.flags = flags->address;
    e.pass(9, uf);
    e.pass(10, uf);
    e.pass(11, uf);
    uf.out = ctx.address(BW);
    e.pass(12, uf);
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.edge", "wave32", 60, run_edge)
IPT_VK_OP("ipt.edge", "wave64", 50, run_edge)
