// SPDX-License-Identifier: Apache-2.0
// ipt.stdfilt's front-end: output class, the default and given nhood (members
// about the centre), the odd-size rule and the all-zero case.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "common/ops/stdfilt.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::plan_stdfilt;
using ipt::frontend::StdfiltPlan;
using ipt::test::PlanCall;

TEST(StdfiltPlan, DefaultIsTrue3AndDoubleOutput) {
    PlanCall call("ipt.stdfilt");
    call.image("I", IPT_UINT8, 4, 5, 3);
    const StdfiltPlan p = plan_stdfilt(call.args());
    EXPECT_EQ(p.out_dtype, IPT_DOUBLE);
    EXPECT_EQ(p.channels, 3);
    EXPECT_EQ(p.count, 9);
    EXPECT_FALSE(p.zero);
    EXPECT_EQ(p.nhood.members.front().dr, -1);
    EXPECT_EQ(p.nhood.members.front().dc, -1);
    EXPECT_EQ(p.nhood.members.back().dr, 1);
    EXPECT_EQ(p.nhood.members.back().dc, 1);
}

TEST(StdfiltPlan, SingleStaysSingleOthersDouble) {
    for (int32_t d : {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_UINT32, IPT_SINGLE, IPT_DOUBLE}) {
        PlanCall call("ipt.stdfilt");
        call.image("I", d, 2, 2);
        EXPECT_EQ(plan_stdfilt(call.args()).out_dtype, d == IPT_SINGLE ? IPT_SINGLE : IPT_DOUBLE) << d;
    }
}

TEST(StdfiltPlan, GivenNhoodMembersAndZeroCase) {
    const std::vector<uint8_t> cross = {0, 1, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0};  // 5x3
    PlanCall call("ipt.stdfilt");
    call.image("I", IPT_DOUBLE, 6, 6).image("nhood", IPT_LOGICAL, 5, 3, 1, cross.data());
    const StdfiltPlan p = plan_stdfilt(call.args());
    ASSERT_EQ(p.count, 5);
    // Centre (3, 2) 1-based: the first member, row 1 col 2, is (-2, 0).
    EXPECT_EQ(p.nhood.members[0].dr, -2);
    EXPECT_EQ(p.nhood.members[0].dc, 0);
    const std::vector<uint8_t> one = {1};
    PlanCall single("ipt.stdfilt");
    single.image("I", IPT_DOUBLE, 6, 6).image("nhood", IPT_LOGICAL, 1, 1, 1, one.data());
    EXPECT_TRUE(plan_stdfilt(single.args()).zero);
}

TEST(StdfiltPlan, EvenNhoodRefused) {
    const std::vector<uint8_t> m(4, 1);
    PlanCall call("ipt.stdfilt");
    call.image("I", IPT_DOUBLE, 6, 6).image("nhood", IPT_LOGICAL, 1, 4, 1, m.data());
    EXPECT_THROW(plan_stdfilt(call.args()), ipt::plugin::Error);
}

}  // namespace
