// SPDX-License-Identifier: Apache-2.0
// The front-ends of ipt.imrotate, ipt.imtranslate and ipt.imwarp: output
// sizes and world limits worked by hand, the inverse matrices, fill values
// cast to the class, methods, and each error.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "common/ops/imrotate.hpp"
#include "common/ops/imtranslate.hpp"
#include "common/ops/imwarp.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::WarpInterp;
using ipt::frontend::WarpPlan;
using ipt::test::PlanCall;

WarpPlan rotate(int64_t rows, int64_t cols, double angle, const char* method = "nearest", const char* bbox = "loose") {
    PlanCall call("ipt.imrotate");
    call.image("I", IPT_UINT8, rows, cols).number("angle", angle).text("method", method).text("bbox", bbox);
    return ipt::frontend::plan_imrotate(call.args());
}

// Where output pixel (i, j) samples A (window coordinates).
void maps(const WarpPlan& p, double i, double j, double* x, double* y) {
    *x = (j * p.M[0] + i * p.M[3]) + p.M[6];
    *y = (j * p.M[1] + i * p.M[4]) + p.M[7];
    if (p.projective) {
        const double w = (j * p.M[2] + i * p.M[5]) + p.M[8];
        *x /= w;
        *y /= w;
    }
}

TEST(WarpPlan, RotateQuarterTurns) {
    WarpPlan p = rotate(2, 3, 90, "bicubic");
    EXPECT_EQ(p.interp, WarpInterp::Nearest);  // exact whatever the method
    EXPECT_EQ(p.out_rows, 3);
    EXPECT_EQ(p.out_cols, 2);
    double x, y;
    maps(p, 1, 1, &x, &y);  // rot90: J(1, 1) = I(1, 3)
    EXPECT_EQ(x, 3);
    EXPECT_EQ(y, 1);
    p = rotate(2, 4, 90, "nearest", "crop");
    EXPECT_EQ(p.out_rows, 2);
    EXPECT_EQ(p.out_cols, 4);
    EXPECT_EQ(p.col0, 1);
    EXPECT_EQ(p.win_cols, 2);
    EXPECT_EQ(p.win_rows, 2);
    p = rotate(5, 3, -180);
    EXPECT_EQ(p.out_rows, 5);
    EXPECT_EQ(p.out_cols, 3);
}

TEST(WarpPlan, RotateLooseAndCrop) {
    // The loose view holds the rotated corners.
    WarpPlan p = rotate(10, 20, 30, "bilinear");
    EXPECT_EQ(p.interp, WarpInterp::Linear);
    // 20 cos 30 + 10 sin 30 = 22.32 -> 23; 20 sin 30 + 10 cos 30 = 18.66 -> 19.
    EXPECT_EQ(p.out_cols, 23);
    EXPECT_EQ(p.out_rows, 19);
    // The view's centre is the rotated centre of I, (10.5, 5.5) -> (x cos + y sin, -x sin + y cos).
    const double c = std::cos(M_PI / 6), s = std::sin(M_PI / 6);
    EXPECT_NEAR((p.ref[2] + p.ref[3]) / 2, 10.5 * c + 5.5 * s, 1e-12);
    EXPECT_NEAR((p.ref[4] + p.ref[5]) / 2, -10.5 * s + 5.5 * c, 1e-12);
    EXPECT_NEAR(p.ref[3] - p.ref[2], 23, 1e-12);
    // Crop: I's size, and its centre pixel maps onto itself.
    p = rotate(11, 21, 30, "bicubic", "crop");
    EXPECT_EQ(p.out_rows, 11);
    EXPECT_EQ(p.out_cols, 21);
    EXPECT_EQ(p.interp, WarpInterp::Cubic);
    double x, y;
    maps(p, 6, 11, &x, &y);
    EXPECT_NEAR(x, 11, 1e-12);
    EXPECT_NEAR(y, 6, 1e-12);
    // Counter-clockwise on screen (y down): the pixel right of J's centre
    // comes from I's centre plus (cos 30, sin 30), below and to the right.
    maps(p, 6, 12, &x, &y);
    EXPECT_NEAR(x, 11 + c, 1e-12);
    EXPECT_NEAR(y, 6 + s, 1e-12);
}

TEST(WarpPlan, Translate) {
    PlanCall call("ipt.imtranslate");
    call.image("A", IPT_INT16, 4, 5).floats("translation", {2.5, -1}).floats("FillValues", {7.5});
    WarpPlan p = ipt::frontend::plan_imtranslate(call.args());
    EXPECT_EQ(p.interp, WarpInterp::Linear);  // the default
    EXPECT_EQ(p.out_rows, 4);
    EXPECT_EQ(p.out_cols, 5);
    EXPECT_EQ(p.fill[0], 8);  // cast to int16: round half away
    double x, y;
    maps(p, 1, 1, &x, &y);
    EXPECT_EQ(x, -1.5);
    EXPECT_EQ(y, 2);
    PlanCall full("ipt.imtranslate");
    full.image("A", IPT_UINT8, 4, 5).floats("translation", {2.5, -1}).text("OutputView", "full");
    p = ipt::frontend::plan_imtranslate(full.args());
    EXPECT_EQ(p.out_cols, 8);  // 5 + ceil(2.5)
    EXPECT_EQ(p.out_rows, 5);  // 4 + 1
    EXPECT_EQ(p.ref[2], 0.5);
    EXPECT_EQ(p.ref[4], -0.5);
    maps(p, 1, 1, &x, &y);  // world (1, 0) from (1 - 2.5, 0 + 1)
    EXPECT_EQ(x, -1.5);
    EXPECT_EQ(y, 1);
    // FillValues must match the planes.
    PlanCall bad("ipt.imtranslate");
    bad.image("A", IPT_UINT8, 4, 5).floats("translation", {1, 1}).floats("FillValues", {1, 2});
    EXPECT_THROW(ipt::frontend::plan_imtranslate(bad.args()), ipt::plugin::Error);
    PlanCall rgb("ipt.imtranslate");
    rgb.image("A", IPT_UINT8, 4, 5, 3).floats("translation", {1, 1}).floats("FillValues", {-4, 300, 2.5});
    p = ipt::frontend::plan_imtranslate(rgb.args());
    EXPECT_EQ(p.fill[0], 0);
    EXPECT_EQ(p.fill[1], 255);
    EXPECT_EQ(p.fill[2], 3);
}

