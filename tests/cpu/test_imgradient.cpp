// SPDX-License-Identifier: Apache-2.0
// ipt.imgradientxy and ipt.imgradient against hand-computed gradients (ramps,
// a single bright pixel) and brute force written here: MATLAB's recipe
// spelled out as imfilter (correlation, replicate padding, zero taps
// skipped) with -fspecial('sobel') and -fspecial('prewitt'), MATLAB's
// gradient with one-sided ends, forward differences with a zero last
// column, Roberts' 2x2 kernels, then hypot and atan2 in degrees.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

constexpr double kPi = 3.14159265358979323846;

struct Grad {
    std::vector<double> x, y;
};

// imfilter(I, h, 'replicate') as correlation with the kernel centre at
// floor((size+1)/2), only the nonzero taps contributing.
std::vector<double> imfilter_replicate(const std::vector<double>& I, int rows, int cols,
                                       const std::vector<std::vector<double>>& h) {
    const int kr = static_cast<int>(h.size()), kc = static_cast<int>(h[0].size());
    const int or_ = (kr + 1) / 2 - 1, oc = (kc + 1) / 2 - 1;
    std::vector<double> out(I.size(), 0.0);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            double s = 0;
            for (int i = 0; i < kr; ++i)
                for (int j = 0; j < kc; ++j) {
                    if (h[i][j] == 0) continue;
                    const int rr = std::clamp(r + i - or_, 0, rows - 1), cc = std::clamp(c + j - oc, 0, cols - 1);
                    s += h[i][j] * I[rr * cols + cc];
                }
            out[r * cols + c] = s;
        }
    return out;
}

std::vector<std::vector<double>> transpose(const std::vector<std::vector<double>>& h) {
    std::vector<std::vector<double>> t(h[0].size(), std::vector<double>(h.size()));
    for (size_t i = 0; i < h.size(); ++i)
        for (size_t j = 0; j < h[0].size(); ++j) t[j][i] = h[i][j];
    return t;
}

// MATLAB's gradient along one line of n values a stride apart.
double gradient_at(const std::vector<double>& I, int start, int stride, int k, int n) {
    auto v = [&](int i) { return I[start + i * stride]; };
    if (n < 2) return 0;
    if (k == 0) return v(1) - v(0);
    if (k == n - 1) return v(n - 1) - v(n - 2);
    return (v(k + 1) - v(k - 1)) / 2;
}

Grad brute(const std::vector<double>& I, int rows, int cols, const std::string& method) {
    Grad g;
    if (method == "sobel" || method == "prewitt") {
        const double w = method == "sobel" ? 2 : 1;
        const std::vector<std::vector<double>> h = {{-1, -w, -1}, {0, 0, 0}, {1, w, 1}};  // -fspecial(...)
        g.x = imfilter_replicate(I, rows, cols, transpose(h));
        g.y = imfilter_replicate(I, rows, cols, h);
    } else if (method == "roberts") {
        g.x = imfilter_replicate(I, rows, cols, {{1, 0}, {0, -1}});
        g.y = imfilter_replicate(I, rows, cols, {{0, 1}, {-1, 0}});
    } else {
        g.x.assign(I.size(), 0);
        g.y.assign(I.size(), 0);
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) {
                if (method == "central") {
                    g.x[r * cols + c] = gradient_at(I, r * cols, 1, c, cols);
                    g.y[r * cols + c] = gradient_at(I, c, cols, r, rows);
                } else {
                    if (c + 1 < cols) g.x[r * cols + c] = I[r * cols + c + 1] - I[r * cols + c];
                    if (r + 1 < rows) g.y[r * cols + c] = I[(r + 1) * cols + c] - I[r * cols + c];
                }
            }
    }
    return g;
}

template <class T>
std::vector<double> as_double(const std::vector<T>& v) {
    return std::vector<double>(v.begin(), v.end());
}

struct XY {
    ipt::Image gx, gy;
};

