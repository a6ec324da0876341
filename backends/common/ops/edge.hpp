// SPDX-License-Identifier: Apache-2.0
// ipt.edge's front-end: [BW, thresh] = edge(I, method, threshold, direction,
// thinning, sigma, h) turned into the filters, defaults and given thresholds
// of one detector (docs/matlab-semantics.md#edge).
//
// Integer and logical images are processed in single (im2single), double in
// double, single in single. The filters are imfilter(..., 'replicate'):
//  sobel/prewitt/roberts: by with op, bx with op', op = fspecial('sobel')/8,
//      fspecial('prewitt')/6 or Roberts' [0 1; -1 0]/2 (bx: [1 0; 0 -1]/2);
//      b = kx*bx^2 + ky*by^2; automatic cutoff = scale*mean(b), scale 4 (6 for
//      roberts), thresh = sqrt(cutoff); a given t gives cutoff t^2.
//  log: fspecial('log', 2*ceil(3*sigma)+1, sigma), sigma 2 by default;
//      zerocross: h; either made to sum to zero; automatic thresh =
//      0.75*mean(|b|).
//  canny: a Gaussian on -ceil(4*sigma):ceil(4*sigma) (sigma sqrt(2) by
//      default) and its derivative; automatic thresholds from a 64-bin
//      histogram of the normalised magnitude (high = first bin past 70% of
//      the pixels, divided by 64; low = 0.4*high); a given scalar T means
//      [0.4*T T].
// sigma is limited so that no filter has more than 4095 taps a side
// (fspecial's largest hsize, 4096, made odd): log takes sigma up to 2047/3,
// canny up to 2047/4 = 511.75. An empty image (rows or cols 0) gives an empty
// BW of its size and thresh as thresh_without_pixels(), computing nothing.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "../fspecial_filters.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

using ipt::common::Filter2D;

enum class EdgeMethod { Sobel, Prewitt, Roberts, Log, Zerocross, Canny };

// The automatic thresholds' constants.
constexpr double kZeroCrossingScale = 0.75;  // log, zerocross: 0.75*mean(|b|)
constexpr int kCannyBins = 64;               // imhist(mag, 64)
constexpr double kCannyNotEdges = 0.7;       // high: first bin past 70% of the pixels
constexpr double kCannyRatio = 0.4;          // low = 0.4*high
// Taps a side of the largest log or canny filter (fspecial's hsize limit).
constexpr int64_t kMaxEdgeFilterTaps = 4095;

// The gradient operators of sobel, prewitt and roberts, as correlation
// kernels (size x size, row-major).
struct GradientOperators {
    int64_t size = 0;
    std::vector<double> x;  // kernel of bx: op'
    std::vector<double> y;  // kernel of by: op
    double scale = 0;       // automatic cutoff = scale * mean(b)
};

inline GradientOperators gradient_operators(EdgeMethod method) {
    GradientOperators g;
    if (method == EdgeMethod::Roberts) {
        g.size = 2;
        g.x = {0.5, 0, 0, -0.5};  // [1 0; 0 -1]/2
        g.y = {0, 0.5, -0.5, 0};  // [0 1; -1 0]/2
        g.scale = 6;
        return g;
    }
    const Filter2D op = method == EdgeMethod::Sobel ? ipt::common::fspecial_sobel() : ipt::common::fspecial_prewitt();
    const double div = method == EdgeMethod::Sobel ? 8 : 6;
    g.size = 3;
    g.x.resize(9);
    g.y.resize(9);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
            g.y[r * 3 + c] = op.at(r, c) / div;
            g.x[c * 3 + r] = op.at(r, c) / div;  // op'
        }
    g.scale = 4;
    return g;
}

