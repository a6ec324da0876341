// SPDX-License-Identifier: Apache-2.0
// ipt.rgb2gray's front-end: I is m x n of RGB's class, the weights are
// MathWorks' published ones, and one plane is refused.
#include <gtest/gtest.h>

#include <string>

#include "common/ops/rgb2gray.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::plan_rgb2gray;
using ipt::frontend::rgb2gray_value;
using ipt::frontend::Rgb2grayPlan;
using ipt::test::PlanCall;

TEST(Rgb2grayPlan, PlaneOfTheInputClass) {
    for (int32_t d : {IPT_UINT8, IPT_UINT16, IPT_SINGLE, IPT_DOUBLE}) {
        PlanCall call("ipt.rgb2gray");
        call.image("RGB", d, 17, 23, 3);
        const Rgb2grayPlan p = plan_rgb2gray(call.args());
        EXPECT_EQ(p.dtype, d);
        EXPECT_EQ(p.rows, 17);
        EXPECT_EQ(p.cols, 23);
        EXPECT_EQ(p.plane, 17 * 23);
    }
    PlanCall empty("ipt.rgb2gray");
    empty.image("RGB", IPT_UINT8, 0, 5, 3);
    EXPECT_EQ(plan_rgb2gray(empty.args()).plane, 0);
}

TEST(Rgb2grayPlan, Weights) {
    EXPECT_EQ(rgb2gray_value(1, 0, 0), 0.298936021293775);
    EXPECT_EQ(rgb2gray_value(0, 1, 0), 0.587043074451121);
    EXPECT_EQ(rgb2gray_value(0, 0, 1), 0.114020904255103);
    // Summed left to right: (0.298936021293775 + 0.587043074451121) + 0.114020904255103.
    EXPECT_EQ(rgb2gray_value(1, 1, 1), (0.298936021293775 + 0.587043074451121) + 0.114020904255103);
}

TEST(Rgb2grayPlan, OnePlaneIsRefused) {
    PlanCall call("ipt.rgb2gray");
    call.image("RGB", IPT_UINT8, 4, 5, 1);
    try {
        plan_rgb2gray(call.args());
        ADD_FAILURE() << "no error";
    } catch (const ipt::plugin::Error& e) {
        EXPECT_EQ(e.status, IPT_ERR_INVALID_ARGUMENT);
        EXPECT_NE(e.message.find("'RGB'"), std::string::npos) << e.message;
    }
}

}  // namespace
