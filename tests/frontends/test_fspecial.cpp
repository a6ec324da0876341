// SPDX-License-Identifier: Apache-2.0
// ipt.fspecial's front-end: MATLAB's defaults per type, the parameters each
// type takes, and the filters of MathWorks' documentation of fspecial.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "common/ops/fspecial.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::FspecialPlan;
using ipt::frontend::FspecialType;
using ipt::frontend::plan_fspecial;
using ipt::test::PlanCall;

FspecialPlan plan_of(PlanCall& call) { return plan_fspecial(call.args()); }

FspecialPlan plan_of(const char* type) {
    PlanCall call("ipt.fspecial");
    call.text("type", type);
    return plan_of(call);
}

void expect_filter(const FspecialPlan& p, int64_t rows, int64_t cols, const std::vector<double>& want,
                   double tol = 1e-15) {
    ASSERT_EQ(p.h.rows, rows);
    ASSERT_EQ(p.h.cols, cols);
    ASSERT_EQ(p.h.h.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(p.h.h[i], want[i], tol) << "tap " << i;
}

double sum(const FspecialPlan& p) {
    double s = 0;
    for (double v : p.h.h) s += v;
    return s;
}

std::string invalid_message(PlanCall& call) {
    try {
        plan_of(call);
    } catch (const ipt::plugin::Error& e) {
        EXPECT_EQ(e.status, IPT_ERR_INVALID_ARGUMENT);
        return e.message;
    }
    ADD_FAILURE() << "no error";
    return "";
}

TEST(FspecialPlan, AverageDefaultIs3x3) {
    const FspecialPlan p = plan_of("average");
    EXPECT_EQ(p.type, FspecialType::Average);
    EXPECT_EQ(p.hsize_rows, 3);
    EXPECT_EQ(p.hsize_cols, 3);
    expect_filter(p, 3, 3, std::vector<double>(9, 1.0 / 9));
}

TEST(FspecialPlan, AverageScalarAndPairHsize) {
    PlanCall scalar("ipt.fspecial");
    scalar.text("type", "average").floats("hsize", {1});
    expect_filter(plan_of(scalar), 1, 1, {1.0});

    PlanCall pair("ipt.fspecial");
    pair.text("type", "average").floats("hsize", {2, 4});  // even and unequal sides
    const FspecialPlan p = plan_of(pair);
    EXPECT_EQ(p.hsize_rows, 2);
    EXPECT_EQ(p.hsize_cols, 4);
    expect_filter(p, 2, 4, std::vector<double>(8, 1.0 / 8));

    PlanCall row("ipt.fspecial");
    row.text("type", "average").floats("hsize", {1, 5});
    expect_filter(plan_of(row), 1, 5, std::vector<double>(5, 0.2));
}

TEST(FspecialPlan, GaussianDefaultIs3x3Sigma05) {
    const FspecialPlan p = plan_of("gaussian");
    EXPECT_EQ(p.hsize_rows, 3);
    EXPECT_DOUBLE_EQ(p.sigma, 0.5);
    // exp(-(x^2+y^2)/(2*0.25)): centre 1, edges e^-2, corners e^-4.
    const double e = std::exp(-2.0), c = std::exp(-4.0), s = 1 + 4 * e + 4 * c;
    expect_filter(p, 3, 3, {c / s, e / s, c / s, e / s, 1 / s, e / s, c / s, e / s, c / s});
}

TEST(FspecialPlan, GaussianEvenSizeAndSigma) {
    PlanCall call("ipt.fspecial");
    call.text("type", "gaussian").floats("hsize", {1, 2}).number("sigma", 1);
    // x = -0.5, 0.5: two equal taps.
    expect_filter(plan_of(call), 1, 2, {0.5, 0.5});
}

TEST(FspecialPlan, LogDefaultIs5x5AndSumsToZero) {
    const FspecialPlan p = plan_of("log");
    EXPECT_EQ(p.hsize_rows, 5);
    EXPECT_EQ(p.hsize_cols, 5);
    EXPECT_DOUBLE_EQ(p.sigma, 0.5);
    ASSERT_EQ(p.h.h.size(), 25u);
    EXPECT_NEAR(sum(p), 0, 1e-12);
    // Symmetric, and most negative in the centre.
    for (int64_t r = 0; r < 5; ++r)
        for (int64_t c = 0; c < 5; ++c) {
            EXPECT_DOUBLE_EQ(p.h.at(r, c), p.h.at(4 - r, 4 - c));
            EXPECT_DOUBLE_EQ(p.h.at(r, c), p.h.at(c, r));
            EXPECT_LE(p.h.at(2, 2), p.h.at(r, c));
        }
}

TEST(FspecialPlan, LaplacianAndUnsharpDefaultAlpha) {
    // MATLAB's documentation: alpha 0.2 gives a = 1/6, b = 2/3, centre -10/3.
    const FspecialPlan lap = plan_of("laplacian");
    EXPECT_DOUBLE_EQ(lap.alpha, 0.2);
    const double a = 1.0 / 6, b = 2.0 / 3, c = -10.0 / 3;
    expect_filter(lap, 3, 3, {a, b, a, b, c, b, a, b, a}, 1e-15);
    const FspecialPlan un = plan_of("unsharp");
    expect_filter(un, 3, 3, {-a, -b, -a, -b, 1 - c, -b, -a, -b, -a}, 1e-15);
}

TEST(FspecialPlan, LaplacianAlphaBounds) {
    PlanCall zero("ipt.fspecial");
    zero.text("type", "laplacian").number("alpha", 0);
    expect_filter(plan_of(zero), 3, 3, {0, 1, 0, 1, -4, 1, 0, 1, 0});
    PlanCall one("ipt.fspecial");
    one.text("type", "laplacian").number("alpha", 1);
    expect_filter(plan_of(one), 3, 3, {0.5, 0, 0.5, 0, -2, 0, 0.5, 0, 0.5});
}

TEST(FspecialPlan, SobelAndPrewitt) {
    expect_filter(plan_of("sobel"), 3, 3, {1, 2, 1, 0, 0, 0, -1, -2, -1}, 0);
    expect_filter(plan_of("prewitt"), 3, 3, {1, 1, 1, 0, 0, 0, -1, -1, -1}, 0);
}

TEST(FspecialPlan, DiskDefaultRadius5) {
    const FspecialPlan p = plan_of("disk");
    EXPECT_DOUBLE_EQ(p.radius, 5);
    // 2*ceil(5-0.5)+1 = 11.
    EXPECT_EQ(p.h.rows, 11);
    EXPECT_EQ(p.h.cols, 11);
    EXPECT_NEAR(sum(p), 1, 1e-14);
    EXPECT_NEAR(p.h.at(5, 5), 1 / (M_PI * 25), 1e-15);  // inside: 1/(pi r^2)
    EXPECT_EQ(p.h.at(0, 0), 0.0);                        // corner outside the circle
}

TEST(FspecialPlan, DiskSmallRadii) {
    PlanCall half("ipt.fspecial");
    half.text("type", "disk").number("radius", 0.5);  // ceil(0) = 0: one pixel
    expect_filter(plan_of(half), 1, 1, {1.0});
    PlanCall small("ipt.fspecial");
    small.text("type", "disk").number("radius", 0.6);  // ceil(0.1) = 1: 3x3
    EXPECT_EQ(plan_of(small).h.rows, 3);
}

TEST(FspecialPlan, MotionDefaultIs1x9) {
    const FspecialPlan p = plan_of("motion");
    EXPECT_DOUBLE_EQ(p.len, 9);
    EXPECT_DOUBLE_EQ(p.theta, 0);
    expect_filter(p, 1, 9, std::vector<double>(9, 1.0 / 9), 1e-15);
}

TEST(FspecialPlan, MotionVertical) {
    PlanCall call("ipt.fspecial");
    call.text("type", "motion").number("len", 3).number("theta", 90);
    expect_filter(plan_of(call), 3, 1, {1.0 / 3, 1.0 / 3, 1.0 / 3}, 1e-15);
}

TEST(FspecialPlan, ParameterNotTakenByTheTypeIsNamed) {
    PlanCall sigma("ipt.fspecial");
    sigma.text("type", "average").number("sigma", 1);
    const std::string m = invalid_message(sigma);
    EXPECT_NE(m.find("ipt.fspecial"), std::string::npos) << m;
    EXPECT_NE(m.find("'sigma'"), std::string::npos) << m;

    PlanCall hsize("ipt.fspecial");
    hsize.text("type", "sobel").floats("hsize", {3});
    EXPECT_NE(invalid_message(hsize).find("'hsize'"), std::string::npos);

    PlanCall theta("ipt.fspecial");
    theta.text("type", "disk").number("theta", 10);
    EXPECT_NE(invalid_message(theta).find("'theta'"), std::string::npos);
}

TEST(FspecialPlan, ZeroRadiusIsInvalid) {
    PlanCall call("ipt.fspecial");
    call.text("type", "disk").number("radius", 0);
    EXPECT_NE(invalid_message(call).find("'radius'"), std::string::npos);
}

TEST(FspecialPlan, UnknownTypeIsInvalid) {
    PlanCall call("ipt.fspecial");
    call.text("type", "box");
    EXPECT_NE(invalid_message(call).find("'type'"), std::string::npos);
}

}  // namespace
