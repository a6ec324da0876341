// SPDX-License-Identifier: Apache-2.0
// ipt.imgradientxy's and ipt.imgradient's front-ends: output classes (single
// for single I, double otherwise; roberts' direction double), the method
// named, sizes kept, and the stencils at the borders written out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "common/ops/imgradient.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::GradientMethod;
using ipt::test::PlanCall;

TEST(ImgradientxyPlan, ClassesSizesMethods) {
    for (int32_t d : {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_UINT32, IPT_SINGLE, IPT_DOUBLE}) {
        PlanCall call("ipt.imgradientxy");
        call.image("I", d, 7, 3);
        const auto p = ipt::frontend::plan_imgradientxy(call.args());
        EXPECT_EQ(p.out_dtype, d == IPT_SINGLE ? IPT_SINGLE : IPT_DOUBLE);
        EXPECT_EQ(p.rows, 7);
        EXPECT_EQ(p.cols, 3);
        EXPECT_EQ(p.method, GradientMethod::Sobel);
    }
    const std::pair<const char*, GradientMethod> names[] = {{"sobel", GradientMethod::Sobel},
                                                           {"prewitt", GradientMethod::Prewitt},
                                                           {"central", GradientMethod::Central},
                                                           {"intermediate", GradientMethod::Intermediate}};
    for (const auto& [name, m] : names) {
        PlanCall call("ipt.imgradientxy");
        call.image("I", IPT_UINT8, 0, 5).text("method", name);
        const auto p = ipt::frontend::plan_imgradientxy(call.args());
        EXPECT_EQ(p.method, m);
        EXPECT_EQ(p.numel, 0);
    }
}

TEST(ImgradientPlan, RobertsDirectionIsDouble) {
    PlanCall single("ipt.imgradient");
    single.image("I", IPT_SINGLE, 1, 1);
    auto p = ipt::frontend::plan_imgradient(single.args());
    EXPECT_EQ(p.mag_dtype, IPT_SINGLE);
    EXPECT_EQ(p.dir_dtype, IPT_SINGLE);
    PlanCall roberts("ipt.imgradient");
    roberts.image("I", IPT_SINGLE, 4, 1).text("method", "roberts");
    p = ipt::frontend::plan_imgradient(roberts.args());
    EXPECT_EQ(p.xy.method, GradientMethod::Roberts);
    EXPECT_EQ(p.mag_dtype, IPT_SINGLE);
    EXPECT_EQ(p.dir_dtype, IPT_DOUBLE);
    PlanCall u8("ipt.imgradient");
    u8.image("I", IPT_UINT8, 4, 1).text("method", "roberts");
    EXPECT_EQ(ipt::frontend::plan_imgradient(u8.args()).mag_dtype, IPT_DOUBLE);
}

// The 2 x 3 image [1 2 4; 8 16 32] at each pixel, by hand.
TEST(GradientStencil, BordersByHand) {
    const double I[] = {1, 2, 4, 8, 16, 32};
    auto at = [&](GradientMethod m, int r, int c) {
        double gx, gy;
        ipt::frontend::gradient_xy<double>(I, 2, 3, r, c, m, gx, gy);
        return std::pair{gx, gy};
    };
    // Sobel at (0,0): rows 0,0,1 and columns 0,0,1 after replication.
    // Gx = (2-1) + 2(2-1) + (16-8) = 11; Gy = (8-1) + 2(8-1) + (16-2) = 35.
    EXPECT_EQ(at(GradientMethod::Sobel, 0, 0), (std::pair{11.0, 35.0}));
    // Prewitt at (1,1): Gx = (4-1) + (32-8) + (32-8) = 51; Gy = 7 + 14 + 28 = 49.
    EXPECT_EQ(at(GradientMethod::Prewitt, 1, 1), (std::pair{51.0, 49.0}));
    // Central: one-sided at the ends, halved inside; a 2-row image has no inside.
    EXPECT_EQ(at(GradientMethod::Central, 0, 1), (std::pair{1.5, 14.0}));
    EXPECT_EQ(at(GradientMethod::Central, 1, 2), (std::pair{16.0, 28.0}));
    // Intermediate: forward differences, 0 in the last column and row.
    EXPECT_EQ(at(GradientMethod::Intermediate, 0, 2), (std::pair{0.0, 28.0}));
    EXPECT_EQ(at(GradientMethod::Intermediate, 1, 0), (std::pair{8.0, 0.0}));
    // Roberts: I(r,c) - I(r+1,c+1) and I(r,c+1) - I(r+1,c), replicated.
    EXPECT_EQ(at(GradientMethod::Roberts, 0, 0), (std::pair{1.0 - 16.0, 2.0 - 8.0}));
    EXPECT_EQ(at(GradientMethod::Roberts, 1, 2), (std::pair{0.0, 0.0}));
}

TEST(GradientDirection, RulesByHand) {
    using ipt::frontend::gradient_direction;
    using ipt::frontend::roberts_direction;
    EXPECT_EQ(gradient_direction(1.0, 0.0), 0.0);
    EXPECT_DOUBLE_EQ(gradient_direction(0.0, 1.0), -90.0);
    EXPECT_DOUBLE_EQ(gradient_direction(-1.0, 0.0), -180.0);   // atan2(-0, -1)
    EXPECT_DOUBLE_EQ(gradient_direction(-1.0, -0.0), 180.0);   // atan2(+0, -1)
    EXPECT_DOUBLE_EQ(gradient_direction(1.0f, -1.0f), 45.0f);
    EXPECT_EQ(roberts_direction(0.0, 0.0), 0.0);
    EXPECT_DOUBLE_EQ(roberts_direction(1.0, 0.0), 135.0);
    EXPECT_DOUBLE_EQ(roberts_direction(0.0, 1.0), 45.0);
    EXPECT_DOUBLE_EQ(roberts_direction(-1.0, 0.0), -45.0);
    EXPECT_DOUBLE_EQ(roberts_direction(1.0, -1.0), -180.0);
    EXPECT_DOUBLE_EQ(roberts_direction(0.0, -1.0), -135.0);
    EXPECT_DOUBLE_EQ(ipt::frontend::gradient_magnitude(3.0f, -4.0f), 5.0f);
    EXPECT_EQ(ipt::frontend::gradient_magnitude(INFINITY, NAN), INFINITY);
    EXPECT_EQ(ipt::frontend::gradient_magnitude(double(NAN), double(INFINITY)), double(INFINITY));
}

}  // namespace
