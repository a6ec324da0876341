// SPDX-License-Identifier: Apache-2.0
// ipt.edge's plan (backends/common/ops/edge.hpp) on hand-computed cases:
// each method's defaults (sobel by default, log sigma 2, canny sigma sqrt(2)),
// the gradient operators, the filter sizes, canny's derivative-of-Gaussian
// taps against an independent computation of MATLAB's smoothGradient, the
// given thresholds, the working class and every error the plan raises.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <tuple>
#include <vector>

#include "common/ops/edge.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::EdgeMethod;
using ipt::frontend::EdgePlan;
using ipt::frontend::plan_edge;
using ipt::test::PlanCall;

constexpr double kEps = std::numeric_limits<double>::epsilon();

EdgePlan plan_method(const char* method, int32_t dtype = IPT_DOUBLE) {
    PlanCall call("ipt.edge");
    call.image("I", dtype, 6, 7).text("method", method);
    return plan_edge(call.args());
}

// The message of the invalid-argument error a call raises ("" if none).
template <class F>
std::string error_of(F&& make) {
    try {
        PlanCall call("ipt.edge");
        make(call);
        plan_edge(call.args());
    } catch (const ipt::plugin::Error& e) {
        EXPECT_EQ(e.status, IPT_ERR_INVALID_ARGUMENT);
        return e.message;
    }
    return "";
}

TEST(EdgePlan, SobelByDefault) {
    PlanCall call("ipt.edge");
    call.image("I", IPT_UINT8, 6, 7);
    const EdgePlan p = plan_edge(call.args());
    EXPECT_EQ(p.method, EdgeMethod::Sobel);
    EXPECT_TRUE(p.gradient);
    EXPECT_TRUE(p.thinning);
    EXPECT_EQ(p.kx, 1);
    EXPECT_EQ(p.ky, 1);
    EXPECT_FALSE(p.threshold_given);
    EXPECT_EQ(p.thresh_count, 1);
    EXPECT_EQ(p.rows, 6);
    EXPECT_EQ(p.cols, 7);
}

TEST(EdgePlan, GradientOperators) {
    // by = imfilter(I, op), bx = imfilter(I, op'), op = fspecial('sobel')/8.
    const EdgePlan s = plan_method("sobel");
    EXPECT_EQ(s.operators.size, 3);
    EXPECT_EQ(s.operators.y, (std::vector<double>{1 / 8., 2 / 8., 1 / 8., 0, 0, 0, -1 / 8., -2 / 8., -1 / 8.}));
    EXPECT_EQ(s.operators.x, (std::vector<double>{1 / 8., 0, -1 / 8., 2 / 8., 0, -2 / 8., 1 / 8., 0, -1 / 8.}));
    EXPECT_EQ(s.operators.scale, 4);
    const EdgePlan p = plan_method("prewitt");
    EXPECT_EQ(p.operators.y, (std::vector<double>{1 / 6., 1 / 6., 1 / 6., 0, 0, 0, -1 / 6., -1 / 6., -1 / 6.}));
    EXPECT_EQ(p.operators.x, (std::vector<double>{1 / 6., 0, -1 / 6., 1 / 6., 0, -1 / 6., 1 / 6., 0, -1 / 6.}));
    EXPECT_EQ(p.operators.scale, 4);
    // Roberts: bx with [1 0; 0 -1]/2, by with [0 1; -1 0]/2, scale 6.
    const EdgePlan r = plan_method("roberts");
    EXPECT_EQ(r.operators.size, 2);
    EXPECT_EQ(r.operators.x, (std::vector<double>{0.5, 0, 0, -0.5}));
    EXPECT_EQ(r.operators.y, (std::vector<double>{0, 0.5, -0.5, 0}));
    EXPECT_EQ(r.operators.scale, 6);
}

TEST(EdgePlan, Directions) {
    auto weights = [](const char* dir) {
        PlanCall call("ipt.edge");
        call.image("I", IPT_DOUBLE, 3, 3).text("method", "prewitt").text("direction", dir);
        const EdgePlan p = plan_edge(call.args());
        return std::pair{p.kx, p.ky};
    };
    EXPECT_EQ(weights("both"), (std::pair{1.0, 1.0}));
    EXPECT_EQ(weights("horizontal"), (std::pair{0.0, 1.0}));
    EXPECT_EQ(weights("vertical"), (std::pair{1.0, 0.0}));
}

