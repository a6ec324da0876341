// SPDX-License-Identifier: Apache-2.0
// ipt.mat2gray's front-end: the output is double of A's size, the limits'
// scale (equal limits keep A's values, reversed limits invert), the default
// limits from a reduction's result, and the clipping with NaN -> 1, each
// computed by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "common/ops/mat2gray.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::Mat2grayPlan;
using ipt::frontend::mat2gray_default_scale;
using ipt::frontend::mat2gray_scale;
using ipt::frontend::mat2gray_value;
using ipt::frontend::plan_mat2gray;
using ipt::test::PlanCall;

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(Mat2grayPlan, SizesAndLimits) {
    PlanCall call("ipt.mat2gray");
    call.image("A", IPT_INT16, 17, 23, 3);
    const Mat2grayPlan p = plan_mat2gray(call.args());
    EXPECT_EQ(p.dtype, IPT_INT16);
    EXPECT_EQ(p.numel, 17 * 23 * 3);
    EXPECT_FALSE(p.limits_given);

    PlanCall given("ipt.mat2gray");
    given.image("A", IPT_LOGICAL, 1, 1).floats("limits", {-2, 6});
    const Mat2grayPlan q = plan_mat2gray(given.args());
    EXPECT_TRUE(q.limits_given);
    EXPECT_FALSE(q.scale.constant);
    EXPECT_EQ(q.scale.delta, 0.125);
    EXPECT_EQ(q.scale.offset, 0.25);

    PlanCall empty("ipt.mat2gray");
    empty.image("A", IPT_DOUBLE, 0, 4);
    EXPECT_EQ(plan_mat2gray(empty.args()).numel, 0);
}

TEST(Mat2grayPlan, ScaleAndClip) {
    const auto s = mat2gray_scale(-2, 6);  // delta 1/8, offset 1/4
    EXPECT_EQ(mat2gray_value(-2, s), 0.0);
    EXPECT_EQ(mat2gray_value(2, s), 0.5);
    EXPECT_EQ(mat2gray_value(6, s), 1.0);
    EXPECT_EQ(mat2gray_value(-10, s), 0.0);
    EXPECT_EQ(mat2gray_value(100, s), 1.0);
    EXPECT_EQ(mat2gray_value(std::nan(""), s), 1.0);  // min(NaN,1) = 1, then max(0,1)
    EXPECT_EQ(mat2gray_value(-kInf, s), 0.0);
    // Reversed limits invert.
    const auto r = mat2gray_scale(4, 0);  // delta -1/4, offset 1
    EXPECT_EQ(mat2gray_value(1, r), 0.75);
    EXPECT_EQ(mat2gray_value(5, r), 0.0);
}

TEST(Mat2grayPlan, EqualLimitsKeepTheValuesClipped) {
    const auto s = mat2gray_scale(2, 2);
    EXPECT_TRUE(s.constant);
    EXPECT_EQ(mat2gray_value(0.5, s), 0.5);
    EXPECT_EQ(mat2gray_value(0.9, s), 0.9);
    EXPECT_EQ(mat2gray_value(5, s), 1.0);
    EXPECT_EQ(mat2gray_value(-2, s), 0.0);
}

TEST(Mat2grayPlan, DefaultLimitsFromAReduction) {
    const auto s = mat2gray_default_scale(0, 4);
    EXPECT_EQ(s.delta, 0.25);
    EXPECT_EQ(s.offset, 0.0);
    // Nothing but NaN: the reduction's identities (+Inf, -Inf) mean NaN
    // limits, so every element is NaN before the clip and 1 after.
    const auto none = mat2gray_default_scale(kInf, -kInf);
    EXPECT_FALSE(none.constant);
    EXPECT_TRUE(std::isnan(none.delta));
    EXPECT_EQ(mat2gray_value(3, none), 1.0);
    // An infinite limit: delta 0, so finite elements give 0 and infinite ones NaN -> 1.
    const auto inf = mat2gray_default_scale(0, kInf);
    EXPECT_EQ(mat2gray_value(3, inf), 0.0);
    EXPECT_EQ(mat2gray_value(kInf, inf), 1.0);
}

}  // namespace
