// SPDX-License-Identifier: Apache-2.0
// ipt.imfilter's plan (backends/common/ops/imfilter.hpp) on hand-computed
// cases: the kernel centre floor((size(h)+1)/2) for odd and even filters,
// 'same' and 'full' sizes, every boundary option, the pad value X in A's
// class, the output class and its rounding rule, and empty images.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/ops/imfilter.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::ImfilterBoundary;
using ipt::frontend::ImfilterPlan;
using ipt::frontend::ImfilterRounding;
using ipt::frontend::plan_imfilter;
using ipt::test::PlanCall;

ImfilterPlan plan_for(int64_t ma, int64_t na, int64_t kr, int64_t kc, const char* output = "same",
                      int32_t dtype = IPT_DOUBLE) {
    PlanCall call("ipt.imfilter");
    call.image("A", dtype, ma, na).image("h", IPT_DOUBLE, kr, kc).text("output", output);
    return plan_imfilter(call.args());
}

TEST(ImfilterPlan, Defaults) {
    PlanCall call("ipt.imfilter");
    call.image("A", IPT_UINT8, 5, 6).image("h", IPT_DOUBLE, 3, 3);
    const ImfilterPlan p = plan_imfilter(call.args());
    EXPECT_EQ(p.boundary, ImfilterBoundary::Constant);
    EXPECT_EQ(p.pad_value, 0);
    EXPECT_FALSE(p.full);
    EXPECT_FALSE(p.conv);
    EXPECT_EQ(p.out_class, IPT_UINT8);
    EXPECT_EQ(p.out_rows, 5);
    EXPECT_EQ(p.out_cols, 6);
    EXPECT_EQ(p.channels, 1);
    EXPECT_FALSE(p.zeros_only);
}

TEST(ImfilterPlan, OddKernelCentre) {
    // 3x3: centre (2,2) 1-based, so B(r,c) reads A(r-1..r+1, c-1..c+1).
    const ImfilterPlan s = plan_for(5, 6, 3, 3);
    EXPECT_EQ(s.top, 1);
    EXPECT_EQ(s.left, 1);
    // 5x1: centre row 3.
    const ImfilterPlan c = plan_for(7, 4, 5, 1);
    EXPECT_EQ(c.top, 2);
    EXPECT_EQ(c.left, 0);
}

TEST(ImfilterPlan, EvenKernelCentreIsUpperLeftOfTheMiddle) {
    // size 2: centre 1 (1-based), offsets {0, +1}; size 4: centre 2,
    // offsets {-1, 0, +1, +2} (docs/matlab-semantics.md#centre).
    const ImfilterPlan p2 = plan_for(5, 5, 2, 2);
    EXPECT_EQ(p2.top, 0);
    EXPECT_EQ(p2.left, 0);
    const ImfilterPlan p4 = plan_for(5, 5, 4, 4);
    EXPECT_EQ(p4.top, 1);
    EXPECT_EQ(p4.left, 1);
    // 2x4: rows {0,+1}, columns {-1..+2}.
    const ImfilterPlan p24 = plan_for(5, 5, 2, 4);
    EXPECT_EQ(p24.top, 0);
    EXPECT_EQ(p24.left, 1);
    // 6x1: offsets -2..+3.
    EXPECT_EQ(plan_for(9, 1, 6, 1).top, 2);
}

TEST(ImfilterPlan, OneByOneKernelAndImage) {
    const ImfilterPlan p = plan_for(1, 1, 1, 1);
    EXPECT_EQ(p.out_rows, 1);
    EXPECT_EQ(p.out_cols, 1);
    EXPECT_EQ(p.top, 0);
    EXPECT_EQ(p.left, 0);
    const ImfilterPlan f = plan_for(1, 1, 1, 1, "full");
    EXPECT_EQ(f.out_rows, 1);
    EXPECT_EQ(f.out_cols, 1);
}

