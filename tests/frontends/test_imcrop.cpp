// SPDX-License-Identifier: Apache-2.0
// ipt.imcrop's front-end: the rows and columns kept for rectangles in spatial
// coordinates, worked out by hand from MATLAB's rule (round half away of the
// corners, width + 1 pixels, clipping, [] when the rectangle misses), and the
// refusals.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/ops/imcrop.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::ImcropPlan;
using ipt::frontend::plan_imcrop;
using ipt::test::PlanCall;

ImcropPlan plan_of(int32_t dtype, int64_t rows, int64_t cols, std::vector<double> rect, int64_t channels = 1) {
    PlanCall call("ipt.imcrop");
    call.image("I", dtype, rows, cols, channels).floats("rect", std::move(rect));
    return plan_imcrop(call.args());
}

// [first row, last row, first col, last col], 1-based, or {} for [].
std::vector<int64_t> kept(const ImcropPlan& p) {
    if (p.empty) return {};
    return {p.row0 + 1, p.row0 + p.out_rows, p.col0 + 1, p.col0 + p.out_cols};
}

// MathWorks' note: rect [20 20 40 30] keeps 31 rows and 41 columns.
TEST(ImcropPlan, WidthInSpatialUnitsKeepsOneMore) {
    const ImcropPlan p = plan_of(IPT_UINT8, 100, 100, {20, 20, 40, 30});
    EXPECT_EQ(kept(p), (std::vector<int64_t>{20, 50, 20, 60}));
    EXPECT_EQ(p.out_rows, 31);
    EXPECT_EQ(p.out_cols, 41);
    EXPECT_EQ(p.out_dtype, IPT_UINT8);
    EXPECT_FALSE(p.empty);
}

TEST(ImcropPlan, CornersRoundHalfAway) {
    // c1 = round(2.5) = 3, c2 = round(2.5 + 1) = 4; r1 = round(1.4) = 1, r2 = round(1.4 + 2.2) = 4.
    EXPECT_EQ(kept(plan_of(IPT_DOUBLE, 10, 10, {2.5, 1.4, 1, 2.2})), (std::vector<int64_t>{1, 4, 3, 4}));
    // 0.5 rounds to 1: the first pixel.
    EXPECT_EQ(kept(plan_of(IPT_DOUBLE, 10, 10, {0.5, 0.5, 0, 0})), (std::vector<int64_t>{1, 1, 1, 1}));
    // 1.49 + 0.02 = 1.51 rounds to 2 while 1.49 rounds to 1: two pixels from a width of 0.02.
    EXPECT_EQ(kept(plan_of(IPT_DOUBLE, 10, 10, {1.49, 3, 0.02, 0})), (std::vector<int64_t>{3, 3, 1, 2}));
    // Zero width and height: one pixel.
    EXPECT_EQ(kept(plan_of(IPT_DOUBLE, 10, 10, {4, 7, 0, 0})), (std::vector<int64_t>{7, 7, 4, 4}));
}

TEST(ImcropPlan, ClippedToTheImage) {
    EXPECT_EQ(kept(plan_of(IPT_UINT8, 5, 6, {-10, -3, 12, 5})), (std::vector<int64_t>{1, 2, 1, 2}));
    EXPECT_EQ(kept(plan_of(IPT_UINT8, 5, 6, {0, 0, 100, 100})), (std::vector<int64_t>{1, 5, 1, 6}));
    EXPECT_EQ(kept(plan_of(IPT_UINT8, 5, 6, {6, 5, 10, 10})), (std::vector<int64_t>{5, 5, 6, 6}));
    // 1xN and Nx1.
    EXPECT_EQ(kept(plan_of(IPT_UINT8, 1, 37, {3, 1, 4, 0})), (std::vector<int64_t>{1, 1, 3, 7}));
    EXPECT_EQ(kept(plan_of(IPT_UINT8, 41, 1, {1, 40, 0, 5})), (std::vector<int64_t>{40, 41, 1, 1}));
    const ImcropPlan rgb = plan_of(IPT_SINGLE, 5, 6, {2, 2, 1, 1}, 3);
    EXPECT_EQ(rgb.channels, 3);
    EXPECT_EQ(rgb.out_dtype, IPT_SINGLE);
}

// A rectangle that misses the image gives [], a 0x0 double, not an error.
TEST(ImcropPlan, MissGivesEmptyDouble) {
    for (const std::vector<double>& rect : std::vector<std::vector<double>>{
             {7, 1, 1, 1}, {1, 5.5, 1, 1}, {-5, 1, 5.4, 1}, {1, -3, 1, 3.4}, {1e300, 1, 1, 1}, {1, -1e300, 1, 1}}) {
        const ImcropPlan p = plan_of(IPT_UINT8, 5, 6, rect, 3);
        EXPECT_TRUE(p.empty) << rect[0] << " " << rect[1] << " " << rect[2] << " " << rect[3];
        EXPECT_EQ(p.out_rows, 0);
        EXPECT_EQ(p.out_cols, 0);
        EXPECT_EQ(p.channels, 1);
        EXPECT_EQ(p.out_dtype, IPT_DOUBLE);
    }
    // Just inside: c2 = round(-5 + 5.5) = 1.
    EXPECT_EQ(kept(plan_of(IPT_UINT8, 5, 6, {-5, 1, 5.5, 1})), (std::vector<int64_t>{1, 2, 1, 1}));
    // An empty image is always missed.
    EXPECT_TRUE(plan_of(IPT_LOGICAL, 0, 4, {1, 1, 2, 2}).empty);
    EXPECT_TRUE(plan_of(IPT_LOGICAL, 4, 0, {1, 1, 2, 2}).empty);
    EXPECT_TRUE(plan_of(IPT_LOGICAL, 0, 0, {0, 0, 0, 0}).empty);
}

TEST(ImcropPlan, NegativeWidthOrHeightIsRefused) {
    for (const std::vector<double>& rect : std::vector<std::vector<double>>{{1, 1, -1, 2}, {1, 1, 2, -0.5}}) {
        try {
            plan_of(IPT_UINT8, 5, 6, rect);
            ADD_FAILURE() << "negative size must be refused";
        } catch (const ipt::plugin::Error& e) {
            EXPECT_EQ(e.status, IPT_ERR_INVALID_ARGUMENT);
            EXPECT_NE(e.message.find("'rect'"), std::string::npos) << e.message;
        }
    }
}

}  // namespace