XY imgradientxy(const ipt::Image& I, const std::string& method = "") {
    ipt::Call call(context(), "ipt.imgradientxy");
    call.image("I", I).want("Gy");
    if (!method.empty()) call.option("method", method);
    call.run();
    return {call.take("Gx"), call.take("Gy")};
}

XY imgradient(const ipt::Image& I, const std::string& method = "") {
    ipt::Call call(context(), "ipt.imgradient");
    call.image("I", I).want("Gdir");
    if (!method.empty()) call.option("method", method);
    call.run();
    return {call.take("Gmag"), call.take("Gdir")};
}

// A horizontal ramp I(r, c) = c: Gx is the kernel's weight sum inside and
// half of it at the replicated ends; Gy is 0.
TEST(Imgradientxy, HorizontalRampByHand) {
    std::vector<double> ramp;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 5; ++c) ramp.push_back(c);
    const ipt::Image I = image<double>(3, 5, ramp);
    const std::vector<std::pair<std::string, std::vector<double>>> rows = {
        {"", {4, 8, 8, 8, 4}},  // sobel by default
        {"sobel", {4, 8, 8, 8, 4}},
        {"prewitt", {3, 6, 6, 6, 3}},
        {"central", {1, 1, 1, 1, 1}},
        {"intermediate", {1, 1, 1, 1, 0}},
    };
    for (const auto& [method, row] : rows) {
        XY g = imgradientxy(I, method);
        EXPECT_EQ(g.gx.dtype(), IPT_DOUBLE);
        EXPECT_EQ(g.gy.dtype(), IPT_DOUBLE);
        const auto gx = g.gx.download<double>(), gy = g.gy.download<double>();
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 5; ++c) {
                EXPECT_EQ(gx[r * 5 + c], row[c]) << method << " " << r << "," << c;
                EXPECT_EQ(gy[r * 5 + c], 0.0) << method;
            }
    }
}

// A vertical ramp I(r, c) = 2r: y points down the rows, so Gy is positive.
TEST(Imgradientxy, VerticalRampByHand) {
    std::vector<uint8_t> ramp;
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 2; ++c) ramp.push_back(static_cast<uint8_t>(2 * r));
    XY g = imgradientxy(image<uint8_t>(4, 2, ramp), "central");
    EXPECT_EQ(g.gy.download<double>(), (std::vector<double>{2, 2, 2, 2, 2, 2, 2, 2}));
    EXPECT_EQ(g.gx.download<double>(), std::vector<double>(8, 0.0));
    g = imgradientxy(image<uint8_t>(4, 2, ramp), "intermediate");
    EXPECT_EQ(g.gy.download<double>(), (std::vector<double>{2, 2, 2, 2, 2, 2, 0, 0}));
    g = imgradientxy(image<uint8_t>(4, 2, ramp));
    EXPECT_EQ(g.gy.download<double>(), (std::vector<double>{8, 8, 16, 16, 16, 16, 8, 8}));
}

// Integer images give integer gradients, so the brute force must agree exactly.
TEST(Imgradientxy, BruteForceEveryMethodAndShape) {
    std::mt19937 rng(15);
    std::uniform_int_distribution<int> value(0, 255);
    // Wider rows run sobel and prewitt's interior as vectors (edges per pixel).
    for (auto [rows, cols] :
         {std::pair{1, 1}, {1, 7}, {7, 1}, {2, 2}, {5, 9}, {13, 6}, {3, 3}, {1, 45}, {4, 37}, {19, 70}}) {
        std::vector<uint8_t> pix(rows * cols);
        for (auto& p : pix) p = static_cast<uint8_t>(value(rng));
        const std::vector<double> I = as_double(pix);
        for (const char* method : {"sobel", "prewitt", "central", "intermediate"}) {
            const Grad want = brute(I, rows, cols, method);
            XY g = imgradientxy(image<uint8_t>(rows, cols, pix), method);
            EXPECT_EQ(g.gx.download<double>(), want.x) << method << " " << rows << "x" << cols;
            EXPECT_EQ(g.gy.download<double>(), want.y) << method << " " << rows << "x" << cols;
        }
    }
}