// The filter of the log method, fspecial('log', 2*ceil(3*sigma)+1, sigma),
// or zerocross's h (row-major, single or double, on the host), made to sum
// to zero as MATLAB's edge does: op - sum(op(:))/numel(op), the sum in
// column-major order.
inline Filter2D zero_crossing_operator(double sigma, const ipt_tensor* h) {
    Filter2D op;
    if (!h) {
        const int64_t size = static_cast<int64_t>(std::ceil(sigma * 3)) * 2 + 1;
        op = ipt::common::fspecial_log(size, size, sigma);
    } else {
        op.rows = h->rows;
        op.cols = h->cols;
        for (int64_t i = 0; i < op.rows * op.cols; ++i)
            op.h.push_back(h->dtype == IPT_SINGLE ? static_cast<double>(static_cast<const float*>(h->data)[i])
                                                  : static_cast<const double*>(h->data)[i]);
    }
    double sum = 0;
    for (int64_t c = 0; c < op.cols; ++c)
        for (int64_t r = 0; r < op.rows; ++r) sum += op.at(r, c);
    const double mean = sum / static_cast<double>(op.rows * op.cols);
    for (double& v : op.h) v -= mean;
    return op;
}

// Canny's 1-D filters: the Gaussian on x = -ext:ext, ext = ceil(4*sigma),
// normalised to sum 1, and its gradient() (central differences, one-sided at
// the ends) with the positive and negative parts each normalised to +-1.
struct CannyTaps {
    std::vector<double> gauss, deriv;
};

inline CannyTaps canny_taps(double sigma) {
    const int64_t ext = static_cast<int64_t>(std::ceil(4 * sigma));
    const int64_t len = 2 * ext + 1;
    CannyTaps t;
    std::vector<double>& g = t.gauss;
    std::vector<double>& dg = t.deriv;
    g.resize(static_cast<size_t>(len));
    dg.resize(static_cast<size_t>(len));
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
    return t;
}

struct EdgePlan {
    const ipt_tensor* I = nullptr;  // on the call's device
    EdgeMethod method = EdgeMethod::Sobel;
    int32_t working_class = IPT_SINGLE;  // double for double images, else single
    int64_t rows = 0, cols = 0;
    int64_t thresh_count = 1;  // numel(thresh): 2 for canny

    // A given threshold: the values thresh reports (canny: [low high]).
    bool threshold_given = false;
    std::vector<double> given;

    // sobel, prewitt, roberts
    bool gradient = false;
    GradientOperators operators;
    double kx = 1, ky = 1;  // direction weights
    bool thinning = true;
    double cutoff = 0;      // given threshold squared

    // log, zerocross
    double sigma = 0;       // log and canny
    Filter2D zero_crossing;

    // canny
    CannyTaps canny;

    // An image without pixels: BW is empty of the image's size and thresh is
    // thresh_without_pixels(); backends compute nothing (no loop may run over
    // the other dimension, which can be huge).
    bool empty() const { return rows == 0 || cols == 0; }

    // What thresh holds for an image without pixels: the given values, or
    // NaN (the mean of nothing).
    std::vector<double> thresh_without_pixels() const {
        if (threshold_given) return given;
        return std::vector<double>(static_cast<size_t>(thresh_count), std::numeric_limits<double>::quiet_NaN());
    }
};

inline EdgeMethod edge_method(const std::string& m) {
    if (m == "prewitt") return EdgeMethod::Prewitt;
    if (m == "roberts") return EdgeMethod::Roberts;
    if (m == "log") return EdgeMethod::Log;
    if (m == "zerocross") return EdgeMethod::Zerocross;
    if (m == "canny") return EdgeMethod::Canny;
    return EdgeMethod::Sobel;
}

