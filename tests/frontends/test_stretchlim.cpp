// SPDX-License-Identifier: Apache-2.0
// ipt.stretchlim's front-end: the tolerance (a scalar t is [t 1-t]), the bins
// per class (256 for uint8, 65536 for every other class), the output (2 x
// channels double), when no histogram is needed, and the count thresholds,
// hand-computed from cdf = count/numel (> for low, >= for high).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/ops/stretchlim.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::plan_stretchlim;
using ipt::frontend::StretchlimPlan;
using ipt::test::PlanCall;

StretchlimPlan plan_of(int32_t dtype, int64_t rows, int64_t cols, std::vector<double> tol = {},
                       int64_t channels = 1) {
    PlanCall call("ipt.stretchlim");
    call.image("I", dtype, rows, cols, channels);
    if (!tol.empty()) call.floats("tol", tol);
    return plan_stretchlim(call.args());
}

TEST(StretchlimPlan, DefaultToleranceAndOutput) {
    const StretchlimPlan p = plan_of(IPT_UINT8, 10, 10);
    EXPECT_EQ(p.tol_low, 0.01);
    EXPECT_EQ(p.tol_high, 0.99);
    EXPECT_EQ(p.out_dtype, IPT_DOUBLE);
    EXPECT_EQ(p.out_rows, 2);
    EXPECT_EQ(p.out_cols, 1);
    EXPECT_EQ(p.plane, 100);
    EXPECT_TRUE(p.needs_histogram);
    // 100 values: 1/100 is not > 0.01, 2/100 is; 99/100 >= 0.99.
    EXPECT_EQ(p.count_low, 2);
    EXPECT_EQ(p.count_high, 99);
}

TEST(StretchlimPlan, ScalarToleranceIsSymmetric) {
    const StretchlimPlan p = plan_of(IPT_DOUBLE, 2, 5, {0.1});
    EXPECT_EQ(p.tol_low, 0.1);
    EXPECT_EQ(p.tol_high, 1.0 - 0.1);
    // 10 values: 1/10 is not > 0.1, 2/10 is; 9/10 >= 0.9.
    EXPECT_EQ(p.count_low, 2);
    EXPECT_EQ(p.count_high, 9);
}

TEST(StretchlimPlan, BinsPerClass) {
    EXPECT_EQ(plan_of(IPT_UINT8, 3, 3).nbins, 256);
    for (int32_t d : {IPT_UINT16, IPT_INT16, IPT_SINGLE, IPT_DOUBLE, IPT_LOGICAL, IPT_INT32, IPT_UINT32})
        EXPECT_EQ(plan_of(d, 3, 3).nbins, 65536) << d;
}

TEST(StretchlimPlan, ChannelsAndShapes) {
    const StretchlimPlan rgb = plan_of(IPT_UINT8, 17, 23, {}, 3);
    EXPECT_EQ(rgb.channels, 3);
    EXPECT_EQ(rgb.out_cols, 3);
    EXPECT_EQ(rgb.plane, 17 * 23);
    // 1x1: the one value passes both tolerances.
    const StretchlimPlan one = plan_of(IPT_UINT16, 1, 1);
    EXPECT_EQ(one.count_low, 1);
    EXPECT_EQ(one.count_high, 1);
    EXPECT_EQ(plan_of(IPT_UINT8, 1, 37).plane, 37);
    EXPECT_EQ(plan_of(IPT_UINT8, 41, 1).plane, 41);
}

TEST(StretchlimPlan, ThresholdsAtTheEnds) {
    // [0 1] over 10 values: the first nonzero count passes > 0, all 10 pass >= 1.
    const StretchlimPlan ends = plan_of(IPT_UINT8, 1, 10, {0, 1});
    EXPECT_EQ(ends.count_low, 1);
    EXPECT_EQ(ends.count_high, 10);
    // [0 0.4]: 4/10 >= 0.4 exactly.
    const StretchlimPlan p = plan_of(IPT_UINT8, 1, 10, {0, 0.4});
    EXPECT_EQ(p.count_high, 4);
    // [0.25 0.75] over 4: 1/4 is not > 0.25, 2/4 is; 3/4 >= 0.75.
    const StretchlimPlan q = plan_of(IPT_UINT8, 2, 2, {0.25, 0.75});
    EXPECT_EQ(q.count_low, 2);
    EXPECT_EQ(q.count_high, 3);
}

TEST(StretchlimPlan, NoHistogramWhenLowIsNotBelowHigh) {
    EXPECT_FALSE(plan_of(IPT_UINT8, 3, 3, {0.5, 0.5}).needs_histogram);
    EXPECT_FALSE(plan_of(IPT_UINT8, 3, 3, {0.3, 0.2}).needs_histogram);
    EXPECT_FALSE(plan_of(IPT_UINT8, 3, 3, {0.5}).needs_histogram);  // [0.5 0.5]
    EXPECT_TRUE(plan_of(IPT_UINT8, 3, 3, {0.49}).needs_histogram);
}

TEST(StretchlimPlan, ImadjustsDefaultAcceptsAnEmptyImage) {
    ipt_tensor empty{};
    empty.struct_size = sizeof(ipt_tensor);
    empty.dtype = IPT_UINT8;
    empty.rows = 0;
    empty.cols = 4;
    empty.channels = 1;
    const StretchlimPlan p = ipt::frontend::stretchlim_plan_for(&empty, 0.01, 0.99);
    EXPECT_FALSE(p.needs_histogram);
    EXPECT_EQ(p.nbins, 256);
}

TEST(StretchlimPlan, RejectsAnEmptyImage) {
    for (auto [rows, cols] : {std::pair<int64_t, int64_t>{0, 4}, {4, 0}, {0, 0}}) {
        try {
            plan_of(IPT_UINT8, rows, cols);
            ADD_FAILURE() << "no error for " << rows << "x" << cols;
        } catch (const ipt::plugin::Error& e) {
            EXPECT_EQ(e.status, IPT_ERR_INVALID_ARGUMENT);
            EXPECT_NE(e.message.find("ipt.stretchlim: parameter 'I'"), std::string::npos) << e.message;
        }
    }
}

}  // namespace
