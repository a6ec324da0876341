// SPDX-License-Identifier: Apache-2.0
// ipt.imgaussfilt's front-end: defaults, filter sizes, MATLAB's choice of
// route and the taps, checked against values computed by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "common/ops/imgaussfilt.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::ImfilterBoundary;
using ipt::frontend::ImgaussfiltPlan;
using ipt::frontend::plan_imgaussfilt;
using ipt::test::PlanCall;

PlanCall call_of(int32_t dtype, int64_t rows = 8, int64_t cols = 9, int64_t channels = 1) {
    PlanCall call("ipt.imgaussfilt");
    call.image("A", dtype, rows, cols, channels);
    return call;
}

TEST(ImgaussfiltPlan, Defaults) {
    PlanCall call = call_of(IPT_UINT8, 8, 9, 3);
    const ImgaussfiltPlan p = plan_imgaussfilt(call.args());
    EXPECT_EQ(p.out_class, IPT_UINT8);
    EXPECT_EQ(p.rows, 8);
    EXPECT_EQ(p.cols, 9);
    EXPECT_EQ(p.channels, 3);
    EXPECT_EQ(p.sigma[0], 0.5);
    EXPECT_EQ(p.sigma[1], 0.5);
    EXPECT_EQ(p.kr, 3);  // 2*ceil(2*0.5)+1
    EXPECT_EQ(p.kc, 3);
    EXPECT_EQ(p.boundary, ImfilterBoundary::Replicate);
    EXPECT_FALSE(p.separable);
    EXPECT_EQ(p.top, 1);
    EXPECT_EQ(p.left, 1);
}

TEST(ImgaussfiltPlan, FilterSizeFromSigma) {
    PlanCall a = call_of(IPT_DOUBLE);
    a.floats("sigma", {2});
    ImgaussfiltPlan p = plan_imgaussfilt(a.args());
    EXPECT_EQ(p.kr, 9);
    EXPECT_EQ(p.kc, 9);
    PlanCall b = call_of(IPT_DOUBLE);
    b.floats("sigma", {1, 2.1});
    p = plan_imgaussfilt(b.args());
    EXPECT_EQ(p.kr, 5);
    EXPECT_EQ(p.kc, 11);  // 2*ceil(4.2)+1
    PlanCall c = call_of(IPT_DOUBLE);
    c.floats("sigma", {0.1});
    p = plan_imgaussfilt(c.args());
    EXPECT_EQ(p.kr, 3);
    PlanCall d = call_of(IPT_DOUBLE);
    d.floats("sigma", {3}).floats("FilterSize", {1, 7});
    p = plan_imgaussfilt(d.args());
    EXPECT_EQ(p.kr, 1);
    EXPECT_EQ(p.kc, 7);
    EXPECT_EQ(p.top, 0);
    EXPECT_EQ(p.left, 3);
}

TEST(ImgaussfiltPlan, EvenFilterSizeIsRefused) {
    for (std::vector<double> n : {std::vector<double>{4}, {3, 2}, {2, 3}}) {
        PlanCall call = call_of(IPT_DOUBLE);
        call.floats("FilterSize", n);
        EXPECT_THROW(plan_imgaussfilt(call.args()), ipt::plugin::Error);
    }
}

// getSeparableFilterThreshold: 49 taps for double, 289 for every other class;
// never with a side of 1.
TEST(ImgaussfiltPlan, RouteThresholds) {
    auto separable = [](int32_t dtype, double r, double c) {
        PlanCall call = call_of(dtype);
        call.floats("FilterSize", {r, c});
        return plan_imgaussfilt(call.args()).separable;
    };
    EXPECT_TRUE(separable(IPT_DOUBLE, 7, 7));
    EXPECT_FALSE(separable(IPT_DOUBLE, 5, 9));    // 45 taps
    EXPECT_TRUE(separable(IPT_DOUBLE, 3, 17));    // 51 taps
    EXPECT_FALSE(separable(IPT_DOUBLE, 1, 101));
    EXPECT_FALSE(separable(IPT_SINGLE, 15, 15));  // 225 taps
    EXPECT_TRUE(separable(IPT_SINGLE, 17, 17));
    EXPECT_TRUE(separable(IPT_UINT8, 17, 17));
    EXPECT_FALSE(separable(IPT_UINT8, 15, 19));   // 285 taps
    EXPECT_TRUE(separable(IPT_INT32, 3, 97));
}