// A log or canny filter spans x = -ceil(reach*sigma):ceil(reach*sigma) (reach
// 3 and 4). A sigma whose filter would exceed kMaxEdgeFilterTaps is refused
// before any size is computed from it (a cast of ceil(4e300) is undefined).
inline void check_sigma(double sigma, double reach, const std::string& method) {
    constexpr double half = (kMaxEdgeFilterTaps - 1) / 2;
    if (!(std::ceil(reach * sigma) <= half)) {
        char limit[32];
        std::snprintf(limit, sizeof limit, "%.6g", half / reach);
        ipt::plugin::invalid("ipt.edge: parameter 'sigma' must be at most " + std::string(limit) + " for " + method +
                             ": its filter of 2*ceil(" + (reach == 3 ? "3" : "4") + "*sigma)+1 taps a side may have " +
                             "at most " + std::to_string(kMaxEdgeFilterTaps));
    }
}

// The plan's sizes only (BW: I's size; thresh: 1 x thresh_count), without
// filters or checks: what the registry checks outputs against.
inline EdgePlan plan_edge_output(const ipt::plugin::KernelArgs& args) {
    EdgePlan p;
    p.I = args.image("I");
    p.rows = p.I->rows;
    p.cols = p.I->cols;
    p.working_class = p.I->dtype == IPT_DOUBLE ? IPT_DOUBLE : IPT_SINGLE;
    p.method = edge_method(args.text("method"));
    p.thresh_count = p.method == EdgeMethod::Canny ? 2 : 1;
    return p;
}

inline EdgePlan plan_edge(const ipt::plugin::KernelArgs& args) {
    using ipt::plugin::invalid;
    EdgePlan p = plan_edge_output(args);
    const std::string m = args.text("method");
    const bool canny = p.method == EdgeMethod::Canny;
    p.gradient = p.method == EdgeMethod::Sobel || p.method == EdgeMethod::Prewitt || p.method == EdgeMethod::Roberts;

    p.threshold_given = args.present("threshold");
    if (p.threshold_given) {
        const double* t = args.floats("threshold");
        const std::vector<double> v(t, t + args.count("threshold"));
        if (canny) {
            if (v.size() == 1 && !(v[0] < 1)) invalid("ipt.edge: parameter 'threshold' must be below 1 for canny");
            if (v.size() == 2 && !(v[0] < v[1] && v[1] < 1))
                invalid("ipt.edge: parameter 'threshold' must be [low high] with low < high < 1 for canny");
            const double high = v.back();
            p.given = {v.size() == 2 ? v[0] : kCannyRatio * high, high};
        } else {
            if (v.size() != 1) invalid("ipt.edge: parameter 'threshold' must be a scalar for method '" + m + "'");
            p.given = v;
        }
    }

    const std::string dir = args.text("direction");
    p.kx = dir == "horizontal" ? 0 : 1;
    p.ky = dir == "vertical" ? 0 : 1;
    if (!p.gradient && dir != "both")
        invalid("ipt.edge: parameter 'direction' applies to sobel, prewitt and roberts only");
    p.thinning = args.is("thinning", "thinning");
    if (!p.gradient && !p.thinning)
        invalid("ipt.edge: parameter 'thinning' applies to sobel, prewitt and roberts only");

    if (args.present("sigma")) {
        if (p.method != EdgeMethod::Log && !canny) invalid("ipt.edge: parameter 'sigma' applies to log and canny only");
        p.sigma = args.number("sigma");
        check_sigma(p.sigma, canny ? 4 : 3, m);
    } else {
        p.sigma = canny ? std::sqrt(2.0) : 2.0;
    }
    const ipt_tensor* h = args.image("h");
    if (p.method == EdgeMethod::Zerocross && !h) invalid("ipt.edge: parameter 'h' is required for zerocross");
    if (p.method != EdgeMethod::Zerocross && h) invalid("ipt.edge: parameter 'h' applies to zerocross only");

    if (p.gradient) {
        p.operators = gradient_operators(p.method);
        if (p.threshold_given) p.cutoff = p.given[0] * p.given[0];
    } else if (canny) {
        p.canny = canny_taps(p.sigma);
    } else {
        p.zero_crossing = zero_crossing_operator(p.sigma, h);
    }
    return p;
}

}  // namespace ipt::frontend