TEST(ImfilterPlan, FullIsSizeAPlusSizeHMinusOne) {
    const ImfilterPlan f = plan_for(5, 6, 2, 4, "full");
    EXPECT_TRUE(f.full);
    EXPECT_EQ(f.out_rows, 6);
    EXPECT_EQ(f.out_cols, 9);
    // Padding by size(h)-1 on every side: B(0,0) has only A(0,0) under h's last tap.
    EXPECT_EQ(f.top, 1);
    EXPECT_EQ(f.left, 3);
    // 1xN image, 1x3 filter.
    const ImfilterPlan r = plan_for(1, 8, 1, 3, "full");
    EXPECT_EQ(r.out_rows, 1);
    EXPECT_EQ(r.out_cols, 10);
    EXPECT_EQ(r.left, 2);
    const ImfilterPlan rs = plan_for(1, 8, 1, 3);
    EXPECT_EQ(rs.out_cols, 8);
    EXPECT_EQ(rs.left, 1);
}

// imfilter([1 2 3 4], [1 1], 'conv') with zero padding is conv2's 'same':
// [3 5 7 4] (docs/matlab-semantics.md#conv2-same), with h turned for 'conv'.
TEST(ImfilterPlan, ConvWithZeroPaddingIsConv2Same) {
    PlanCall call("ipt.imfilter");
    call.image("A", IPT_DOUBLE, 1, 4).image("h", IPT_DOUBLE, 1, 2).text("mode", "conv");
    const ImfilterPlan p = plan_imfilter(call.args());
    EXPECT_TRUE(p.conv);
    const std::vector<double> a = {1, 2, 3, 4}, h = {1, 1};
    std::vector<double> b(4, 0);
    for (int64_t c = 0; c < 4; ++c)
        for (int64_t j = 0; j < p.kc; ++j) {
            const int64_t q = c + j - p.left;
            const double w = h[static_cast<size_t>(p.conv ? p.kc - 1 - j : j)];
            b[c] += w * (q >= 0 && q < 4 ? a[q] : p.pad_value);
        }
    EXPECT_EQ(b, (std::vector<double>{3, 5, 7, 4}));
}

TEST(ImfilterPlan, EveryBoundary) {
    const std::pair<const char*, ImfilterBoundary> cases[] = {{"constant", ImfilterBoundary::Constant},
                                                              {"symmetric", ImfilterBoundary::Symmetric},
                                                              {"replicate", ImfilterBoundary::Replicate},
                                                              {"circular", ImfilterBoundary::Circular}};
    for (const auto& [name, want] : cases)
        for (const char* output : {"same", "full"}) {
            PlanCall call("ipt.imfilter");
            call.image("A", IPT_SINGLE, 4, 5).image("h", IPT_DOUBLE, 2, 2);
            call.text("boundary", name).text("output", output);
            const ImfilterPlan p = plan_imfilter(call.args());
            EXPECT_EQ(p.boundary, want) << name;
            // The centre does not depend on the boundary.
            EXPECT_EQ(p.top, p.full ? 1 : 0) << name << " " << output;
            EXPECT_EQ(p.out_rows, p.full ? 5 : 4);
        }
}

TEST(ImfilterPlan, BoundaryAsABackendsEnum) {
    enum class Border { Skip, Circular, Constant, Replicate, Symmetric };  // other order, one more
    using ipt::frontend::border_as;
    EXPECT_EQ(border_as<Border>(ImfilterBoundary::Constant), Border::Constant);
    EXPECT_EQ(border_as<Border>(ImfilterBoundary::Symmetric), Border::Symmetric);
    EXPECT_EQ(border_as<Border>(ImfilterBoundary::Replicate), Border::Replicate);
    EXPECT_EQ(border_as<Border>(ImfilterBoundary::Circular), Border::Circular);
}

double pad(int32_t dtype, double x) {
    PlanCall call("ipt.imfilter");
    call.image("A", dtype, 3, 3).image("h", IPT_DOUBLE, 3, 3).number("X", x);
    return plan_imfilter(call.args()).pad_value;
}