TEST(ImgaussfiltPlan, WorkingClassAndConstant) {
    struct Case {
        int32_t dtype;
        int32_t work;
    };
    for (Case c : {Case{IPT_UINT8, IPT_SINGLE}, {IPT_UINT16, IPT_SINGLE}, {IPT_INT16, IPT_SINGLE},
                   {IPT_SINGLE, IPT_SINGLE}, {IPT_INT32, IPT_DOUBLE}, {IPT_UINT32, IPT_DOUBLE},
                   {IPT_DOUBLE, IPT_DOUBLE}}) {
        PlanCall call = call_of(c.dtype);
        call.floats("FilterSize", {17}).text("Padding", "constant").number("X", 300.25);
        const ImgaussfiltPlan p = plan_imgaussfilt(call.args());
        EXPECT_TRUE(p.separable);
        EXPECT_EQ(p.work_class, c.work) << c.dtype;
        // Padded after the conversion to the working class: not clamped to A's.
        EXPECT_EQ(p.pad_value, 300.25) << c.dtype;
    }
    // Direct route: imfilter converts the constant to A's class.
    PlanCall call = call_of(IPT_UINT8);
    call.text("Padding", "constant").number("X", 300.25);
    EXPECT_EQ(plan_imgaussfilt(call.args()).pad_value, 255);
    PlanCall neg = call_of(IPT_INT16);
    neg.text("Padding", "constant").number("X", -2.5);
    EXPECT_EQ(plan_imgaussfilt(neg.args()).pad_value, -3);  // half away from zero
}

// sigma = 0.5, 3x3: exp(-(x^2+y^2)/(2*0.25)) gives 1, e^-2 and e^-4.
TEST(ImgaussfiltPlan, KernelByHand) {
    PlanCall call = call_of(IPT_DOUBLE);
    const ImgaussfiltPlan p = plan_imgaussfilt(call.args());
    const double e2 = std::exp(-2.0), e4 = std::exp(-4.0);
    const double sum = 1 + 4 * e2 + 4 * e4;
    ASSERT_EQ(p.h.size(), 9u);
    const double expect[9] = {e4, e2, e4, e2, 1, e2, e4, e2, e4};
    for (int k = 0; k < 9; ++k) EXPECT_NEAR(p.h[k], expect[k] / sum, 4e-16) << k;
}

// Anisotropic: sigma(1) along rows, sigma(2) along columns.
TEST(ImgaussfiltPlan, AnisotropicKernel) {
    PlanCall call = call_of(IPT_DOUBLE);
    call.floats("sigma", {1, 0.5}).floats("FilterSize", {3, 3});
    const ImgaussfiltPlan p = plan_imgaussfilt(call.args());
    // Row offset 1: exp(-1/2); column offset 1: exp(-2).
    EXPECT_NEAR(p.h[1] / p.h[4], std::exp(-0.5), 1e-15);
    EXPECT_NEAR(p.h[3] / p.h[4], std::exp(-2.0), 1e-15);
}

// Taps below eps*max are zero: sigma 0.5 over 13 taps reaches exp(-72).
TEST(ImgaussfiltPlan, SeparableTapsSuppressNearZero) {
    PlanCall call = call_of(IPT_DOUBLE);
    call.floats("FilterSize", {13});
    const ImgaussfiltPlan p = plan_imgaussfilt(call.args());
    ASSERT_TRUE(p.separable);
    ASSERT_EQ(p.hcol.size(), 13u);
    // x = 3: exp(-18) = 1.5e-8 > eps; x = 4: exp(-32) = 1.3e-14 > eps; x = 5: exp(-50) < eps.
    EXPECT_GT(p.hcol[6 - 4], 0.0);
    EXPECT_EQ(p.hcol[6 - 5], 0.0);
    EXPECT_EQ(p.hcol[6 + 6], 0.0);
    double sum = 0;
    for (double v : p.hcol) sum += v;
    EXPECT_NEAR(sum, 1.0, 1e-15);
    EXPECT_EQ(p.hrow, p.hcol);
}

TEST(ImgaussfiltPlan, EmptyImage) {
    PlanCall call = call_of(IPT_SINGLE, 0, 5);
    const ImgaussfiltPlan p = plan_imgaussfilt(call.args());
    EXPECT_EQ(p.rows, 0);
    EXPECT_EQ(p.cols, 5);
}

}  // namespace
