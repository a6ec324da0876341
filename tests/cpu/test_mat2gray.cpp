// SPDX-License-Identifier: Apache-2.0
// ipt.mat2gray against hand-computed values and a brute-force version of
// MATLAB's rule written here: limits [min max] of A (NaN skipped) unless
// given; equal limits keep double(A); otherwise delta = 1/(amax-amin) and
// delta*A + (-amin*delta); then max(0, min(I,1)), where a NaN becomes 1.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

std::vector<double> mat2gray(const ipt::Image& a, const std::vector<double>& limits = {}) {
    ipt::Call call(context(), "ipt.mat2gray");
    call.image("A", a);
    if (!limits.empty()) call.numbers("limits", limits);
    call.run();
    ipt::Image i = call.take("I");
    EXPECT_EQ(i.dtype(), IPT_DOUBLE);
    EXPECT_EQ(i.rows(), a.rows());
    EXPECT_EQ(i.cols(), a.cols());
    EXPECT_EQ(i.channels(), a.channels());
    return i.download<double>();
}

// Brute force of the rule, with the limits given.
std::vector<double> expected(const std::vector<double>& a, double amin, double amax) {
    std::vector<double> out;
    for (double x : a) {
        double v;
        if (amax == amin) {
            v = x;
        } else {
            const double delta = 1.0 / (amax - amin);
            const double offset = -amin * delta;
            const double p = delta * x;
            v = p + offset;
        }
        if (std::isnan(v)) v = 1;  // min(NaN,1) is 1 in MATLAB
        out.push_back(v < 0 ? 0.0 : (v > 1 ? 1.0 : v));
    }
    return out;
}

TEST(Mat2gray, DefaultLimitsByHand) {
    // A = [-2 0 2; 6 1 4]: limits [-2 6], I = (A+2)/8.
    auto i = mat2gray(image<double>(2, 3, {-2, 0, 2, 6, 1, 4}));
    EXPECT_EQ(i, (std::vector<double>{0, 0.25, 0.5, 1, 0.375, 0.75}));
}

TEST(Mat2gray, GivenLimitsClip) {
    // limits [0 4]: -1 -> 0, 5 -> 1, 1 -> 0.25.
    auto i = mat2gray(image<double>(1, 4, {-1, 1, 3, 5}), {0, 4});
    EXPECT_EQ(i, (std::vector<double>{0, 0.25, 0.75, 1}));
    // Limits in reverse order invert: [4 0], delta = -1/4, offset = 1.
    auto r = mat2gray(image<double>(1, 4, {-1, 1, 3, 5}), {4, 0});
    EXPECT_EQ(r, (std::vector<double>{1, 0.75, 0.25, 0}));
}

// Equal limits: I = double(A), clipped (mat2gray(0.5*ones(2)) is 0.5 everywhere).
TEST(Mat2gray, ConstantImageKeepsValuesClipped) {
    EXPECT_EQ(mat2gray(image<double>(2, 2, {0.5, 0.5, 0.5, 0.5})), (std::vector<double>(4, 0.5)));
    EXPECT_EQ(mat2gray(image<uint8_t>(1, 3, {7, 7, 7})), (std::vector<double>(3, 1.0)));
    EXPECT_EQ(mat2gray(image<int16_t>(1, 2, {-3, -3})), (std::vector<double>(2, 0.0)));
    EXPECT_EQ(mat2gray(image<double>(1, 5, {-2, 0, 0.5, 0.9, 5}), {2, 2}),
              (std::vector<double>{0, 0, 0.5, 0.9, 1}));
}

