// SPDX-License-Identifier: Apache-2.0
// ipt.strel's plan (backends/common/ops/strel.hpp): the neighbourhood and the
// framed decomposition of hand-computed shapes, and the rules between
// parameters that the schema cannot express.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/ops/strel.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::plan_strel;
using ipt::frontend::StrelPlan;
using ipt::test::PlanCall;
using Bits = std::vector<uint8_t>;

StrelPlan plan(PlanCall& call) { return plan_strel(call.args()); }

std::string error_of(PlanCall& call) {
    try {
        (void)plan_strel(call.args());
    } catch (const ipt::plugin::Error& e) {
        EXPECT_EQ(e.status, IPT_ERR_INVALID_ARGUMENT);
        return e.what();
    }
    return "";
}

void expect_nhood(const StrelPlan& p, int64_t rows, int64_t cols, const Bits& bits) {
    EXPECT_EQ(p.strel.nhood.rows, rows);
    EXPECT_EQ(p.strel.nhood.cols, cols);
    EXPECT_EQ(p.strel.nhood.bits, bits);
}

Bits ones(size_t n) { return Bits(n, 1); }

TEST(StrelPlan, SquareIsOneFactorBelowMatlabsRatio) {
    PlanCall call("ipt.strel");
    call.text("shape", "square").integer("w", 3);
    const StrelPlan p = plan(call);
    expect_nhood(p, 3, 3, ones(9));
    // 9 / (3 + 3) < 2: MATLAB keeps the square whole.
    EXPECT_EQ(p.factor_count, 1);
    EXPECT_EQ(p.planes, ones(9));
}

TEST(StrelPlan, EmptySquare) {
    PlanCall call("ipt.strel");
    call.text("shape", "square").integer("w", 0);
    const StrelPlan p = plan(call);
    expect_nhood(p, 0, 0, {});
    EXPECT_EQ(p.factor_count, 1);
    EXPECT_TRUE(p.planes.empty());
}

TEST(StrelPlan, OneByOne) {
    PlanCall call("ipt.strel");
    call.text("shape", "square").integer("w", 1);
    const StrelPlan p = plan(call);
    expect_nhood(p, 1, 1, {1});
    EXPECT_EQ(p.factor_count, 1);
    EXPECT_EQ(p.planes, Bits{1});
}

TEST(StrelPlan, EvenRectangleDecomposesIntoColumnAndRow) {
    PlanCall call("ipt.strel");
    call.text("shape", "rectangle").floats("size", {4, 4});
    const StrelPlan p = plan(call);
    expect_nhood(p, 4, 4, ones(16));
    // 16 / 8 = 2: a 4x1 column and a 1x4 row, each framed in 4x4 with the
    // origins at (2, 2) 1-based: the column in frame column 1, the row in
    // frame row 1 (0-based).
    ASSERT_EQ(p.factor_count, 2);
    const Bits column = {0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0};
    const Bits row = {0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0};
    Bits both = column;
    both.insert(both.end(), row.begin(), row.end());
    EXPECT_EQ(p.planes, both);
}

TEST(StrelPlan, OneRowRectangle) {
    PlanCall call("ipt.strel");
    call.text("shape", "rectangle").floats("size", {1, 6});
    const StrelPlan p = plan(call);
    expect_nhood(p, 1, 6, ones(6));
    EXPECT_EQ(p.factor_count, 1);  // 6 / 7 < 2
    EXPECT_EQ(p.planes, ones(6));
}

TEST(StrelPlan, DiamondSmallAndDecomposed) {
    PlanCall small("ipt.strel");
    small.text("shape", "diamond").integer("r", 1);
    const StrelPlan p1 = plan(small);
    expect_nhood(p1, 3, 3, {0, 1, 0, 1, 1, 1, 0, 1, 0});
    EXPECT_EQ(p1.factor_count, 1);

    // r = 3: a 3x3 plus, the axis points at 1 (2^0, n = floor(log2 3) = 1),
    // then at 3 - 2 = 1 again; each framed in 7x7 around (3, 3).
    PlanCall big("ipt.strel");
    big.text("shape", "diamond").integer("r", 3);
    const StrelPlan p3 = plan(big);
    EXPECT_EQ(p3.strel.nhood.rows, 7);
    EXPECT_EQ(p3.strel.nhood.count(), 25);  // |x|+|y| <= 3: 1 + 4 + 8 + 12
    ASSERT_EQ(p3.factor_count, 3);
    ASSERT_EQ(p3.planes.size(), 3u * 49u);
    Bits plus(49, 0), axis(49, 0);
    for (int64_t i : {2 * 7 + 3, 3 * 7 + 2, 3 * 7 + 3, 3 * 7 + 4, 4 * 7 + 3}) plus[static_cast<size_t>(i)] = 1;
    for (int64_t i : {2 * 7 + 3, 3 * 7 + 2, 3 * 7 + 4, 4 * 7 + 3}) axis[static_cast<size_t>(i)] = 1;
    EXPECT_EQ(Bits(p3.planes.begin(), p3.planes.begin() + 49), plus);
    EXPECT_EQ(Bits(p3.planes.begin() + 49, p3.planes.begin() + 98), axis);
    EXPECT_EQ(Bits(p3.planes.begin() + 98, p3.planes.end()), axis);
}

