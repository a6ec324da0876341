// SPDX-License-Identifier: Apache-2.0
// ipt.imboxfilt's front-end: defaults, sizes, padding constant and the
// normalisation factor, against hand computation.
#include <gtest/gtest.h>

#include <vector>

#include "common/ops/imboxfilt.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::ImboxfiltPlan;
using ipt::frontend::ImfilterBoundary;
using ipt::frontend::plan_imboxfilt;
using ipt::test::PlanCall;

PlanCall call_of(int32_t dtype, int64_t rows = 6, int64_t cols = 7) {
    PlanCall call("ipt.imboxfilt");
    call.image("A", dtype, rows, cols);
    return call;
}

TEST(ImboxfiltPlan, Defaults) {
    PlanCall call = call_of(IPT_UINT8);
    const ImboxfiltPlan p = plan_imboxfilt(call.args());
    EXPECT_EQ(p.fr, 3);
    EXPECT_EQ(p.fc, 3);
    EXPECT_EQ(p.norm, 1.0 / 9);
    EXPECT_EQ(p.boundary, ImfilterBoundary::Replicate);
    EXPECT_EQ(p.top, 1);
    EXPECT_EQ(p.left, 1);
    EXPECT_EQ(p.padded_rows, 8);
    EXPECT_EQ(p.padded_cols, 9);
    EXPECT_EQ(p.out_class, IPT_UINT8);
}

TEST(ImboxfiltPlan, SizesAndFactor) {
    PlanCall a = call_of(IPT_DOUBLE);
    a.floats("filterSize", {5, 1});
    ImboxfiltPlan p = plan_imboxfilt(a.args());
    EXPECT_EQ(p.fr, 5);
    EXPECT_EQ(p.fc, 1);
    EXPECT_EQ(p.norm, 1.0 / 5);
    EXPECT_EQ(p.top, 2);
    EXPECT_EQ(p.left, 0);
    PlanCall b = call_of(IPT_DOUBLE);
    b.floats("filterSize", {7}).number("NormalizationFactor", 1);
    p = plan_imboxfilt(b.args());
    EXPECT_EQ(p.fr * p.fc, 49);
    EXPECT_EQ(p.norm, 1.0);
}

TEST(ImboxfiltPlan, EvenSizeIsRefused) {
    for (std::vector<double> n : {std::vector<double>{2}, {3, 4}}) {
        PlanCall call = call_of(IPT_DOUBLE);
        call.floats("filterSize", n);
        EXPECT_THROW(plan_imboxfilt(call.args()), ipt::plugin::Error);
    }
}

// padarray converts the constant to A's class.
TEST(ImboxfiltPlan, ConstantInClass) {
    PlanCall a = call_of(IPT_UINT8);
    a.text("Padding", "constant").number("X", 300);
    EXPECT_EQ(plan_imboxfilt(a.args()).pad_value, 255);
    PlanCall b = call_of(IPT_INT16);
    b.text("Padding", "constant").number("X", 2.5);
    EXPECT_EQ(plan_imboxfilt(b.args()).pad_value, 3);
    PlanCall c = call_of(IPT_DOUBLE);
    c.text("Padding", "constant").number("X", 2.5);
    EXPECT_EQ(plan_imboxfilt(c.args()).pad_value, 2.5);
}

// The four corners: a 2x2 window of ones in a 3x3 table of the running sums.
TEST(ImboxfiltPlan, BoxValueFromCorners) {
    // J of ones(2,2) padded to 2x2: [0 0 0; 0 1 2; 0 2 4].
    const double J[9] = {0, 0, 0, 0, 1, 2, 0, 2, 4};
    EXPECT_EQ(ipt::frontend::box_value<int64_t>(J, 3, 0, 0, 2, 2, 0.25), 1.0);
    EXPECT_EQ(ipt::frontend::box_value<int64_t>(J, 3, 1, 1, 1, 1, 1.0), 1.0);
    EXPECT_EQ(ipt::frontend::box_value<int64_t>(J, 3, 0, 1, 2, 1, 1.0), 2.0);
}

}  // namespace