TEST(EdgePlan, NoThinning) {
    PlanCall call("ipt.edge");
    call.image("I", IPT_DOUBLE, 3, 3).text("method", "roberts").text("thinning", "nothinning");
    EXPECT_FALSE(plan_edge(call.args()).thinning);
}

TEST(EdgePlan, GivenGradientThresholdIsSquared) {
    PlanCall call("ipt.edge");
    call.image("I", IPT_DOUBLE, 3, 3).floats("threshold", {0.1});
    const EdgePlan p = plan_edge(call.args());
    EXPECT_TRUE(p.threshold_given);
    EXPECT_EQ(p.cutoff, 0.1 * 0.1);
    EXPECT_EQ(p.given, (std::vector<double>{0.1}));
}

TEST(EdgePlan, LogDefaultsAndFilterSize) {
    // sigma 2: fspecial('log', 2*ceil(3*2)+1 = 13, 2), made to sum to zero.
    const EdgePlan p = plan_method("log");
    EXPECT_EQ(p.sigma, 2);
    EXPECT_FALSE(p.gradient);
    EXPECT_EQ(p.thresh_count, 1);
    EXPECT_EQ(p.zero_crossing.rows, 13);
    EXPECT_EQ(p.zero_crossing.cols, 13);
    double sum = 0, peak = 0;
    for (double v : p.zero_crossing.h) sum += v, peak = std::max(peak, std::abs(v));
    EXPECT_NEAR(sum, 0, 64 * kEps * peak);
    // Symmetric about the centre, most negative there.
    const auto& h = p.zero_crossing.h;
    for (int64_t i = 0; i < 13; ++i)
        for (int64_t j = 0; j < 13; ++j) EXPECT_EQ(h[i * 13 + j], h[j * 13 + i]);
    EXPECT_EQ(*std::min_element(h.begin(), h.end()), h[6 * 13 + 6]);

    // sigma 0.5: 2*ceil(1.5)+1 = 5; sigma 1: 7.
    for (auto [sigma, size] : {std::pair{0.5, 5}, std::pair{1.0, 7}, std::pair{1.01, 9}}) {
        PlanCall call("ipt.edge");
        call.image("I", IPT_DOUBLE, 3, 3).text("method", "log").number("sigma", sigma);
        const EdgePlan q = plan_edge(call.args());
        EXPECT_EQ(q.sigma, sigma);
        EXPECT_EQ(q.zero_crossing.rows, size) << sigma;
    }
}

TEST(EdgePlan, ZerocrossFilterIsMadeToSumToZero) {
    const std::vector<double> h = {1, 2, 3, 4};  // [1 2; 3 4], mean 2.5
    PlanCall call("ipt.edge");
    call.image("I", IPT_DOUBLE, 5, 5).text("method", "zerocross").image("h", IPT_DOUBLE, 2, 2, 1, h.data());
    const EdgePlan p = plan_edge(call.args());
    EXPECT_EQ(p.method, EdgeMethod::Zerocross);
    EXPECT_EQ(p.zero_crossing.rows, 2);
    EXPECT_EQ(p.zero_crossing.h, (std::vector<double>{-1.5, -0.5, 0.5, 1.5}));

    const std::vector<float> hs = {0.5f, -0.25f, 1.0f};  // 1x3 single, mean 5/12
    PlanCall single("ipt.edge");
    single.image("I", IPT_UINT8, 5, 5).text("method", "zerocross").image("h", IPT_SINGLE, 1, 3, 1, hs.data());
    const EdgePlan q = plan_edge(single.args());
    EXPECT_EQ(q.zero_crossing.cols, 3);
    EXPECT_NEAR(q.zero_crossing.h[0], 0.5 - 5.0 / 12, 4 * kEps);
    EXPECT_NEAR(q.zero_crossing.h[1], -0.25 - 5.0 / 12, 4 * kEps);
    EXPECT_NEAR(q.zero_crossing.h[2], 1.0 - 5.0 / 12, 4 * kEps);
}

