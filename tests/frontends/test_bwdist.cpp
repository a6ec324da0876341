// SPDX-License-Identifier: Apache-2.0
// ipt.bwdist's front-end: the method (euclidean by default), output sizes and
// classes (D single, IDX uint32, MATLAB's), whether IDX is wanted, and the
// rules the schema cannot express.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>

#include "common/ops/bwdist.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::BwdistMetric;
using ipt::frontend::BwdistPlan;
using ipt::frontend::plan_bwdist;
using ipt::test::PlanCall;

BwdistPlan plan_for(int64_t rows, int64_t cols, const char* method = nullptr, int32_t dtype = IPT_LOGICAL) {
    PlanCall call("ipt.bwdist");
    call.image("BW", dtype, rows, cols);
    if (method) call.text("method", method);
    return plan_bwdist(call.args());
}

std::string invalid_message(PlanCall& call) {
    try {
        plan_bwdist(call.args());
    } catch (const ipt::plugin::Error& e) {
        EXPECT_EQ(e.status, IPT_ERR_INVALID_ARGUMENT);
        return e.message;
    }
    ADD_FAILURE() << "no error";
    return "";
}

TEST(BwdistPlan, EuclideanByDefault) {
    const BwdistPlan p = plan_for(5, 7);
    EXPECT_EQ(p.metric, BwdistMetric::Euclidean);
    EXPECT_EQ(p.rows, 5);
    EXPECT_EQ(p.cols, 7);
    EXPECT_EQ(p.d_dtype, IPT_SINGLE);
    EXPECT_EQ(p.idx_dtype, IPT_UINT32);
    EXPECT_TRUE(p.want_idx);
}

TEST(BwdistPlan, EveryMethod) {
    EXPECT_EQ(plan_for(3, 3, "euclidean").metric, BwdistMetric::Euclidean);
    EXPECT_EQ(plan_for(3, 3, "cityblock").metric, BwdistMetric::Cityblock);
    EXPECT_EQ(plan_for(3, 3, "chessboard").metric, BwdistMetric::Chessboard);
    EXPECT_EQ(plan_for(3, 3, "quasi-euclidean").metric, BwdistMetric::QuasiEuclidean);
}

TEST(BwdistPlan, OutputsHaveTheImagesSize) {
    for (const auto& [r, c] : {std::pair<int64_t, int64_t>{0, 0}, {0, 4}, {4, 0}, {1, 1}, {1, 9}, {9, 1}, {6, 4}}) {
        const BwdistPlan p = plan_for(r, c, "chessboard");
        EXPECT_EQ(p.rows, r);
        EXPECT_EQ(p.cols, c);
    }
}

TEST(BwdistPlan, EveryClassIsAccepted) {
    for (int32_t dt : {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_SINGLE, IPT_DOUBLE}) {
        const BwdistPlan p = plan_for(2, 3, nullptr, dt);
        EXPECT_EQ(p.d_dtype, IPT_SINGLE) << dt;  // whatever BW's class
        EXPECT_EQ(p.idx_dtype, IPT_UINT32) << dt;
    }
}

TEST(BwdistPlan, IdxOnlyWhenWanted) {
    PlanCall call("ipt.bwdist");
    call.image("BW", IPT_LOGICAL, 4, 4).want("IDX", false);
    EXPECT_FALSE(plan_bwdist(call.args()).want_idx);
}

TEST(BwdistPlan, MetricConstants) {
    EXPECT_DOUBLE_EQ(ipt::frontend::kQuasiEuclideanK, std::sqrt(2.0) - 1);
    EXPECT_TRUE(std::isinf(ipt::frontend::kBwdistNoFeatureD));  // MATLAB: bwdist(false(n)) is Inf
    EXPECT_GT(ipt::frontend::kBwdistNoFeatureD, 0);
    EXPECT_EQ(ipt::frontend::kBwdistNoFeatureIdx, 0u);
}

TEST(BwdistPlan, IdxMustFitUint32) {
    // 65535 x 65537 = 2^32 - 1 pixels: the last index still fits.
    PlanCall fits("ipt.bwdist");
    fits.image("BW", IPT_LOGICAL, 65535, 65537);
    EXPECT_NO_THROW(plan_bwdist(fits.args()));

    // 65536 x 65537 = 2^32 + 65536: too many for a uint32 IDX ...
    PlanCall big("ipt.bwdist");
    big.image("BW", IPT_LOGICAL, 65536, 65537);
    const std::string m = invalid_message(big);
    EXPECT_NE(m.find("ipt.bwdist"), std::string::npos) << m;
    EXPECT_NE(m.find("'BW'"), std::string::npos) << m;

    // ... but D alone has no such limit.
    PlanCall d_only("ipt.bwdist");
    d_only.image("BW", IPT_LOGICAL, 65536, 65537).want("IDX", false);
    EXPECT_NO_THROW(plan_bwdist(d_only.args()));
}

TEST(BwdistPlan, EmptyImagesAreMarked) {
    for (auto [rows, cols, empty] : {std::tuple<int64_t, int64_t, bool>{0, 0, true}, {int64_t{1} << 30, 0, true},
                                     {0, int64_t{1} << 30, true}, {1, 1, false}}) {
        PlanCall call("ipt.bwdist");
        call.image("BW", IPT_LOGICAL, rows, cols);
        const BwdistPlan p = plan_bwdist(call.args());
        EXPECT_EQ(p.empty(), empty) << rows << "x" << cols;
        EXPECT_EQ(p.rows, rows);
        EXPECT_EQ(p.cols, cols);
    }
}

TEST(BwdistPlan, UnknownMethodIsInvalid) {
    PlanCall call("ipt.bwdist");
    call.image("BW", IPT_LOGICAL, 3, 3).text("method", "manhattan");
    EXPECT_NE(invalid_message(call).find("'method'"), std::string::npos);
}

}  // namespace
