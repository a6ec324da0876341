// SPDX-License-Identifier: Apache-2.0
// ipt.rangefilt's front-end: output classes, and the two windows (the
// maximum over imdilate's reading of the reflected nhood, the minimum over
// imerode's reading of nhood) for odd and even sizes.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "common/ops/rangefilt.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::plan_rangefilt;
using ipt::frontend::RangefiltPlan;
using ipt::test::PlanCall;

TEST(RangefiltPlan, OutputClasses) {
    const std::pair<int32_t, int32_t> classes[] = {
        {IPT_LOGICAL, IPT_LOGICAL}, {IPT_UINT8, IPT_UINT8},   {IPT_UINT16, IPT_UINT16}, {IPT_INT16, IPT_UINT16},
        {IPT_INT32, IPT_UINT32},    {IPT_UINT32, IPT_UINT32}, {IPT_SINGLE, IPT_SINGLE}, {IPT_DOUBLE, IPT_DOUBLE}};
    for (auto [in, out] : classes) {
        PlanCall call("ipt.rangefilt");
        call.image("I", in, 3, 4, 3);
        const RangefiltPlan p = plan_rangefilt(call.args());
        EXPECT_EQ(p.out_dtype, out) << in;
        EXPECT_EQ(p.max_plan.dtype, in);
        EXPECT_EQ(p.channels, 3);
    }
}

TEST(RangefiltPlan, OddNhoodBothWindowsAlike) {
    PlanCall call("ipt.rangefilt");
    call.image("I", IPT_DOUBLE, 5, 5);
    const RangefiltPlan p = plan_rangefilt(call.args());
    EXPECT_TRUE(p.max_plan.dilate);
    EXPECT_FALSE(p.min_plan.dilate);
    EXPECT_EQ(p.max_plan.offsets, p.min_plan.offsets);
    EXPECT_EQ(p.max_plan.offsets.size(), 9u);
    EXPECT_TRUE(p.max_plan.rectangle);
}

TEST(RangefiltPlan, EvenNhoodShiftsTheMaximum) {
    // [1 1]: imerode reads {0, +1}; imdilate of the reflection reads {-1, 0}.
    const std::vector<uint8_t> m = {1, 1};
    PlanCall call("ipt.rangefilt");
    call.image("I", IPT_DOUBLE, 5, 5).image("nhood", IPT_LOGICAL, 1, 2, 1, m.data());
    const RangefiltPlan p = plan_rangefilt(call.args());
    ASSERT_EQ(p.min_plan.offsets.size(), 2u);
    ASSERT_EQ(p.max_plan.offsets.size(), 2u);
    EXPECT_EQ(p.min_plan.offsets[0].dc, 0);
    EXPECT_EQ(p.min_plan.offsets[1].dc, 1);
    EXPECT_EQ(p.max_plan.offsets[0].dc, -1);
    EXPECT_EQ(p.max_plan.offsets[1].dc, 0);
}

}  // namespace
