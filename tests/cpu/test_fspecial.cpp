// SPDX-License-Identifier: Apache-2.0
// ipt.fspecial against values from MathWorks' documentation and MATLAB
// Answers, hand computation, and for 'disk' an independent numerical
// integration of each pixel's overlap with the circle.
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;

struct Filter {
    int64_t rows = 0, cols = 0;
    std::vector<double> h;
    double at(int64_t r, int64_t c) const { return h[static_cast<size_t>(r * cols + c)]; }
    double sum() const {
        double s = 0;
        for (double x : h) s += x;
        return s;
    }
};

struct Args {
    std::vector<double> hsize;
    double sigma = NAN, alpha = NAN, radius = NAN, len = NAN, theta = NAN;
    Args& with_hsize(std::vector<double> v) { return hsize = std::move(v), *this; }
    Args& with_sigma(double v) { return sigma = v, *this; }
    Args& with_alpha(double v) { return alpha = v, *this; }
    Args& with_radius(double v) { return radius = v, *this; }
    Args& with_len(double v) { return len = v, *this; }
    Args& with_theta(double v) { return theta = v, *this; }
};

Filter fspecial(const std::string& type, const Args& a = Args()) {
    ipt::Call call(context(), "ipt.fspecial");
    call.text("type", type);
    if (!a.hsize.empty()) call.numbers("hsize", a.hsize);
    if (!std::isnan(a.sigma)) call.number("sigma", a.sigma);
    if (!std::isnan(a.alpha)) call.number("alpha", a.alpha);
    if (!std::isnan(a.radius)) call.number("radius", a.radius);
    if (!std::isnan(a.len)) call.number("len", a.len);
    if (!std::isnan(a.theta)) call.number("theta", a.theta);
    call.run();
    ipt::Image h = call.take("h");
    EXPECT_EQ(h.dtype(), IPT_DOUBLE);
    return {h.rows(), h.cols(), h.download<double>()};
}

constexpr double kEps = 2.220446049250313e-16;

void expect_values(const Filter& f, int64_t rows, int64_t cols, const std::vector<double>& want, double tol) {
    ASSERT_EQ(f.rows, rows);
    ASSERT_EQ(f.cols, cols);
    for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(f.h[i], want[i], tol) << i;
}

void expect_symmetric(const Filter& f, double tol) {
    for (int64_t r = 0; r < f.rows; ++r)
        for (int64_t c = 0; c < f.cols; ++c) {
            EXPECT_NEAR(f.at(r, c), f.at(f.rows - 1 - r, c), tol);
            EXPECT_NEAR(f.at(r, c), f.at(r, f.cols - 1 - c), tol);
            if (f.rows == f.cols) {
                EXPECT_NEAR(f.at(r, c), f.at(c, r), tol);
            }
        }
}

TEST(Fspecial, AverageDefaultAndRectangular) {
    expect_values(fspecial("average"), 3, 3, std::vector<double>(9, 1.0 / 9), 0);
    expect_values(fspecial("average", Args().with_hsize({2, 3})), 2, 3, std::vector<double>(6, 1.0 / 6), 0);
    expect_values(fspecial("average", Args().with_hsize({4})), 4, 4, std::vector<double>(16, 1.0 / 16), 0);
}

TEST(Fspecial, SobelAndPrewitt) {
    expect_values(fspecial("sobel"), 3, 3, {1, 2, 1, 0, 0, 0, -1, -2, -1}, 0);
    expect_values(fspecial("prewitt"), 3, 3, {1, 1, 1, 0, 0, 0, -1, -1, -1}, 0);
}

TEST(Fspecial, LaplacianAndUnsharp) {
    // alpha = 0.2: [1/6 2/3 1/6; 2/3 -10/3 2/3; 1/6 2/3 1/6] (MATLAB doc)
    const double a = 0.2 / 1.2, b = 0.8 / 1.2, c = -4 / 1.2;
    expect_values(fspecial("laplacian"), 3, 3, {a, b, a, b, c, b, a, b, a}, 4 * kEps * 4);
    expect_values(fspecial("laplacian", Args().with_alpha(0)), 3, 3, {0, 1, 0, 1, -4, 1, 0, 1, 0}, 0);
    expect_values(fspecial("laplacian", Args().with_alpha(1)), 3, 3, {0.5, 0, 0.5, 0, -2, 0, 0.5, 0, 0.5}, 0);
    // unsharp = [0 0 0;0 1 0;0 0 0] - laplacian: centre 4.3333, edges -0.6667
    expect_values(fspecial("unsharp"), 3, 3, {-a, -b, -a, -b, 1 - c, -b, -a, -b, -a}, 4 * kEps * 5);
}