TEST(Imgradientxy, ClassesAndEmpty) {
    XY g = imgradientxy(image<float>(2, 3, {0, 1, 2, 3, 4, 5}), "intermediate");
    EXPECT_EQ(g.gx.dtype(), IPT_SINGLE);
    EXPECT_EQ(g.gx.download<float>(), (std::vector<float>{1, 1, 0, 1, 1, 0}));
    EXPECT_EQ(g.gy.download<float>(), (std::vector<float>{3, 3, 3, 0, 0, 0}));
    g = imgradientxy(ipt_test::logical(1, 3, {0, 1, 1}), "central");
    EXPECT_EQ(g.gx.dtype(), IPT_DOUBLE);
    EXPECT_EQ(g.gx.download<double>(), (std::vector<double>{1, 0.5, 0}));
    g = imgradientxy(image<int32_t>(1, 2, {-2147483647 - 1, 2147483647}), "intermediate");
    EXPECT_EQ(g.gx.download<double>(), (std::vector<double>{4294967295.0, 0}));
    g = imgradientxy(image<int16_t>(2, 1, {-32768, 32767}));
    EXPECT_EQ(g.gy.download<double>(), (std::vector<double>{4 * 65535.0, 4 * 65535.0}));
    g = imgradientxy(image<uint16_t>(0, 4, {}));
    EXPECT_EQ(g.gx.rows(), 0);
    EXPECT_EQ(g.gx.cols(), 4);
}

// Only the nonzero taps read the image: Inf under the Sobel kernel's zero
// column leaves Gx finite; NaN spreads to the taps that see it.
TEST(Imgradientxy, InfAndNaN) {
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> I(9, 0.0);
    I[4] = inf;
    XY g = imgradientxy(image<double>(3, 3, I));
    const auto gx = g.gx.download<double>(), gy = g.gy.download<double>();
    EXPECT_EQ(gx[4], 0.0);
    EXPECT_EQ(gy[4], 0.0);
    EXPECT_EQ(gx[3], inf);  // the Inf is right of (1,0), weight 2
    EXPECT_EQ(gx[5], -inf);
    EXPECT_EQ(gy[1], inf);
    EXPECT_EQ(gy[7], -inf);
    I[4] = NAN;
    g = imgradientxy(image<double>(3, 3, I), "intermediate");
    const auto nx = g.gx.download<double>();
    EXPECT_TRUE(std::isnan(nx[3]));
    EXPECT_TRUE(std::isnan(nx[4]));
    EXPECT_EQ(nx[5], 0.0);  // the last column is 0 whatever I holds
}

TEST(Imgradientxy, RgbIsRefused) {
    ipt::Call call(context(), "ipt.imgradientxy");
    call.image("I", image<uint8_t>(2, 2, std::vector<uint8_t>(12, 1), 3));
    EXPECT_THROW(call.run(), ipt::Error);
}

TEST(Imgradient, DirectionsByHand) {
    // Gradient to the right: 0 degrees; to the left: Gx < 0 with Gy = +0, so
    // atan2(-0, Gx) = -pi; downwards (rows increasing): -90; upwards: 90.
    struct Case {
        std::vector<double> pix;
        double mag, deg;
    };
    const std::vector<Case> cases = {
        {{0, 1, 2, 0, 1, 2, 0, 1, 2}, 8, 0.0},  {{2, 1, 0, 2, 1, 0, 2, 1, 0}, 8, -180.0},
        {{0, 0, 0, 1, 1, 1, 2, 2, 2}, 8, -90.0}, {{2, 2, 2, 1, 1, 1, 0, 0, 0}, 8, 90.0},
        {{0, 0, 0, 0, 0, 0, 0, 0, 0}, 0, 0.0},
    };
    for (const Case& k : cases) {
        XY g = imgradient(image<double>(3, 3, k.pix));
        EXPECT_EQ(g.gx.dtype(), IPT_DOUBLE);
        EXPECT_EQ(g.gy.dtype(), IPT_DOUBLE);
        EXPECT_DOUBLE_EQ(g.gx.download<double>()[4], k.mag);
        EXPECT_DOUBLE_EQ(g.gy.download<double>()[4], k.deg);
    }
    // A 3-4-5 gradient: Gx = 3 * 8, Gy = -4 * 8 (up), |G| = 40, 53.13 degrees.
    XY g = imgradient(image<double>(3, 3, {1, 4, 7, -3, 0, 3, -7, -4, -1}));
    EXPECT_DOUBLE_EQ(g.gx.download<double>()[4], 40.0);
    EXPECT_DOUBLE_EQ(g.gy.download<double>()[4], std::atan2(4.0, 3.0) * 180 / kPi);
}

