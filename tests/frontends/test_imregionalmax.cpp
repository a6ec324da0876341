// SPDX-License-Identifier: Apache-2.0
// ipt.imregionalmax's plan (backends/common/ops/imregionalmax.hpp): the size
// and class of I, the connectivity (8 by default), for every class and the
// edge shapes.
#include <gtest/gtest.h>

#include <tuple>

#include "common/ops/imregionalmax.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::ImregionalmaxPlan;
using ipt::frontend::plan_imregionalmax;
using ipt::test::PlanCall;

TEST(ImregionalmaxPlan, DefaultConnectivityIsEight) {
    PlanCall call("ipt.imregionalmax");
    call.image("I", IPT_DOUBLE, 5, 7);
    const ImregionalmaxPlan p = plan_imregionalmax(call.args());
    EXPECT_EQ(p.conn, 8);
    EXPECT_EQ(p.dtype, IPT_DOUBLE);
    EXPECT_EQ(p.rows, 5);
    EXPECT_EQ(p.cols, 7);
}

TEST(ImregionalmaxPlan, FourConnectivity) {
    PlanCall call("ipt.imregionalmax");
    call.image("I", IPT_UINT8, 3, 3).integer("conn", 4);
    EXPECT_EQ(plan_imregionalmax(call.args()).conn, 4);
}

TEST(ImregionalmaxPlan, EdgeShapesKeepTheirSize) {
    for (auto [rows, cols] : {std::tuple<int64_t, int64_t>{0, 0}, {0, 4}, {4, 0}, {1, 1}, {1, 9}, {9, 1}}) {
        PlanCall call("ipt.imregionalmax");
        call.image("I", IPT_SINGLE, rows, cols).integer("conn", 8);
        const ImregionalmaxPlan p = plan_imregionalmax(call.args());
        EXPECT_EQ(p.rows, rows);
        EXPECT_EQ(p.cols, cols);
    }
}

TEST(ImregionalmaxPlan, EveryClass) {
    for (int32_t dtype :
         {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_UINT32, IPT_SINGLE, IPT_DOUBLE}) {
        PlanCall call("ipt.imregionalmax");
        call.image("I", dtype, 2, 3).integer("conn", 4);
        const ImregionalmaxPlan p = plan_imregionalmax(call.args());
        EXPECT_EQ(p.dtype, dtype);
        EXPECT_EQ(p.conn, 4);
    }
}

}  // namespace