TEST(Fspecial, GaussianDefault) {
    // hsize 3, sigma 0.5: exp(-(x^2+y^2)/0.5) normalised; MATLAB shows
    // [0.0113 0.0838 0.0113; 0.0838 0.6193 0.0838; 0.0113 0.0838 0.0113].
    const double e1 = std::exp(-2.0), e2 = std::exp(-4.0), s = 1 + 4 * e1 + 4 * e2;
    const Filter g = fspecial("gaussian");
    expect_values(g, 3, 3, {e2 / s, e1 / s, e2 / s, e1 / s, 1 / s, e1 / s, e2 / s, e1 / s, e2 / s}, 4 * kEps);
    expect_values(g, 3, 3, {0.0113, 0.0838, 0.0113, 0.0838, 0.6193, 0.0838, 0.0113, 0.0838, 0.0113}, 5e-5);
    EXPECT_NEAR(g.sum(), 1, 4 * kEps);
}

TEST(Fspecial, GaussianEvenSizeAndCutBelowEps) {
    // Even sizes sit on half-integer grids: [2 2] is four equal taps.
    expect_values(fspecial("gaussian", Args().with_hsize({2, 2}).with_sigma(1.3)), 2, 2, {0.25, 0.25, 0.25, 0.25}, kEps);
    // A tiny sigma: every tap but the centre is below eps*max and becomes 0.
    const Filter g = fspecial("gaussian", Args().with_hsize({5, 3}).with_sigma(0.1));
    ASSERT_EQ(g.rows, 5);
    ASSERT_EQ(g.cols, 3);
    for (int64_t i = 0; i < 15; ++i) EXPECT_EQ(g.h[i], i == 7 ? 1.0 : 0.0) << i;
}

TEST(Fspecial, LogSumsToZeroAndMatchesMatlab) {
    const Filter f = fspecial("log");
    // fspecial('log') as printed by MATLAB (hsize 5, sigma 0.5).
    expect_values(f, 5, 5,
                  {0.0448, 0.0468, 0.0564, 0.0468, 0.0448, 0.0468, 0.3167, 0.7146, 0.3167, 0.0468, 0.0564, 0.7146,
                   -4.9048, 0.7146, 0.0564, 0.0468, 0.3167, 0.7146, 0.3167, 0.0468, 0.0448, 0.0468, 0.0564, 0.0468,
                   0.0448},
                  5e-5);
    EXPECT_NEAR(f.sum(), 0, 1e-14);
    expect_symmetric(f, 4 * kEps * 5);
    const Filter g = fspecial("log", Args().with_hsize({7, 9}).with_sigma(1.4));
    EXPECT_EQ(g.rows, 7);
    EXPECT_EQ(g.cols, 9);
    EXPECT_NEAR(g.sum(), 0, 1e-14);
}

TEST(Fspecial, MotionHorizontalIsAnAverage) {
    // fspecial('motion',9,0) = ones(1,9)/9 (to MATLAB's eps terms).
    const Filter m = fspecial("motion");
    expect_values(m, 1, 9, std::vector<double>(9, 1.0 / 9), 8 * kEps);
    const Filter v = fspecial("motion", Args().with_len(5).with_theta(90));
    expect_values(v, 5, 1, std::vector<double>(5, 0.2), 8 * kEps);
    expect_values(fspecial("motion", Args().with_len(1)), 1, 1, {1}, 8 * kEps);
}

TEST(Fspecial, MotionDiagonalMatchesMatlab) {
    // fspecial('motion',3,45) from MATLAB Answers 307822:
    // [0 0.0754 0.1883; 0.0754 0.3215 0.0754; 0.1883 0.0754 0]
    expect_values(fspecial("motion", Args().with_len(3).with_theta(45)), 3, 3,
                  {0, 0.0754, 0.1883, 0.0754, 0.3215, 0.0754, 0.1883, 0.0754, 0}, 5e-5);
    // theta and theta + 180 are the same line; 135 degrees is its mirror image.
    const Filter a = fspecial("motion", Args().with_len(7).with_theta(30));
    const Filter b = fspecial("motion", Args().with_len(7).with_theta(210));
    const Filter c = fspecial("motion", Args().with_len(7).with_theta(150));
    ASSERT_EQ(a.rows, b.rows);
    ASSERT_EQ(a.cols, b.cols);
    for (size_t i = 0; i < a.h.size(); ++i) EXPECT_NEAR(a.h[i], b.h[i], 8 * kEps);
    ASSERT_EQ(a.rows, c.rows);
    ASSERT_EQ(a.cols, c.cols);
    for (int64_t r = 0; r < a.rows; ++r)
        for (int64_t col = 0; col < a.cols; ++col) EXPECT_NEAR(a.at(r, col), c.at(r, a.cols - 1 - col), 8 * kEps);
    EXPECT_NEAR(a.sum(), 1, 1e-13);
}