TEST(StrelPlan, OctagonZeroIsOnePixel) {
    PlanCall call("ipt.strel");
    call.text("shape", "octagon").integer("r", 0);
    const StrelPlan p = plan(call);
    expect_nhood(p, 1, 1, {1});
    EXPECT_EQ(p.factor_count, 1);
}

TEST(StrelPlan, LineHorizontalAndVertical) {
    // len 3: half-length 1; deg 0 gives x = 1, y = 0; deg 90 gives x = 0, y = -1.
    PlanCall h("ipt.strel");
    h.text("shape", "line").number("len", 3).number("deg", 0);
    expect_nhood(plan(h), 1, 3, ones(3));
    PlanCall v("ipt.strel");
    v.text("shape", "line").number("len", 3).number("deg", 90);
    expect_nhood(plan(v), 3, 1, ones(3));
    // len < 1: MATLAB's empty strel.
    PlanCall e("ipt.strel");
    e.text("shape", "line").number("len", 0.5).number("deg", 0);
    expect_nhood(plan(e), 0, 0, {});
}

TEST(StrelPlan, PeriodicLine) {
    // P = 1, V = [1 2]: offsets (-1,-2), (0,0), (1,2) in a 3x5 box.
    PlanCall call("ipt.strel");
    call.text("shape", "periodicline").integer("P", 1).floats("V", {1, 2});
    const StrelPlan p = plan(call);
    expect_nhood(p, 3, 5, {1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1});
    EXPECT_EQ(p.factor_count, 1);
}

TEST(StrelPlan, SmallDiskIsTheExactCircle) {
    // r < 3 ignores n: x^2 + y^2 <= 4 on -2:2 ((2, 1) is sqrt(5) away: out).
    PlanCall call("ipt.strel");
    call.text("shape", "disk").integer("r", 2).integer("n", 4);
    const StrelPlan p = plan(call);
    expect_nhood(p, 5, 5, {0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 0});
    EXPECT_EQ(p.factor_count, 1);
}

TEST(StrelPlan, ArbitraryEvenNeighbourhood) {
    const uint8_t nh[] = {1, 0, 0, 1};
    PlanCall call("ipt.strel");
    call.text("shape", "arbitrary").image("nhood_in", IPT_LOGICAL, 2, 2, 1, nh);
    const StrelPlan p = plan(call);
    expect_nhood(p, 2, 2, {1, 0, 0, 1});
    EXPECT_EQ(p.factor_count, 1);
    EXPECT_EQ(p.planes, (Bits{1, 0, 0, 1}));
}

TEST(StrelPlan, DecompositionOnlyWhenWanted) {
    PlanCall call("ipt.strel");
    call.text("shape", "rectangle").floats("size", {4, 4}).want("decomposition", false);
    const StrelPlan p = plan(call);
    expect_nhood(p, 4, 4, ones(16));
    EXPECT_EQ(p.factor_count, 0);
    EXPECT_TRUE(p.planes.empty());
}

TEST(StrelPlan, Errors) {
    PlanCall missing("ipt.strel");
    missing.text("shape", "square");
    EXPECT_EQ(error_of(missing), "ipt.strel: parameter 'w' is required for shape 'square'");

    PlanCall extra("ipt.strel");
    extra.text("shape", "square").integer("w", 3).integer("r", 2);
    EXPECT_EQ(error_of(extra), "ipt.strel: parameter 'r' does not apply to shape 'square'");

    PlanCall half_line("ipt.strel");
    half_line.text("shape", "line").number("len", 3);
    EXPECT_EQ(error_of(half_line), "ipt.strel: parameter 'deg' is required for shape 'line'");

    PlanCall octagon("ipt.strel");
    octagon.text("shape", "octagon").integer("r", 4);
    EXPECT_EQ(error_of(octagon), "ipt.strel: parameter 'r' must be a multiple of 3 for shape 'octagon'");
}

}  // namespace
