// SPDX-License-Identifier: Apache-2.0
// ipt.radon's front-end: output sizes from MATLAB's documented formula
// 2*ceil(norm(size(I)-floor((size(I)-1)/2)-1))+3, worked by hand per size,
// the image centre floor((size+1)/2), xp, theta's default 0:179 and radonc's
// degree constant.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "common/ops/radon.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::plan_radon;
using ipt::frontend::RadonPlan;
using ipt::test::PlanCall;

RadonPlan plan_for(int64_t rows, int64_t cols, int32_t dtype = IPT_DOUBLE) {
    PlanCall call("ipt.radon");
    call.image("I", dtype, rows, cols);
    return plan_radon(call.args());
}

struct SizeCase {
    int64_t rows, cols;
    int64_t bins;            // from the formula, by hand (see each line)
    int64_t y_origin, x_origin;  // 0-based: floor((size+1)/2) - 1
};

TEST(RadonPlan, OutputRowsFollowMatlabsFormula) {
    const SizeCase cases[] = {
        {1, 1, 3, 0, 0},         // [1 1]-[0 0]-1 = [0 0]: norm 0, 2*0+3
        {2, 2, 7, 0, 0},         // [2 2]-[0 0]-1 = [1 1]: ceil(1.414) = 2, 7
        {1, 5, 7, 0, 2},         // [1 5]-[0 2]-1 = [0 2]: 2, 7
        {5, 1, 7, 2, 0},         // transposed
        {4, 6, 11, 1, 2},        // [4 6]-[1 2]-1 = [2 3]: ceil(3.606) = 4, 11
        {17, 23, 31, 8, 11},     // [17 23]-[8 11]-1 = [8 11]: ceil(13.60) = 14, 31
        {64, 63, 93, 31, 31},    // [64 63]-[31 31]-1 = [32 31]: ceil(44.55) = 45, 93
        {256, 256, 367, 127, 127},  // [128 128]: ceil(181.02) = 182, 367 (the phantom's 367 rows)
    };
    for (const SizeCase& c : cases) {
        const RadonPlan p = plan_for(c.rows, c.cols);
        EXPECT_EQ(p.bins, c.bins) << c.rows << "x" << c.cols;
        EXPECT_EQ(p.r_last, (c.bins - 1) / 2) << c.rows << "x" << c.cols;
        EXPECT_EQ(p.r_first, -(c.bins - 1) / 2) << c.rows << "x" << c.cols;
        EXPECT_EQ(p.y_origin, c.y_origin) << c.rows << "x" << c.cols;
        EXPECT_EQ(p.x_origin, c.x_origin) << c.rows << "x" << c.cols;
    }
}

TEST(RadonPlan, OddSquare) {
    // 3x3: floor((3-1)/2) = 1, [3 3]-[1 1]-1 = [1 1], ceil(sqrt 2) = 2: 7 rows, centre (2,2) 1-based.
    const RadonPlan p = plan_for(3, 3);
    EXPECT_EQ(p.bins, 7);
    EXPECT_EQ(p.x_origin, 1);
    EXPECT_EQ(p.y_origin, 1);
}

TEST(RadonPlan, EmptyImages) {
    // size 0: floor(-1/2) = -1, 0-(-1)-1 = 0 along that side.
    const RadonPlan p = plan_for(0, 0);
    EXPECT_EQ(p.bins, 3);
    EXPECT_EQ(p.x_origin, -1);
    EXPECT_EQ(p.y_origin, -1);
    // 0x5: [0 5]-[-1 2]-1 = [0 2]: 7 rows.
    EXPECT_EQ(plan_for(0, 5).bins, 7);
    EXPECT_EQ(plan_for(5, 0).bins, 7);
}

TEST(RadonPlan, ThetaDefaultsTo0To179) {
    PlanCall call("ipt.radon");  // alive while the plan points at its theta
    call.image("I", IPT_DOUBLE, 2, 2);
    const RadonPlan p = plan_radon(call.args());
    ASSERT_EQ(p.angles, 180);
    for (int64_t k = 0; k < 180; ++k) EXPECT_EQ(p.theta[k], static_cast<double>(k));
    EXPECT_EQ(p.cos_theta[0], 1.0);
    EXPECT_EQ(p.sin_theta[0], 0.0);
    // radonc's constant 3.14159265358979 is about 3.2e-15 below pi, so
    // 90 degrees falls 1.6e-15 short of pi/2: cos is 1.6e-15, not 6e-17.
    const double short_by = (M_PI - 3.14159265358979) / 2;
    EXPECT_NEAR(p.cos_theta[90], short_by, 2e-16);
    EXPECT_GT(p.cos_theta[90], 1e-15);
    EXPECT_EQ(p.sin_theta[90], 1.0);
}

TEST(RadonPlan, GivenAnglesInOrder) {
    PlanCall call("ipt.radon");
    call.image("I", IPT_UINT8, 1, 4).floats("theta", {30, -45, 360.5});
    const RadonPlan p = plan_radon(call.args());
    ASSERT_EQ(p.angles, 3);
    const double k = 3.14159265358979 / 180.0;
    EXPECT_EQ(p.cos_theta[0], std::cos(30 * k));
    EXPECT_EQ(p.sin_theta[1], std::sin(-45 * k));
    EXPECT_EQ(p.cos_theta[2], std::cos(360.5 * k));
    // 1x4: [1 4]-[0 1]-1 = [0 2]: 7 rows; centre column floor(5/2) = 2 (1-based).
    EXPECT_EQ(p.bins, 7);
    EXPECT_EQ(p.x_origin, 1);
}

TEST(RadonPlan, XpIsTheRadialCoordinatesWhenWanted) {
    const RadonPlan p = plan_for(2, 2);
    ASSERT_TRUE(p.want_xp);
    EXPECT_EQ(p.xp, (std::vector<double>{-3, -2, -1, 0, 1, 2, 3}));

    PlanCall call("ipt.radon");
    call.image("I", IPT_DOUBLE, 2, 2).want("xp", false);
    const RadonPlan q = plan_radon(call.args());
    EXPECT_FALSE(q.want_xp);
    EXPECT_TRUE(q.xp.empty());
    EXPECT_EQ(q.bins, 7);
}

TEST(RadonPlan, EveryClassHasTheSameGeometry) {
    for (int32_t dt : {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_SINGLE, IPT_DOUBLE}) {
        const RadonPlan p = plan_for(17, 23, dt);
        EXPECT_EQ(p.bins, 31) << dt;
        EXPECT_EQ(p.angles, 180) << dt;
    }
}

}  // namespace
