// SPDX-License-Identifier: Apache-2.0
// ipt.entropyfilt's front-end: default 9x9 nhood, bins per class, the classes
// im2uint8 cannot convert and the odd-size rule.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "common/ops/entropyfilt.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::EntropyfiltPlan;
using ipt::frontend::plan_entropyfilt;
using ipt::test::PlanCall;

TEST(EntropyfiltPlan, DefaultNhoodAndBins) {
    PlanCall call("ipt.entropyfilt");
    call.image("I", IPT_UINT16, 4, 5);
    const EntropyfiltPlan p = plan_entropyfilt(call.args());
    EXPECT_EQ(p.count, 81);
    EXPECT_EQ(p.nhood.extent, 4);
    EXPECT_EQ(p.bins, 256);
    PlanCall bw("ipt.entropyfilt");
    bw.image("I", IPT_LOGICAL, 4, 5);
    EXPECT_EQ(plan_entropyfilt(bw.args()).bins, 2);
}

TEST(EntropyfiltPlan, Int32AndUint32Refused) {
    for (int32_t d : {IPT_INT32, IPT_UINT32}) {
        PlanCall call("ipt.entropyfilt");
        call.image("I", d, 4, 5);
        EXPECT_THROW(plan_entropyfilt(call.args()), ipt::plugin::Error) << d;
    }
}

TEST(EntropyfiltPlan, EvenNhoodRefused) {
    const std::vector<uint8_t> m(6, 1);
    PlanCall call("ipt.entropyfilt");
    call.image("I", IPT_UINT8, 4, 5).image("nhood", IPT_LOGICAL, 3, 2, 1, m.data());
    EXPECT_THROW(plan_entropyfilt(call.args()), ipt::plugin::Error);
}

}  // namespace
