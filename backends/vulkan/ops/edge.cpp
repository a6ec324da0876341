// ipt.edge on Vulkan: Sobel, Prewitt, Roberts, Laplacian of Gaussian,
// zero-cross and Canny, following the CPU reference step by step in its
// working class (single for every class but double): im2single, imfilter
// with 'replicate' on the correlation engine (same kernels, same route),
// thresholds from device reductions, and the pixel decisions of
// shaders/edge.comp with the reference's roundings. Canny's hysteresis keeps
// the 8-connected components of the non-maximum-suppressed map that hold a
// strong pixel, labelled by union-find. Every threshold stays on the device.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "correlate.hpp"
#include "edge_operators.hpp"
#include "fspecial_filters.hpp"

namespace {

using namespace ipt::vk;
using ipt::plugin::invalid;

enum class Method { Sobel, Prewitt, Roberts, Log, Zerocross, Canny };

struct EdgePush {
    uint64_t a, b, c, out, stats, flags;
    double kx, ky;
    int32_t rows, cols;
};
struct ReducePush {
    uint64_t src, partials, stats, thresh;
    double scale;
    int32_t n, chunk, count;
};

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
    const auto& args = ctx.args;
    const ipt_tensor* I = args.image("I");
    if (I->channels != 1) invalid("ipt.edge: parameter 'I' must be a grayscale image (1 channel)");
    const std::string m = args.text("method");
    Method method;
    if (m == "sobel") method = Method::Sobel;
    else if (m == "prewitt") method = Method::Prewitt;
    else if (m == "roberts") method = Method::Roberts;
    else if (m == "log") method = Method::Log;
    else if (m == "zerocross") method = Method::Zerocross;
    else if (m == "canny") method = Method::Canny;
    else invalid("ipt.edge: parameter 'method' must be sobel, prewitt, roberts, log, zerocross or canny");
    const bool gradient = method == Method::Sobel || method == Method::Prewitt || method == Method::Roberts;
    const bool has_threshold = args.present("threshold");
    std::vector<double> threshold;
    if (has_threshold) {
        const double* t = args.floats("threshold");
        threshold.assign(t, t + args.count("threshold"));
        for (double v : threshold)
            if (!(v >= 0) || !std::isfinite(v)) invalid("ipt.edge: parameter 'threshold' must be finite and nonnegative");
        if (method == Method::Canny) {
            if (threshold.size() == 1 && !(threshold[0] < 1)) invalid("ipt.edge: parameter 'threshold' must be below 1 for canny");
            if (threshold.size() == 2 && !(threshold[0] < threshold[1] && threshold[1] < 1))
                invalid("ipt.edge: parameter 'threshold' must be [low high] with low < high < 1 for canny");
            if (threshold.size() > 2) invalid("ipt.edge: parameter 'threshold' must have 1 or 2 values");
        } else if (threshold.size() != 1) {
            invalid("ipt.edge: parameter 'threshold' must be a scalar for method '" + m + "'");
        }
    }
    double kx = 1, ky = 1;
    const std::string dir = args.text("direction");
    if (dir == "horizontal") kx = 0;
    else if (dir == "vertical") ky = 0;
    else if (dir != "both") invalid("ipt.edge: parameter 'direction' must be both, horizontal or vertical");
    if (!gradient && dir != "both") invalid("ipt.edge: parameter 'direction' applies to sobel, prewitt and roberts only");
    const std::string thin = args.text("thinning");
    if (thin != "thinning" && thin != "nothinning") invalid("ipt.edge: parameter 'thinning' must be thinning or nothinning");
    const bool thinning = thin == "thinning";
    if (!gradient && !thinning) invalid("ipt.edge: parameter 'thinning' applies to sobel, prewitt and roberts only");
    double sigma = method == Method::Canny ? std::sqrt(2.0) : 2.0;
    if (args.present("sigma")) {
        if (method != Method::Log && method != Method::Canny) invalid("ipt.edge: parameter 'sigma' applies to log and canny only");
        sigma = args.number("sigma");
        if (!(sigma > 0) || !std::isfinite(sigma)) invalid("ipt.edge: parameter 'sigma' must be positive");
    }
    const ipt_tensor* h = args.image("h");
    if (method == Method::Zerocross) {
        if (!h) invalid("ipt.edge: parameter 'h' is required for zerocross");
        if (h->dtype != IPT_SINGLE && h->dtype != IPT_DOUBLE) invalid("ipt.edge: parameter 'h' must be single or double");
        if (h->rows == 0 || h->cols == 0 || h->channels != 1) invalid("ipt.edge: parameter 'h' must be a nonempty 2-D filter");
    } else if (h) {
        invalid("ipt.edge: parameter 'h' applies to zerocross only");
    }
    if (I->dtype != IPT_LOGICAL && I->dtype != IPT_UINT8 && I->dtype != IPT_UINT16 && I->dtype != IPT_INT16 &&
        I->dtype != IPT_SINGLE && I->dtype != IPT_DOUBLE)
        ipt::plugin::unsupported("ipt.edge: class not handled");
    const int64_t rows = I->rows, cols = I->cols, n = rows * cols;
    check_size("ipt.edge", n);
    const int64_t thresh_count = method == Method::Canny ? 2 : 1;

