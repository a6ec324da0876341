// SPDX-License-Identifier: Apache-2.0
// ipt.adaptthresh's front-end: the scale from sensitivity and polarity, the
// default and given windows and their box plan, the conversion to [0,1] per
// class, the clip, and the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "common/ops/adaptthresh.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::AdaptthreshPlan;
using ipt::frontend::plan_adaptthresh;
using ipt::test::PlanCall;

TEST(AdaptthreshPlan, DefaultWindowAndScale) {
    PlanCall call("ipt.adaptthresh");
    call.image("I", IPT_UINT8, 100, 33);
    const AdaptthreshPlan p = plan_adaptthresh(call.args());
    EXPECT_EQ(p.box.fr, 13);  // 2*floor(100/16)+1
    EXPECT_EQ(p.box.fc, 5);   // 2*floor(33/16)+1
    EXPECT_EQ(p.scale, 0.6 + (1 - 0.5));
    EXPECT_EQ(p.box.norm, p.scale / 65);
    EXPECT_EQ(p.box.top, 6);
    EXPECT_EQ(p.box.left, 2);
    EXPECT_EQ(p.box.padded_rows, 112);
    EXPECT_EQ(p.box.padded_cols, 37);
}

TEST(AdaptthreshPlan, GivenWindowSensitivityAndPolarity) {
    PlanCall call("ipt.adaptthresh");
    call.image("I", IPT_DOUBLE, 10, 10).number("sensitivity", 0.2).floats("NeighborhoodSize", {3, 7}).text(
        "ForegroundPolarity", "dark");
    const AdaptthreshPlan p = plan_adaptthresh(call.args());
    EXPECT_EQ(p.box.fr, 3);
    EXPECT_EQ(p.box.fc, 7);
    EXPECT_EQ(p.scale, 0.4 + 0.2);
    PlanCall square("ipt.adaptthresh");
    square.image("I", IPT_DOUBLE, 10, 10).floats("NeighborhoodSize", {5});
    EXPECT_EQ(plan_adaptthresh(square.args()).box.fc, 5);
}

TEST(AdaptthreshPlan, UnitScaleAndClip) {
    using ipt::frontend::adaptthresh_clip;
    using ipt::frontend::adaptthresh_unit;
    EXPECT_EQ(adaptthresh_unit(uint8_t(51)), 0.2);
    EXPECT_EQ(adaptthresh_unit(int16_t(-32768)), 0.0);
    EXPECT_EQ(adaptthresh_unit(int16_t(32767)), 1.0);
    EXPECT_EQ(adaptthresh_unit(uint32_t(4294967295u)), 1.0);
    EXPECT_EQ(adaptthresh_unit(std::numeric_limits<int32_t>::min()), 0.0);
    EXPECT_EQ(adaptthresh_unit(-0.5f), -0.5);
    EXPECT_EQ(adaptthresh_clip(1.5), 1.0);
    EXPECT_EQ(adaptthresh_clip(-1.5), 0.0);
    EXPECT_EQ(adaptthresh_clip(0.25), 0.25);
    EXPECT_EQ(adaptthresh_clip(std::nan("")), 1.0);  // min(NaN, 1) is 1 in MATLAB
}

// 'median': the middle order of the window, mirrored; 'gaussian': sigma = n,
// FilterSize 2*ceil(2n)+1, replicated, the double route (49 taps or more and
// no side of 1: separable).
TEST(AdaptthreshPlan, MedianAndGaussian) {
    PlanCall med("ipt.adaptthresh");
    med.image("I", IPT_UINT8, 10, 10).floats("NeighborhoodSize", {5, 3}).text("Statistic", "median");
    const AdaptthreshPlan m = plan_adaptthresh(med.args());
    EXPECT_EQ(m.statistic, ipt::frontend::AdaptStatistic::Median);
    EXPECT_EQ(m.window_rows, 5);
    EXPECT_EQ(m.window_cols, 3);
    EXPECT_EQ(m.centre_row, 2);
    EXPECT_EQ(m.centre_col, 1);
    EXPECT_EQ(m.order, 8);
    EXPECT_EQ(m.median_pad.kind, ipt::frontend::order::Pad::Symmetric);
    PlanCall gauss("ipt.adaptthresh");
    gauss.image("I", IPT_UINT8, 10, 10).floats("NeighborhoodSize", {1, 3}).text("Statistic", "gaussian");
    const AdaptthreshPlan g = plan_adaptthresh(gauss.args());
    EXPECT_EQ(g.statistic, ipt::frontend::AdaptStatistic::Gaussian);
    EXPECT_EQ(g.gauss.kr, 5);
    EXPECT_EQ(g.gauss.kc, 13);
    EXPECT_EQ(g.gauss.sigma[0], 1.0);
    EXPECT_EQ(g.gauss.sigma[1], 3.0);
    EXPECT_TRUE(g.gauss.separable);
    EXPECT_EQ(g.gauss.hcol.size(), 5u);
    EXPECT_EQ(g.gauss.top, 2);
    EXPECT_EQ(g.gauss.left, 6);
    EXPECT_EQ(g.gauss.boundary, ipt::frontend::ImfilterBoundary::Replicate);
    PlanCall small("ipt.adaptthresh");
    small.image("I", IPT_DOUBLE, 10, 10).text("Statistic", "gaussian");  // default 1x1: 5x5 taps, direct
    const AdaptthreshPlan d = plan_adaptthresh(small.args());
    EXPECT_FALSE(d.gauss.separable);
    EXPECT_EQ(d.gauss.h.size(), 25u);
}

TEST(AdaptthreshPlan, Refusals) {
    PlanCall even("ipt.adaptthresh");
    even.image("I", IPT_UINT8, 10, 10).floats("NeighborhoodSize", {4, 3});
    try {
        plan_adaptthresh(even.args());
        ADD_FAILURE() << "no error";
    } catch (const ipt::plugin::Error& e) {
        EXPECT_EQ(e.status, IPT_ERR_INVALID_ARGUMENT);
        EXPECT_NE(e.message.find("NeighborhoodSize"), std::string::npos);
    }
    PlanCall wide("ipt.adaptthresh");
    wide.image("I", IPT_UINT8, 10, 10).floats("NeighborhoodSize", {1025, 3}).text("Statistic", "gaussian");
    try {
        plan_adaptthresh(wide.args());
        ADD_FAILURE() << "no error";
    } catch (const ipt::plugin::Error& e) {
        EXPECT_EQ(e.status, IPT_ERR_UNSUPPORTED);
    }
}

}  // namespace
