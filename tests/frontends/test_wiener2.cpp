// SPDX-License-Identifier: Apache-2.0
// ipt.wiener2's front-end: J keeps I's class and size, the window's default
// [3 3] and its offsets for odd and even sizes (filter2's 'same' centre), and
// the noise when given; the shared arithmetic of one pixel.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "common/ops/wiener2.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::plan_wiener2;
using ipt::frontend::Wiener2Plan;
using ipt::test::PlanCall;

TEST(Wiener2Plan, DefaultWindowAndClass) {
    for (int32_t d : {IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_SINGLE, IPT_DOUBLE}) {
        PlanCall call("ipt.wiener2");
        call.image("I", d, 5, 7);
        const Wiener2Plan p = plan_wiener2(call.args());
        EXPECT_EQ(p.dtype, d);
        EXPECT_EQ(p.rows, 5);
        EXPECT_EQ(p.cols, 7);
        EXPECT_EQ(p.m, 3);
        EXPECT_EQ(p.n, 3);
        EXPECT_EQ(p.top, 1);
        EXPECT_EQ(p.left, 1);
        EXPECT_EQ(p.count, 9);
        EXPECT_FALSE(p.noise_given);
    }
}

// conv2's 'same' keeps rows floor(m/2)+1.. of the full result: a window of
// 2 covers the pixel and the next, of 4 one before and two after.
TEST(Wiener2Plan, EvenWindowsReachForward) {
    PlanCall call("ipt.wiener2");
    call.image("I", IPT_DOUBLE, 1, 1).floats("size", {2, 4}).number("noise", 0.5);
    const Wiener2Plan p = plan_wiener2(call.args());
    EXPECT_EQ(p.top, 0);
    EXPECT_EQ(p.left, 1);
    EXPECT_EQ(p.count, 8);
    EXPECT_TRUE(p.noise_given);
    EXPECT_EQ(p.noise, 0.5);
}

TEST(Wiener2Plan, MaxIgnoresNaNAndValueFollowsTheFormula) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(ipt::frontend::wiener2_max(nan, 2), 2);
    EXPECT_EQ(ipt::frontend::wiener2_max(3, nan), 3);
    EXPECT_EQ(ipt::frontend::wiener2_max(-1, 0), 0);
    // g = 1, mu = 0.5, var = 0.5, noise = 0.25: (0.5 / 0.5) * 0.25 + 0.5.
    EXPECT_EQ(ipt::frontend::wiener2_value(1, 0.5, 0.5, 0.25), 0.75);
    // var below the noise: J = mu.
    EXPECT_EQ(ipt::frontend::wiener2_value(1, 0.5, 0.1, 0.25), 0.5);
}

}  // namespace