    const ipt_tensor* BW = args.output("BW", IPT_LOGICAL, rows, cols, 1);
    const ipt_tensor* T = args.wanted("thresh") ? args.output("thresh", IPT_DOUBLE, 1, thresh_count, 1) : nullptr;
    Recorder rec(ctx.device);
    Buffer* stats = rec.scratch(4 * sizeof(double));
    Buffer* thresh_buf = T ? static_cast<Buffer*>(T->buffer) : rec.scratch(2 * sizeof(double));
    if (T) ctx.address(T);  // checks that it is on this device
    const VkDeviceSize thresh_offset = T ? T->offset : 0;
    const int32_t wdt = I->dtype == IPT_DOUBLE ? IPT_DOUBLE : IPT_SINGLE;
    Edge e{ctx, rec, rows, cols, wdt, wdt == IPT_DOUBLE ? 1u : 0u, stats, thresh_buf->address + thresh_offset};
    const double nan = std::numeric_limits<double>::quiet_NaN();

    if (n == 0) {
        // No pixels: the automatic thresholds are NaN (mean of nothing).
        std::vector<double> t(size_t(thresh_count), nan);
        if (has_threshold) {
            if (method == Method::Canny) {
                const double high = threshold.size() == 2 ? threshold[1] : threshold[0];
                t = {threshold.size() == 2 ? threshold[0] : 0.4 * high, high};
            } else {
                t = {threshold[0]};
            }
        }
        if (T) rec.write(thresh_buf, thresh_offset, t.data(), t.size() * sizeof(double));
        rec.submit();
        return;
    }

    Buffer* work = e.work();
    EdgePush p = e.push();
    p.a = ctx.address(I);
    p.b = work->address;
    e.pass(0, p, uint32_t(I->dtype));

    if (gradient) {
        const ipt::common::GradientOperators g = ipt::common::gradient_operators(
            method == Method::Sobel     ? ipt::common::GradientMethod::Sobel
            : method == Method::Prewitt ? ipt::common::GradientMethod::Prewitt
                                        : ipt::common::GradientMethod::Roberts);
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
        if (has_threshold) {
            const double t[3] = {threshold[0] * threshold[0], 0, 0};
            rec.write(stats, 0, t, sizeof t);
            rec.write(thresh_buf, thresh_offset, &threshold[0], sizeof(double));
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
        e.pass(2, d, IPT_UINT8, method == Method::Roberts ? 1 : 0, thinning ? 1 : 0);
        rec.submit();
        return;
    }

    if (method == Method::Log || method == Method::Zerocross) {
        const ipt::common::Filter2D op =
            ipt::common::zero_crossing_operator(sigma, method == Method::Zerocross ? h : nullptr);
        Buffer* b = e.work();
        record_filter_replicate(ctx, rec, work->address, b->address, wdt, rows, cols, op.h, op.rows, op.cols, false);
        if (has_threshold) {
            const double t[3] = {threshold[0], 0, 0};
            rec.write(stats, 0, t, sizeof t);
            rec.write(thresh_buf, thresh_offset, &threshold[0], sizeof(double));
        } else {
            e.reduce(1, b->address, 0.75);
        }
        EdgePush d = e.push();
        d.a = b->address;
        d.out = ctx.address(BW);
        e.pass(3, d);
        rec.submit();
        return;
    }

    // Canny: Gaussian on -ext:ext normalised to sum 1, its gradient with the
    // positive and negative parts each normalised to +-1 (as the reference).
    const int64_t ext = static_cast<int64_t>(std::ceil(4 * sigma));
    const int64_t len = 2 * ext + 1;
    std::vector<double> g(static_cast<size_t>(len)), dg(static_cast<size_t>(len));
    double gs = 0;
    for (int64_t i = 0; i < len; ++i) {
        const double x = static_cast<double>(i - ext);
        g[i] = std::exp(-(x * x) / (2 * sigma * sigma));
        gs += g[i];
    }
    for (double& v : g) v /= gs;
    for (int64_t i = 0; i < len; ++i) {
        if (len == 1) dg[i] = 0;
        else if (i == 0) dg[i] = g[1] - g[0];
        else if (i == len - 1) dg[i] = g[i] - g[i - 1];
        else dg[i] = (g[i + 1] - g[i - 1]) / 2;
    }
    double pos = 0, neg = 0;
    for (double v : dg) {
        if (v > 0) pos += v;
        if (v < 0) neg += v;
    }
    for (double& v : dg) {
        if (v > 0) v /= pos;
        else if (v < 0) v /= std::abs(neg);
    }
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
    if (has_threshold) {
        const double high = threshold.size() == 2 ? threshold[1] : threshold[0];
        const double t[3] = {threshold.size() == 2 ? threshold[0] : 0.4 * high, high, 0};
        rec.write(stats, 0, t, 2 * sizeof(double));
        rec.write(thresh_buf, thresh_offset, t, 2 * sizeof(double));
    } else {
        Buffer* hist = rec.scratch(64 * 4);
        rec.fill(hist, 0, 64 * 4, 0);
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

IPT_VK_OP("ipt.edge", run_edge)