// One bright pixel at the top left: Roberts' Gx = 1, Gy = 0 there, whose
// direction atan2(0, -1) - pi/4 is 135 degrees (up and to the left).
TEST(Imgradient, RobertsByHand) {
    XY g = imgradient(image<double>(2, 2, {1, 0, 0, 0}), "roberts");
    const auto mag = g.gx.download<double>(), dir = g.gy.download<double>();
    EXPECT_EQ(mag, (std::vector<double>{1, 0, 0, 0}));
    EXPECT_DOUBLE_EQ(dir[0], 135.0);
    EXPECT_EQ(dir[1], 0.0);  // zero gradient: 0 by rule
    // Gx = 1, Gy = -1: atan2(-1, -1) - pi/4 is -3pi/4 - pi/4, which rounds
    // to -pi exactly in double, so no wrap: -180.
    g = imgradient(image<double>(2, 2, {1, 0, 1, 0}), "roberts");
    EXPECT_EQ(g.gy.download<double>()[0], -180.0);
    EXPECT_DOUBLE_EQ(g.gx.download<double>()[0], std::sqrt(2.0));
}

TEST(Imgradient, BruteForceEveryMethod) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> value(-3, 3);
    const int rows = 9, cols = 11;
    std::vector<double> I(rows * cols);
    for (auto& v : I) v = value(rng);
    for (const char* method : {"sobel", "prewitt", "central", "intermediate", "roberts"}) {
        const Grad b = brute(I, rows, cols, method);
        XY g = imgradient(image<double>(rows, cols, I), method);
        const auto mag = g.gx.download<double>(), dir = g.gy.download<double>();
        for (int i = 0; i < rows * cols; ++i) {
            const double gx = b.x[i], gy = b.y[i];
            const double m = std::hypot(gx, gy);
            double d;
            if (std::string(method) == "roberts" && gx == 0 && gy == 0) {
                d = 0;  // zero gradient: 0 by rule
            } else if (std::string(method) == "roberts") {
                d = std::atan2(gy, -gx) - kPi / 4;
                if (d < -kPi) d += 2 * kPi;
                d = d * 180 / kPi;
            } else {
                d = std::atan2(-gy, gx) * 180 / kPi;
            }
            // The brute force sums in another order: a few eps of the terms.
            EXPECT_NEAR(mag[i], m, 1e-13) << method << " " << i;
            EXPECT_NEAR(dir[i], d, 1e-9 / std::max(1e-3, m)) << method << " " << i;
        }
    }
}

