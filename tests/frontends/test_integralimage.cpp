// SPDX-License-Identifier: Apache-2.0
// ipt.integralImage's front-end: output sizes of both orientations, empty
// images included.
#include <gtest/gtest.h>

#include "common/ops/integralimage.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::IntegralImagePlan;
using ipt::frontend::plan_integralimage;
using ipt::test::PlanCall;

IntegralImagePlan plan_of(int64_t rows, int64_t cols, const char* orientation = nullptr, int64_t channels = 1) {
    PlanCall call("ipt.integralimage");
    call.image("I", IPT_UINT8, rows, cols, channels);
    if (orientation) call.text("orientation", orientation);
    return plan_integralimage(call.args());
}

TEST(IntegralImagePlan, UprightIsOneLargerEachWay) {
    const IntegralImagePlan p = plan_of(5, 7, nullptr, 3);
    EXPECT_FALSE(p.rotated);
    EXPECT_EQ(p.out_rows, 6);
    EXPECT_EQ(p.out_cols, 8);
    EXPECT_EQ(p.channels, 3);
    EXPECT_EQ(plan_of(1, 1).out_rows, 2);
    EXPECT_EQ(plan_of(1, 9).out_cols, 10);
}

TEST(IntegralImagePlan, RotatedIsOneRowAndTwoColumnsLarger) {
    const IntegralImagePlan p = plan_of(5, 7, "rotated");
    EXPECT_TRUE(p.rotated);
    EXPECT_EQ(p.out_rows, 6);
    EXPECT_EQ(p.out_cols, 9);
}

TEST(IntegralImagePlan, EmptyImages) {
    IntegralImagePlan p = plan_of(0, 4);
    EXPECT_EQ(p.out_rows, 1);  // zeros(size(I)+1)
    EXPECT_EQ(p.out_cols, 5);
    p = plan_of(3, 0, "rotated");
    EXPECT_EQ(p.out_rows, 0);  // []
    EXPECT_EQ(p.out_cols, 0);
}

}  // namespace