TEST(ImfilterPlan, PadValueTakesTheClassOfA) {
    // Round half away from zero, then saturate; NaN becomes 0 (docs/matlab-semantics.md#rounding).
    EXPECT_EQ(pad(IPT_UINT8, 2.5), 3);
    EXPECT_EQ(pad(IPT_UINT8, 3.5), 4);
    EXPECT_EQ(pad(IPT_UINT8, 300), 255);
    EXPECT_EQ(pad(IPT_UINT8, -0.4), 0);
    EXPECT_EQ(pad(IPT_UINT8, std::numeric_limits<double>::quiet_NaN()), 0);
    EXPECT_EQ(pad(IPT_INT16, -2.5), -3);
    EXPECT_EQ(pad(IPT_INT16, -40000), -32768);
    EXPECT_EQ(pad(IPT_UINT16, 70000), 65535);
    EXPECT_EQ(pad(IPT_INT32, -3e9), -2147483648.0);
    EXPECT_EQ(pad(IPT_UINT32, 1e10), 4294967295.0);
    // Logical: nonzero is true.
    EXPECT_EQ(pad(IPT_LOGICAL, 0.3), 1);
    EXPECT_EQ(pad(IPT_LOGICAL, -2), 1);
    EXPECT_EQ(pad(IPT_LOGICAL, 0), 0);
    // Floating classes: single rounds to single, double keeps X.
    EXPECT_EQ(pad(IPT_SINGLE, 0.1), static_cast<double>(0.1f));
    EXPECT_EQ(pad(IPT_DOUBLE, 0.1), 0.1);
    EXPECT_EQ(pad(IPT_DOUBLE, -1e300), -1e300);
}

TEST(ImfilterPlan, OutputClassAndRounding) {
    const std::pair<int32_t, ImfilterRounding> cases[] = {
        {IPT_UINT8, ImfilterRounding::RoundSaturate}, {IPT_UINT16, ImfilterRounding::RoundSaturate},
        {IPT_INT16, ImfilterRounding::RoundSaturate}, {IPT_INT32, ImfilterRounding::RoundSaturate},
        {IPT_UINT32, ImfilterRounding::RoundSaturate}, {IPT_LOGICAL, ImfilterRounding::Logical},
        {IPT_SINGLE, ImfilterRounding::None},         {IPT_DOUBLE, ImfilterRounding::None}};
    for (const auto& [dtype, rounding] : cases) {
        const ImfilterPlan p = plan_for(3, 4, 3, 3, "same", dtype);
        EXPECT_EQ(p.out_class, dtype);
        EXPECT_EQ(p.rounding, rounding) << dtype;
    }
}

TEST(ImfilterPlan, RgbChannelsAreKept) {
    PlanCall call("ipt.imfilter");
    call.image("A", IPT_UINT8, 4, 5, 3).image("h", IPT_SINGLE, 3, 3).text("output", "full");
    const ImfilterPlan p = plan_imfilter(call.args());
    EXPECT_EQ(p.channels, 3);
    EXPECT_EQ(p.out_rows, 6);
    EXPECT_EQ(p.out_cols, 7);
}

TEST(ImfilterPlan, EmptyImage) {
    // 'same' returns the empty A; 'full' zeros of size(A)+size(h)-1.
    const ImfilterPlan s = plan_for(0, 0, 3, 3, "same");
    EXPECT_TRUE(s.zeros_only);
    EXPECT_EQ(s.out_rows, 0);
    EXPECT_EQ(s.out_cols, 0);
    const ImfilterPlan f = plan_for(0, 0, 3, 3, "full");
    EXPECT_TRUE(f.zeros_only);
    EXPECT_EQ(f.out_rows, 2);
    EXPECT_EQ(f.out_cols, 2);
    const ImfilterPlan r = plan_for(0, 4, 2, 3, "full");
    EXPECT_TRUE(r.zeros_only);
    EXPECT_EQ(r.out_rows, 1);
    EXPECT_EQ(r.out_cols, 6);
}

}  // namespace