// MATLAB's smoothGradient (edge, canny), written from MathWorks' description:
// a Gaussian c*exp(-x.^2/(2*sigma^2)), c = 1/(sqrt(2*pi)*sigma), on
// x = -ceil(4*sigma):ceil(4*sigma), divided by its sum; gradient() of it
// (central differences, one-sided at the ends); the positive values divided
// by their sum and the negative values by the absolute value of theirs.
struct Reference {
    std::vector<double> gauss, deriv;
};

Reference smooth_gradient(double sigma) {
    const int ext = static_cast<int>(std::ceil(4 * sigma));
    const double c = 1 / (std::sqrt(2 * std::numbers::pi) * sigma);
    Reference r;
    for (int x = -ext; x <= ext; ++x) r.gauss.push_back(c * std::exp(-(x * x) / (2 * sigma * sigma)));
    double sum = 0;
    for (double v : r.gauss) sum += v;
    for (double& v : r.gauss) v /= sum;
    const size_t n = r.gauss.size();
    for (size_t i = 0; i < n; ++i) {
        if (i == 0) r.deriv.push_back(r.gauss[1] - r.gauss[0]);
        else if (i == n - 1) r.deriv.push_back(r.gauss[n - 1] - r.gauss[n - 2]);
        else r.deriv.push_back((r.gauss[i + 1] - r.gauss[i - 1]) / 2);
    }
    double pos = 0, neg = 0;
    for (double v : r.deriv) {
        if (v > 0) pos += v;
        if (v < 0) neg += v;
    }
    for (double& v : r.deriv) {
        if (v > 0) v /= pos;
        else if (v < 0) v /= std::abs(neg);
    }
    return r;
}

void expect_taps(const EdgePlan& p, double sigma, size_t len) {
    const Reference want = smooth_gradient(sigma);
    ASSERT_EQ(p.canny.gauss.size(), len);
    ASSERT_EQ(p.canny.deriv.size(), len);
    ASSERT_EQ(want.gauss.size(), len);
    for (size_t i = 0; i < len; ++i) {
        // The plan leaves out the constant c, which the normalisation
        // cancels: the taps agree to a few roundings.
        EXPECT_NEAR(p.canny.gauss[i], want.gauss[i], 16 * kEps * want.gauss[i]) << i;
        EXPECT_NEAR(p.canny.deriv[i], want.deriv[i], 8 * kEps) << i;
        // Symmetric Gaussian, antisymmetric derivative, positive on the left.
        EXPECT_EQ(p.canny.gauss[i], p.canny.gauss[len - 1 - i]);
        EXPECT_NEAR(p.canny.deriv[i], -p.canny.deriv[len - 1 - i], 4 * kEps);
        if (i < len / 2) {
            EXPECT_GT(p.canny.deriv[i], 0);
        }
    }
    EXPECT_EQ(p.canny.deriv[len / 2], 0);
    double pos = 0, neg = 0, sum = 0;
    for (double v : p.canny.deriv) (v > 0 ? pos : neg) += v;
    for (double v : p.canny.gauss) sum += v;
    EXPECT_NEAR(pos, 1, 4 * kEps);
    EXPECT_NEAR(neg, -1, 4 * kEps);
    EXPECT_NEAR(sum, 1, 4 * kEps);
}

TEST(EdgePlan, CannyDefaultsAndTaps) {
    // sigma sqrt(2): ceil(4*sqrt(2)) = 6, 13 taps.
    const EdgePlan p = plan_method("canny");
    EXPECT_EQ(p.sigma, std::sqrt(2.0));
    EXPECT_EQ(p.thresh_count, 2);
    EXPECT_FALSE(p.gradient);
    expect_taps(p, std::sqrt(2.0), 13);
    // The 13 taps by hand: g(x) ~ exp(-x^2/4), g(0) = 1/sum.
    double sum = 0;
    for (int x = -6; x <= 6; ++x) sum += std::exp(-x * x / 4.0);
    EXPECT_NEAR(p.canny.gauss[6], 1 / sum, 4 * kEps);
}

