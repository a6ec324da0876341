// SPDX-License-Identifier: Apache-2.0
// ipt.mean2's front-end: the class of m (single for single A, double for
// every other class) and the count it divides by.
#include <gtest/gtest.h>

#include "common/ops/mean2.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::Mean2Plan;
using ipt::frontend::plan_mean2;
using ipt::test::PlanCall;

Mean2Plan plan_of(int32_t dtype, int64_t rows, int64_t cols, int64_t channels = 1) {
    PlanCall call("ipt.mean2");
    call.image("A", dtype, rows, cols, channels);
    return plan_mean2(call.args());
}

TEST(Mean2Plan, SingleStaysSingleEverythingElseIsDouble) {
    EXPECT_EQ(plan_of(IPT_SINGLE, 3, 4).out_dtype, IPT_SINGLE);
    for (int32_t d : {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_UINT32, IPT_DOUBLE}) {
        const Mean2Plan p = plan_of(d, 3, 4);
        EXPECT_EQ(p.out_dtype, IPT_DOUBLE) << d;
        EXPECT_EQ(p.dtype, d);
    }
}

TEST(Mean2Plan, DividesByEveryElementOfEveryChannel) {
    EXPECT_EQ(plan_of(IPT_UINT8, 1, 1).numel, 1);
    EXPECT_EQ(plan_of(IPT_UINT8, 1, 37).numel, 37);
    EXPECT_EQ(plan_of(IPT_UINT8, 41, 1).numel, 41);
    EXPECT_EQ(plan_of(IPT_DOUBLE, 17, 23, 3).numel, 17 * 23 * 3);
    // Empty: 0/0, NaN, as in MATLAB; the plan does not refuse it.
    const Mean2Plan empty = plan_of(IPT_DOUBLE, 0, 4);
    EXPECT_EQ(empty.numel, 0);
    EXPECT_EQ(empty.out_dtype, IPT_DOUBLE);
    ASSERT_NE(empty.A, nullptr);
}

}  // namespace