TEST(WarpPlan, EdgeRules) {
    PlanCall smooth("ipt.imwarp");
    smooth.image("A", IPT_DOUBLE, 3, 4).floats("T", {1, 0, 0, 0, 1, 0, 0, 0, 1}).integer("SmoothEdges", 1);
    EXPECT_TRUE(ipt::frontend::plan_imwarp(smooth.args()).smooth_edges);
    PlanCall rotate("ipt.imrotate");
    rotate.image("I", IPT_DOUBLE, 3, 4).number("angle", 30);
    EXPECT_TRUE(ipt::frontend::plan_imrotate(rotate.args()).smooth_edges);  // imrotate pads
}

TEST(WarpPlan, WarpDefaultViewAndRB) {
    PlanCall call("ipt.imwarp");
    call.image("A", IPT_DOUBLE, 3, 4).floats("T", {2, 0, 0, 0, 2, 0, 1, -1, 1});
    WarpPlan p = ipt::frontend::plan_imwarp(call.args());
    // [0.5 4.5] x [0.5 3.5] -> x in [2, 10], y in [0, 6]: 6 rows, 8 columns.
    EXPECT_EQ(p.out_rows, 6);
    EXPECT_EQ(p.out_cols, 8);
    EXPECT_EQ(p.ref[2], 2);
    EXPECT_EQ(p.ref[3], 10);
    EXPECT_EQ(p.ref[4], 0);
    EXPECT_EQ(p.ref[5], 6);
    EXPECT_FALSE(p.projective);
    EXPECT_FALSE(p.smooth_edges);  // imwarp's SmoothEdges is false by default
    double x, y;
    maps(p, 1, 1, &x, &y);  // world (2.5, 0.5) -> ((2.5 - 1) / 2, (0.5 + 1) / 2)
    EXPECT_DOUBLE_EQ(x, 0.75);
    EXPECT_DOUBLE_EQ(y, 0.75);
    // A non-integral extent is widened evenly: 1.5 x scale of 3 columns is 4.5 -> 5.
    PlanCall odd("ipt.imwarp");
    odd.image("A", IPT_DOUBLE, 2, 3).floats("T", {1.5, 0, 0, 0, 1, 0, 0, 0, 1}).text("interp", "cubic");
    p = ipt::frontend::plan_imwarp(odd.args());
    EXPECT_EQ(p.out_cols, 5);
    EXPECT_DOUBLE_EQ(p.ref[2], 0.75 - 0.25);
    EXPECT_DOUBLE_EQ(p.ref[3], 5.25 + 0.25);
    EXPECT_EQ(p.interp, WarpInterp::Cubic);
}

TEST(WarpPlan, WarpOutputViewProjectiveAndErrors) {
    PlanCall call("ipt.imwarp");
    call.image("A", IPT_UINT8, 3, 4)
        .floats("T", {1, 0, 0.01, 0, 1, 0, 0, 0, 1})
        .floats("OutputView", {2, 4, 0, 8, 0, 4});
    WarpPlan p = ipt::frontend::plan_imwarp(call.args());
    EXPECT_TRUE(p.projective);
    EXPECT_EQ(p.out_rows, 2);
    EXPECT_EQ(p.out_cols, 4);
    double x, y;
    maps(p, 1, 1, &x, &y);  // world (1, 1): inverse of x' = x / (1 + 0.01 x)
    EXPECT_NEAR(x, 1 / (1 - 0.01), 1e-12);
    EXPECT_NEAR(y, 1 / (1 - 0.01), 1e-12);
    auto expect_invalid = [](std::vector<double> t, std::vector<double> view, const char* needle) {
        PlanCall c("ipt.imwarp");
        c.image("A", IPT_UINT8, 3, 4).floats("T", std::move(t));
        if (!view.empty()) c.floats("OutputView", std::move(view));
        try {
            ipt::frontend::plan_imwarp(c.args());
            ADD_FAILURE() << "no error";
        } catch (const ipt::plugin::Error& e) {
            EXPECT_EQ(e.status, IPT_ERR_INVALID_ARGUMENT);
            EXPECT_NE(e.message.find(needle), std::string::npos) << e.message;
        }
    };
    expect_invalid({1, 2, 0, 2, 4, 0, 0, 0, 1}, {}, "'T'");
    expect_invalid({0, 0, 0, 0, 0, 0, 0, 0, 0}, {}, "singular");
    expect_invalid({1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 4, 0, 1, 0, 1}, "OutputView");
    expect_invalid({1, 0, 0, 0, 1, 0, 0, 0, 1}, {2.5, 4, 0, 1, 0, 1}, "OutputView");
    expect_invalid({1, 0, 0, 0, 1, 0, 0, 0, 1}, {2, 4, 1, 0, 0, 1}, "OutputView");
}

}  // namespace