TEST(EdgePlan, CannyTapsForOtherSigmas) {
    for (auto [sigma, len] : {std::pair{1.0, size_t{9}}, std::pair{0.5, size_t{5}}, std::pair{2.6, size_t{23}},
                              std::pair{1e-6, size_t{3}}}) {
        PlanCall call("ipt.edge");
        call.image("I", IPT_SINGLE, 4, 4).text("method", "canny").number("sigma", sigma);
        const EdgePlan p = plan_edge(call.args());
        EXPECT_EQ(p.sigma, sigma);
        expect_taps(p, sigma, len);
    }
}

TEST(EdgePlan, CannyGivenThresholds) {
    auto given = [](std::vector<double> t) {
        PlanCall call("ipt.edge");
        call.image("I", IPT_DOUBLE, 4, 4).text("method", "canny").floats("threshold", std::move(t));
        return plan_edge(call.args()).given;
    };
    // A scalar T means [0.4*T T].
    EXPECT_EQ(given({0.5}), (std::vector<double>{0.4 * 0.5, 0.5}));
    EXPECT_EQ(given({0.1, 0.3}), (std::vector<double>{0.1, 0.3}));
    EXPECT_EQ(given({0}), (std::vector<double>{0, 0}));
}

TEST(EdgePlan, ThreshWithoutPixels) {
    PlanCall call("ipt.edge");
    call.image("I", IPT_DOUBLE, 0, 0).text("method", "canny");
    const EdgePlan p = plan_edge(call.args());
    const std::vector<double> t = p.thresh_without_pixels();
    ASSERT_EQ(t.size(), 2u);
    EXPECT_TRUE(std::isnan(t[0]) && std::isnan(t[1]));
    PlanCall given("ipt.edge");
    given.image("I", IPT_DOUBLE, 0, 5).floats("threshold", {0.2});
    EXPECT_EQ(plan_edge(given.args()).thresh_without_pixels(), (std::vector<double>{0.2}));
    PlanCall log("ipt.edge");
    log.image("I", IPT_DOUBLE, 3, 0).text("method", "log");
    const std::vector<double> l = plan_edge(log.args()).thresh_without_pixels();
    ASSERT_EQ(l.size(), 1u);
    EXPECT_TRUE(std::isnan(l[0]));
}

TEST(EdgePlan, EmptyImagesAreMarked) {
    for (auto [rows, cols, empty] : {std::tuple<int64_t, int64_t, bool>{0, 0, true}, {int64_t{1} << 30, 0, true},
                                     {0, int64_t{1} << 30, true}, {1, 1, false}, {3, 5, false}}) {
        PlanCall call("ipt.edge");
        call.image("I", IPT_DOUBLE, rows, cols).text("method", "canny");
        const EdgePlan p = plan_edge(call.args());
        EXPECT_EQ(p.empty(), empty) << rows << "x" << cols;
        EXPECT_EQ(p.rows, rows);
        EXPECT_EQ(p.cols, cols);
    }
}