TEST(Imgradient, ClassesSingleAndRoberts) {
    XY g = imgradient(image<float>(1, 3, {0, 3, 0}), "central");
    EXPECT_EQ(g.gx.dtype(), IPT_SINGLE);
    EXPECT_EQ(g.gy.dtype(), IPT_SINGLE);
    EXPECT_EQ(g.gx.download<float>(), (std::vector<float>{3, 0, 3}));
    EXPECT_EQ(g.gy.download<float>()[0], 0.0f);
    EXPECT_FLOAT_EQ(g.gy.download<float>()[2], -180.0f);  // atan2(-0, -3)
    // MATLAB fills roberts' direction into a double array, so Gdir is double.
    g = imgradient(image<float>(2, 2, {1, 0, 0, 0}), "roberts");
    EXPECT_EQ(g.gx.dtype(), IPT_SINGLE);
    EXPECT_EQ(g.gy.dtype(), IPT_DOUBLE);
    EXPECT_NEAR(g.gy.download<double>()[0], 135.0, 1e-4);
    // Gx = 1, Gy = -1 in single: -3pi/4 - pi/4 rounds below -pi in single,
    // so the angle wraps to just under +180 (where double gives -180).
    g = imgradient(image<float>(2, 2, {1, 0, 1, 0}), "roberts");
    const double wrapped = (double(-3.14159274101257324f) + 2 * kPi) * 180 / kPi;
    EXPECT_EQ(g.gy.download<double>()[0], wrapped);
    EXPECT_GT(wrapped, 179.9999);
    g = imgradient(ipt_test::logical(2, 2, {1, 0, 0, 1}));
    EXPECT_EQ(g.gx.dtype(), IPT_DOUBLE);
    g = imgradient(image<uint8_t>(3, 0, {}), "roberts");
    EXPECT_EQ(g.gx.rows(), 3);
    EXPECT_EQ(g.gx.cols(), 0);
}

// hypot is infinite when either gradient is, even with a NaN beside it.
TEST(Imgradient, InfAndNaN) {
    const double inf = std::numeric_limits<double>::infinity();
    XY g = imgradient(image<double>(1, 3, {inf, NAN, 0}), "intermediate");
    const auto mag = g.gx.download<double>(), dir = g.gy.download<double>();
    EXPECT_TRUE(std::isnan(mag[0]));  // NaN - Inf
    EXPECT_TRUE(std::isnan(mag[1]));
    EXPECT_EQ(mag[2], 0.0);
    g = imgradient(image<double>(2, 2, {0, inf, 0, 0}), "intermediate");
    EXPECT_EQ(g.gx.download<double>()[0], inf);
    EXPECT_EQ(g.gy.download<double>()[0], 0.0);
    g = imgradient(image<double>(2, 2, {0, inf, NAN, 0}), "intermediate");
    EXPECT_EQ(g.gx.download<double>()[0], inf);  // hypot(Inf, NaN)
    EXPECT_TRUE(std::isnan(dir[1]));
}

// Single: Gmag is the double root of the double sum of squares, rounded to
// single, and Inf where either gradient is infinite (vector rows included).
TEST(Imgradient, SingleMagnitudeOnWideRows) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> value(-2, 2);
    const int rows = 5, cols = 53;
    std::vector<float> I(rows * cols);
    for (auto& v : I) v = value(rng);
    I[2 * cols + 20] = std::numeric_limits<float>::infinity();
    I[3 * cols + 40] = NAN;
    XY g = imgradient(image<float>(rows, cols, I), "sobel");
    const auto mag = g.gx.download<float>();
    auto at = [&](int r, int c) {
        return I[std::clamp(r, 0, rows - 1) * cols + std::clamp(c, 0, cols - 1)];
    };
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            const float x = (at(r - 1, c + 1) - at(r - 1, c - 1)) + 2 * (at(r, c + 1) - at(r, c - 1)) +
                            (at(r + 1, c + 1) - at(r + 1, c - 1));
            const float y = (at(r + 1, c - 1) - at(r - 1, c - 1)) + 2 * (at(r + 1, c) - at(r - 1, c)) +
                            (at(r + 1, c + 1) - at(r - 1, c + 1));
            const float m = mag[r * cols + c];
            if (std::isinf(x) || std::isinf(y)) {
                EXPECT_EQ(m, std::numeric_limits<float>::infinity()) << r << " " << c;
            } else if (std::isnan(x) || std::isnan(y)) {
                EXPECT_TRUE(std::isnan(m)) << r << " " << c;
            } else {
                // The brute force sums in another order: a few eps of single.
                EXPECT_NEAR(m, std::hypot(double(x), double(y)), 1e-5) << r << " " << c;
            }
        }
}

}  // namespace