// Area of the unit pixel centred at (cx, cy) inside the circle of radius r,
// by the midpoint rule on the chord length (independent of the filter's
// closed form).
double pixel_area(double cx, double cy, double r) {
    const int n = 20000;
    double area = 0;
    for (int k = 0; k < n; ++k) {
        const double x = cx - 0.5 + (k + 0.5) / n;
        if (std::abs(x) >= r) continue;
        const double s = std::sqrt(r * r - x * x);
        const double lo = std::max(cy - 0.5, -s), hi = std::min(cy + 0.5, s);
        if (hi > lo) area += (hi - lo) / n;
    }
    return area;
}

TEST(Fspecial, DiskIsTheNormalisedAreaOfOverlap) {
    // disk(1) = [0.0251 0.1453 0.0251; 0.1453 0.3183 0.1453; 0.0251 0.1453 0.0251]
    expect_values(fspecial("disk", Args().with_radius(1)), 3, 3,
                  {0.0251, 0.1453, 0.0251, 0.1453, 0.3183, 0.1453, 0.0251, 0.1453, 0.0251}, 5e-5);
    for (double r : {0.3, 0.6, 1.0, 2.5, 3.2, 5.0, 7.77}) {
        const Filter d = fspecial("disk", Args().with_radius(r));
        const int64_t crad = static_cast<int64_t>(std::ceil(r - 0.5));
        ASSERT_EQ(d.rows, 2 * crad + 1) << r;
        ASSERT_EQ(d.cols, 2 * crad + 1) << r;
        EXPECT_NEAR(d.sum(), 1, 1e-13) << r;
        expect_symmetric(d, 1e-15);
        double total = 0;
        for (int64_t i = 0; i < d.rows; ++i)
            for (int64_t j = 0; j < d.cols; ++j) total += pixel_area(j - crad, i - crad, r);
        for (int64_t i = 0; i < d.rows; ++i)
            for (int64_t j = 0; j < d.cols; ++j)
                EXPECT_NEAR(d.at(i, j), pixel_area(j - crad, i - crad, r) / total, 1e-6) << r << " " << i << "," << j;
    }
    // Inside the disk every pixel holds 1/(pi r^2) (default radius 5).
    const Filter d5 = fspecial("disk");
    EXPECT_NEAR(d5.at(5, 5), 1 / (std::numbers::pi * 25), 2e-15);
    EXPECT_NEAR(d5.at(3, 6), 1 / (std::numbers::pi * 25), 2e-15);
    EXPECT_EQ(d5.at(0, 0), 0);
}

TEST(Fspecial, BadInputIsRejectedWithTheParameterNamed) {
    auto expect = [&](const std::string& type, auto&& setup, const char* needle) {
        ipt::Call call(context(), "ipt.fspecial");
        try {
            call.text("type", type);
            setup(call);
            call.run();
            ADD_FAILURE() << "expected an error naming " << needle;
        } catch (const ipt::Error& e) {
            EXPECT_EQ(e.status(), IPT_ERR_INVALID_ARGUMENT) << e.what();
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
        }
    };
    expect("sobel", [](ipt::Call& c) { c.numbers("hsize", {3}); }, "hsize");
    expect("average", [](ipt::Call& c) { c.number("sigma", 1); }, "sigma");
    expect("disk", [](ipt::Call& c) { c.number("radius", 0); }, "radius");
    expect("gaussian", [](ipt::Call& c) { c.numbers("hsize", {0}); }, "hsize");
    expect("gaussian", [](ipt::Call& c) { c.numbers("hsize", {2.5}); }, "hsize");
    expect("motion", [](ipt::Call& c) { c.number("alpha", 0.5); }, "alpha");
    expect("laplacian", [](ipt::Call& c) { c.number("alpha", 1.5); }, "alpha");
    expect("gaussian", [](ipt::Call& c) { c.number("sigma", -1); }, "sigma");
    expect("ring", [](ipt::Call&) {}, "type");
}

}  // namespace
