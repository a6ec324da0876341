// SPDX-License-Identifier: Apache-2.0
// ipt.imcomplement's front-end: J keeps I's class and size, and the rule per
// class on its extreme values, written out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "common/ops/imcomplement.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::imcomplement_value;
using ipt::frontend::ImcomplementPlan;
using ipt::frontend::plan_imcomplement;
using ipt::test::PlanCall;

ImcomplementPlan plan_of(int32_t dtype, int64_t rows, int64_t cols, int64_t channels = 1) {
    PlanCall call("ipt.imcomplement");
    call.image("I", dtype, rows, cols, channels);
    return plan_imcomplement(call.args());
}

TEST(ImcomplementPlan, KeepsClassAndSize) {
    for (int32_t d : {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_UINT32, IPT_SINGLE, IPT_DOUBLE}) {
        const ImcomplementPlan p = plan_of(d, 17, 23, 3);
        EXPECT_EQ(p.dtype, d);
        EXPECT_EQ(p.rows, 17);
        EXPECT_EQ(p.cols, 23);
        EXPECT_EQ(p.channels, 3);
        EXPECT_EQ(p.numel, 17 * 23 * 3);
    }
    EXPECT_EQ(plan_of(IPT_UINT8, 1, 1).numel, 1);
    EXPECT_EQ(plan_of(IPT_UINT8, 1, 37).numel, 37);
    EXPECT_EQ(plan_of(IPT_UINT8, 41, 1).numel, 41);
    EXPECT_EQ(plan_of(IPT_DOUBLE, 0, 4).numel, 0);
}

TEST(ImcomplementPlan, RulePerClass) {
    EXPECT_EQ(imcomplement_value(true), false);
    EXPECT_EQ(imcomplement_value(false), true);
    EXPECT_EQ(imcomplement_value(uint8_t{0}), 255);
    EXPECT_EQ(imcomplement_value(uint8_t{200}), 55);
    EXPECT_EQ(imcomplement_value(uint16_t{1}), 65534);
    EXPECT_EQ(imcomplement_value(uint32_t{0}), 4294967295u);
    // Signed: intmin + intmax - x = -1 - x.
    EXPECT_EQ(imcomplement_value(int16_t{-32768}), 32767);
    EXPECT_EQ(imcomplement_value(int16_t{32767}), -32768);
    EXPECT_EQ(imcomplement_value(int16_t{0}), -1);
    EXPECT_EQ(imcomplement_value(int32_t{-2147483647 - 1}), 2147483647);
    EXPECT_EQ(imcomplement_value(int32_t{100}), -101);
    // Floating: 1 - x, no clipping.
    EXPECT_EQ(imcomplement_value(0.25), 0.75);
    EXPECT_EQ(imcomplement_value(3.0), -2.0);
    EXPECT_EQ(imcomplement_value(0.1f), 1.0f - 0.1f);
    EXPECT_TRUE(std::isnan(imcomplement_value(std::numeric_limits<double>::quiet_NaN())));
}

}  // namespace