// No log or canny filter has more than 4095 taps a side (fspecial's hsize
// limit, 4096, made odd): canny's 2*ceil(4*sigma)+1 taps allow sigma up to
// 2047/4 = 511.75, log's 2*ceil(3*sigma)+1 up to 2047/3 = 682.333...
TEST(EdgePlan, SigmaIsLimitedByTheFilterSize) {
    auto sigma_error = [](const char* method, double sigma) {
        return error_of([&](PlanCall& c) { c.image("I", IPT_DOUBLE, 4, 4).text("method", method).number("sigma", sigma); });
    };
    // At canny's limit: ceil(4 * 511.75) = 2047, 4095 taps.
    {
        PlanCall call("ipt.edge");
        call.image("I", IPT_DOUBLE, 4, 4).text("method", "canny").number("sigma", 511.75);
        const EdgePlan p = plan_edge(call.args());
        EXPECT_EQ(p.canny.gauss.size(), 4095u);
        EXPECT_EQ(p.canny.deriv.size(), 4095u);
    }
    // Just past it (ceil(4 * 511.76) = 2048), far past it, and sizes whose
    // ceil does not fit an integer.
    for (double sigma : {511.76, 1e4, 1e8, 1e300}) {
        const std::string m = sigma_error("canny", sigma);
        EXPECT_NE(m.find("'sigma'"), std::string::npos) << sigma << ": " << m;
        EXPECT_NE(m.find("511.75"), std::string::npos) << m;
        EXPECT_NE(m.find("4095"), std::string::npos) << m;
    }
    // log: 682.34 gives ceil(2047.02) = 2048.
    for (double sigma : {682.34, 1e8, 1e300}) {
        const std::string m = sigma_error("log", sigma);
        EXPECT_NE(m.find("'sigma'"), std::string::npos) << sigma << ": " << m;
        EXPECT_NE(m.find("682.333"), std::string::npos) << m;
    }
    // Below the limits: accepted (log at 100: 2*300+1 = 601 taps a side).
    EXPECT_EQ(sigma_error("canny", 511.0), "");
    PlanCall log("ipt.edge");
    log.image("I", IPT_DOUBLE, 4, 4).text("method", "log").number("sigma", 100);
    EXPECT_EQ(plan_edge(log.args()).zero_crossing.rows, 601);
}

TEST(EdgePlan, WorkingClassIsSingleButForDouble) {
    EXPECT_EQ(plan_method("sobel", IPT_DOUBLE).working_class, IPT_DOUBLE);
    for (int32_t dtype : {IPT_SINGLE, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_LOGICAL})
        EXPECT_EQ(plan_method("canny", dtype).working_class, IPT_SINGLE) << dtype;
}

TEST(EdgePlan, Errors) {
    auto has = [](const std::string& message, const char* param) {
        EXPECT_NE(message.find("ipt.edge"), std::string::npos) << message;
        EXPECT_NE(message.find(std::string("'") + param + "'"), std::string::npos) << message;
    };
    auto image = [](PlanCall& c) -> PlanCall& { return c.image("I", IPT_DOUBLE, 4, 4); };
    has(error_of([&](PlanCall& c) { image(c).text("method", "canny").floats("threshold", {1.0}); }), "threshold");
    has(error_of([&](PlanCall& c) { image(c).text("method", "canny").floats("threshold", {0.3, 0.1}); }), "threshold");
    has(error_of([&](PlanCall& c) { image(c).text("method", "canny").floats("threshold", {0.2, 0.2}); }), "threshold");
    has(error_of([&](PlanCall& c) { image(c).text("method", "canny").floats("threshold", {0.1, 1.0}); }), "threshold");
    has(error_of([&](PlanCall& c) { image(c).text("method", "sobel").floats("threshold", {0.1, 0.2}); }), "threshold");
    has(error_of([&](PlanCall& c) { image(c).text("method", "log").floats("threshold", {0.1, 0.2}); }), "threshold");
    has(error_of([&](PlanCall& c) { image(c).text("method", "log").text("direction", "horizontal"); }), "direction");
    has(error_of([&](PlanCall& c) { image(c).text("method", "canny").text("thinning", "nothinning"); }), "thinning");
    has(error_of([&](PlanCall& c) { image(c).text("method", "sobel").number("sigma", 1); }), "sigma");
    has(error_of([&](PlanCall& c) { image(c).text("method", "zerocross").number("sigma", 1); }), "sigma");
    has(error_of([&](PlanCall& c) { image(c).text("method", "zerocross"); }), "h");
    const double h[1] = {1};
    has(error_of([&](PlanCall& c) { image(c).text("method", "log").image("h", IPT_DOUBLE, 1, 1, 1, h); }), "h");
    // Accepted: canny [low high] below 1, log with sigma, a large scalar for sobel.
    EXPECT_EQ(error_of([&](PlanCall& c) { image(c).text("method", "canny").floats("threshold", {0.1, 0.99}); }), "");
    EXPECT_EQ(error_of([&](PlanCall& c) { image(c).text("method", "log").number("sigma", 3); }), "");
    EXPECT_EQ(error_of([&](PlanCall& c) { image(c).floats("threshold", {5}); }), "");
}

}  // namespace