TEST(Mat2gray, NanAndInf) {
    const double inf = std::numeric_limits<double>::infinity();
    // NaN skipped by the limits [0 4]; the NaN element itself becomes 1.
    auto i = mat2gray(image<double>(1, 4, {0, NAN, 2, 4}));
    EXPECT_EQ(i, (std::vector<double>{0, 1, 0.5, 1}));
    // All NaN: limits NaN, every element 1.
    EXPECT_EQ(mat2gray(image<double>(1, 2, {NAN, NAN})), (std::vector<double>{1, 1}));
    // An infinite limit: delta = 0, so 0*Inf = NaN -> 1, finite elements -> 0.
    EXPECT_EQ(mat2gray(image<double>(1, 3, {0, 3, inf})), expected({0, 3, inf}, 0, inf));
    EXPECT_EQ(mat2gray(image<double>(1, 3, {0, 3, inf})), (std::vector<double>{0, 0, 1}));
    // A NaN limit: delta or offset NaN, so every element is NaN before the clip and 1 after.
    EXPECT_EQ(mat2gray(image<uint8_t>(1, 3, {0, 3, 9}), {NAN, 1}), (std::vector<double>{1, 1, 1}));
}

TEST(Mat2gray, EveryClassAgainstBruteForce) {
    std::mt19937 rng(3);
    std::vector<double> raw(23 * 19);
    for (auto& v : raw) v = static_cast<double>(rng() % 200);
    const double lo = *std::min_element(raw.begin(), raw.end()), hi = *std::max_element(raw.begin(), raw.end());
    auto check = [&](const ipt::Image& img, const std::vector<double>& values) {
        EXPECT_EQ(mat2gray(img), expected(values, lo, hi));
        EXPECT_EQ(mat2gray(img, {20, 150}), expected(values, 20, 150));
    };
    auto as = [&](auto tag) {
        using T = decltype(tag);
        return std::vector<T>(raw.begin(), raw.end());
    };
    check(image<uint8_t>(23, 19, as(uint8_t{})), raw);
    check(image<uint16_t>(23, 19, as(uint16_t{})), raw);
    check(image<int16_t>(23, 19, as(int16_t{})), raw);
    check(image<int32_t>(23, 19, as(int32_t{})), raw);
    check(image<uint32_t>(23, 19, as(uint32_t{})), raw);
    check(image<float>(23, 19, as(float{})), raw);
    check(image<double>(23, 19, raw), raw);
    // Negative int16 values and the class's ends.
    const std::vector<double> s = {-32768, -100, 0, 32767};
    EXPECT_EQ(mat2gray(image<int16_t>(2, 2, {-32768, -100, 0, 32767})), expected(s, -32768, 32767));
}

TEST(Mat2gray, LogicalAndRgb) {
    auto l = [] {
        ipt::Call call(context(), "ipt.mat2gray");
        call.image("A", ipt_test::logical(1, 3, {1, 0, 1})).run();
        return call.take("I").download<double>();
    }();
    EXPECT_EQ(l, (std::vector<double>{1, 0, 1}));
    // Limits over every channel: [0 10] for this 1x2x3 image.
    auto i = mat2gray(image<uint8_t>(1, 2, {0, 5, 1, 2, 10, 8}, 3));
    EXPECT_EQ(i, (std::vector<double>{0, 0.5, 0.1, 0.2, 1, 0.8}));
}

TEST(Mat2gray, ShapesAndEmpty) {
    EXPECT_EQ(mat2gray(image<double>(1, 1, {3})), std::vector<double>{1});  // constant, clipped
    EXPECT_EQ(mat2gray(image<double>(3, 1, {1, 2, 3})), (std::vector<double>{0, 0.5, 1}));
    EXPECT_TRUE(mat2gray(image<double>(0, 3, {})).empty());
    EXPECT_TRUE(mat2gray(image<double>(0, 3, {}), {0, 1}).empty());
}

TEST(Mat2gray, LimitsNeedTwoValues) {
    const ipt::Image a = image<double>(1, 2, {1, 2});
    IPT_EXPECT_ERROR(ipt::Call(context(), "ipt.mat2gray").image("A", a).numbers("limits", {1}).run(),
                     IPT_ERR_INVALID_ARGUMENT, "limits");
}

}  // namespace
