// SPDX-License-Identifier: Apache-2.0
// ipt.imdilate's plan (backends/common/ops/imdilate.hpp): the members of the
// reflected structuring element around the origin floor((size+1)/2), the pad
// of every class, flat and non-flat elements, the decomposition of flat ones,
// and the errors; every expected value computed by hand.
#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "common/ops/imdilate.hpp"
#include "plan_call.hpp"

namespace {

using ipt::common::StrelOffset;
using ipt::frontend::MorphMember;
using ipt::frontend::MorphologyPlan;
using ipt::frontend::plan_imdilate;
using ipt::test::PlanCall;
using Offsets = std::vector<StrelOffset>;

constexpr double kInf = std::numeric_limits<double>::infinity();

// A call on an image of `rows` x `cols` with the neighbourhood given row-major.
PlanCall call_with(int32_t dtype, int64_t rows, int64_t cols, const std::vector<uint8_t>& nhood, int64_t nr,
                   int64_t nc) {
    PlanCall call("ipt.imdilate");
    call.image("A", dtype, rows, cols).image("nhood", IPT_LOGICAL, nr, nc, 1, nhood.data());
    return call;
}

std::string error_of(PlanCall& call) {
    try {
        (void)plan_imdilate(call.args());
    } catch (const ipt::plugin::Error& e) {
        EXPECT_EQ(e.status, IPT_ERR_INVALID_ARGUMENT);
        return e.what();
    }
    return "";
}

void expect_extent(const MorphologyPlan& p, int64_t dr_min, int64_t dr_max, int64_t dc_min, int64_t dc_max) {
    EXPECT_EQ(p.dr_min, dr_min);
    EXPECT_EQ(p.dr_max, dr_max);
    EXPECT_EQ(p.dc_min, dc_min);
    EXPECT_EQ(p.dc_max, dc_max);
}

TEST(ImdilatePlan, OneByOneNeighbourhood) {
    const std::vector<uint8_t> nh = {1};
    PlanCall call = call_with(IPT_UINT8, 4, 5, nh, 1, 1);
    const MorphologyPlan p = plan_imdilate(call.args());
    EXPECT_TRUE(p.dilate);
    EXPECT_EQ(p.dtype, IPT_UINT8);
    EXPECT_EQ(p.rows, 4);
    EXPECT_EQ(p.cols, 5);
    EXPECT_EQ(p.origin_row, 0);
    EXPECT_EQ(p.origin_col, 0);
    EXPECT_TRUE(p.flat);
    EXPECT_FALSE(p.round_to_class);
    EXPECT_EQ(p.members, (std::vector<MorphMember>{{0, 0, 0}}));
    expect_extent(p, 0, 0, 0, 0);
    EXPECT_TRUE(p.rectangle);
    EXPECT_EQ(p.offsets, (Offsets{{0, 0}}));
    EXPECT_EQ(p.factors, (std::vector<Offsets>{{{0, 0}}}));
}

TEST(ImdilatePlan, EmptyImageKeepsItsSize) {
    const std::vector<uint8_t> nh(9, 1);
    for (auto [rows, cols] : {std::pair<int64_t, int64_t>{0, 5}, {3, 0}, {0, 0}}) {
        PlanCall call = call_with(IPT_DOUBLE, rows, cols, nh, 3, 3);
        const MorphologyPlan p = plan_imdilate(call.args());
        EXPECT_EQ(p.rows, rows);
        EXPECT_EQ(p.cols, cols);
        EXPECT_EQ(p.members.size(), 9u);
    }
}

TEST(ImdilatePlan, EvenRowIsReflectedAboutItsOrigin) {
    // 1x4: origin column floor(5/2) = 2 (1-based), members b - origin = -1..2,
    // reflected: 1, 0, -1, -2 in the neighbourhood's order.
    const std::vector<uint8_t> nh(4, 1);
    PlanCall call = call_with(IPT_SINGLE, 1, 9, nh, 1, 4);
    const MorphologyPlan p = plan_imdilate(call.args());
    EXPECT_EQ(p.origin_row, 0);
    EXPECT_EQ(p.origin_col, 1);
    EXPECT_EQ(p.members, (std::vector<MorphMember>{{0, 1, 0}, {0, 0, 0}, {0, -1, 0}, {0, -2, 0}}));
    expect_extent(p, 0, 0, -2, 1);
    EXPECT_TRUE(p.rectangle);
    const Offsets row = {{0, -2}, {0, -1}, {0, 0}, {0, 1}};
    EXPECT_EQ(p.offsets, row);
    EXPECT_EQ(p.factors, (std::vector<Offsets>{row}));  // a line: one factor
}

TEST(ImdilatePlan, EvenSquareSplitsIntoRowAndColumn) {
    // 2x2: origin (1, 1) 1-based, members (0,0) (0,1) (1,0) (1,1) reflected.
    const std::vector<uint8_t> nh(4, 1);
    PlanCall call = call_with(IPT_INT16, 6, 6, nh, 2, 2);
    const MorphologyPlan p = plan_imdilate(call.args());
    EXPECT_EQ(p.origin_row, 0);
    EXPECT_EQ(p.origin_col, 0);
    EXPECT_EQ(p.members, (std::vector<MorphMember>{{0, 0, 0}, {0, -1, 0}, {-1, 0, 0}, {-1, -1, 0}}));
    expect_extent(p, -1, 0, -1, 0);
    EXPECT_TRUE(p.rectangle);
    EXPECT_EQ(p.offsets, (Offsets{{-1, -1}, {-1, 0}, {0, -1}, {0, 0}}));
    EXPECT_EQ(p.factors, (std::vector<Offsets>{{{0, -1}, {0, 0}}, {{-1, 0}, {0, 0}}}));
}

TEST(ImdilatePlan, ColumnNeighbourhood) {
    // 3x1: origin row 2 (1-based); reflected members 1, 0, -1.
    const std::vector<uint8_t> nh(3, 1);
    PlanCall call = call_with(IPT_UINT16, 5, 1, nh, 3, 1);
    const MorphologyPlan p = plan_imdilate(call.args());
    EXPECT_EQ(p.members, (std::vector<MorphMember>{{1, 0, 0}, {0, 0, 0}, {-1, 0, 0}}));
    EXPECT_EQ(p.factors, (std::vector<Offsets>{{{-1, 0}, {0, 0}, {1, 0}}}));
}

TEST(ImdilatePlan, OriginOutsideTheMembers) {
    // [1 0 0]: origin column 2, the member at column 1 is b - origin = -1,
    // reflected +1: B(p) = A(p + (0, 1)).
    const std::vector<uint8_t> nh = {1, 0, 0};
    PlanCall call = call_with(IPT_DOUBLE, 3, 4, nh, 1, 3);
    const MorphologyPlan p = plan_imdilate(call.args());
    EXPECT_EQ(p.members, (std::vector<MorphMember>{{0, 1, 0}}));
    expect_extent(p, 0, 0, 1, 1);
    EXPECT_TRUE(p.rectangle);
    EXPECT_EQ(p.factors, (std::vector<Offsets>{{{0, 1}}}));
}

TEST(ImdilatePlan, NoMembersPadsEverything) {
    const std::vector<uint8_t> none(9, 0);
    PlanCall call = call_with(IPT_UINT8, 4, 4, none, 3, 3);
    const MorphologyPlan p = plan_imdilate(call.args());
    EXPECT_TRUE(p.flat);
    EXPECT_TRUE(p.members.empty());
    EXPECT_TRUE(p.offsets.empty());
    EXPECT_TRUE(p.factors.empty());
    EXPECT_FALSE(p.rectangle);
    expect_extent(p, 0, 0, 0, 0);
    EXPECT_EQ(p.pad, 0.0);

    PlanCall empty = call_with(IPT_DOUBLE, 4, 4, {}, 0, 0);
    const MorphologyPlan e = plan_imdilate(empty.args());
    EXPECT_TRUE(e.members.empty());
    EXPECT_TRUE(e.factors.empty());
    EXPECT_EQ(e.pad, -kInf);
}

TEST(ImdilatePlan, PadIsTheLowestValueOfEveryClass) {
    const std::vector<uint8_t> nh(9, 1);
    const std::pair<int32_t, double> cases[] = {
        {IPT_LOGICAL, 0},     {IPT_UINT8, 0},  {IPT_UINT16, 0},     {IPT_INT16, -32768},
        {IPT_INT32, -2147483648.0}, {IPT_UINT32, 0}, {IPT_SINGLE, -kInf}, {IPT_DOUBLE, -kInf},
    };
    for (const auto& [dtype, pad] : cases) {
        PlanCall call = call_with(dtype, 3, 3, nh, 3, 3);
        const MorphologyPlan p = plan_imdilate(call.args());
        EXPECT_EQ(p.dtype, dtype);
        EXPECT_EQ(p.pad, pad) << "class " << dtype;
        EXPECT_TRUE(p.flat);
        EXPECT_FALSE(p.round_to_class);
    }
}

TEST(ImdilatePlan, NonFlatMembersCarryTheHeights) {
    // 1x3 with heights [1 2 3]: columns 0, 1, 2 are b - origin = -1, 0, 1,
    // reflected 1, 0, -1, each adding its own height.
    const std::vector<uint8_t> nh = {1, 1, 1};
    const double h[] = {1, 2, 3};
    for (int32_t dtype : {IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_UINT32, IPT_SINGLE, IPT_DOUBLE}) {
        PlanCall call = call_with(dtype, 2, 7, nh, 1, 3);
        call.image("heights", IPT_DOUBLE, 1, 3, 1, h);
        const MorphologyPlan p = plan_imdilate(call.args());
        EXPECT_FALSE(p.flat);
        EXPECT_EQ(p.round_to_class, dtype != IPT_DOUBLE);
        EXPECT_EQ(p.members, (std::vector<MorphMember>{{0, 1, 1}, {0, 0, 2}, {0, -1, 3}}));
        EXPECT_TRUE(p.offsets.empty());
        EXPECT_TRUE(p.factors.empty());
    }
}

TEST(ImdilatePlan, HeightsCountOnlyWhereTheNeighbourhoodIsSet) {
    // Outside the neighbourhood a height (even NaN) means nothing: flat.
    const std::vector<uint8_t> nh = {1, 0, 1};
    const double h[] = {0, std::numeric_limits<double>::quiet_NaN(), 0};
    PlanCall call = call_with(IPT_LOGICAL, 3, 3, nh, 1, 3);
    call.image("heights", IPT_DOUBLE, 1, 3, 1, h);
    const MorphologyPlan p = plan_imdilate(call.args());
    EXPECT_TRUE(p.flat);
    EXPECT_EQ(p.members, (std::vector<MorphMember>{{0, 1, 0}, {0, -1, 0}}));
    EXPECT_FALSE(p.rectangle);
    // Two points two apart: a periodic line, one factor.
    EXPECT_EQ(p.factors, (std::vector<Offsets>{{{0, -1}, {0, 1}}}));
}

TEST(ImdilatePlan, BlockInsideALargerNeighbourhoodIsARectangle) {
    // [1 1 0; 1 1 0; 0 0 0]: origin (1, 1) 0-based; members b - origin are
    // (-1,-1) (-1,0) (0,-1) (0,0), reflected (1,1) (1,0) (0,1) (0,0).
    const std::vector<uint8_t> nh = {1, 1, 0, 1, 1, 0, 0, 0, 0};
    PlanCall call = call_with(IPT_DOUBLE, 5, 5, nh, 3, 3);
    const MorphologyPlan p = plan_imdilate(call.args());
    EXPECT_EQ(p.members, (std::vector<MorphMember>{{1, 1, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 0}}));
    EXPECT_TRUE(p.rectangle);
    EXPECT_EQ(p.factors, (std::vector<Offsets>{{{0, 0}, {0, 1}}, {{0, 0}, {1, 0}}}));
}

TEST(ImdilatePlan, IrregularNeighbourhoodIsOneFactor) {
    // [1 1; 1 0]: origin (0, 0); reflected members (0,0) (0,-1) (-1,0).
    const std::vector<uint8_t> nh = {1, 1, 1, 0};
    PlanCall call = call_with(IPT_UINT8, 5, 5, nh, 2, 2);
    const MorphologyPlan p = plan_imdilate(call.args());
    EXPECT_FALSE(p.rectangle);
    const Offsets sorted = {{-1, 0}, {0, -1}, {0, 0}};
    EXPECT_EQ(p.offsets, sorted);
    EXPECT_EQ(p.factors, (std::vector<Offsets>{sorted}));
}

TEST(ImdilatePlan, DiamondNeighbourhoodTakesMatlabsFactors) {
    // strel('diamond', 3) as a neighbourhood: a 3x3 plus, then the four axis
    // points at distance 1 twice (2^0, and 3 - 2^1).
    std::vector<uint8_t> nh(49, 0);
    for (int r = -3; r <= 3; ++r)
        for (int c = -3; c <= 3; ++c)
            if (std::abs(r) + std::abs(c) <= 3) nh[static_cast<size_t>((r + 3) * 7 + c + 3)] = 1;
    PlanCall call = call_with(IPT_SINGLE, 9, 9, nh, 7, 7);
    const MorphologyPlan p = plan_imdilate(call.args());
    EXPECT_EQ(p.members.size(), 25u);
    EXPECT_FALSE(p.rectangle);
    const Offsets plus = {{-1, 0}, {0, -1}, {0, 0}, {0, 1}, {1, 0}};
    const Offsets axis = {{-1, 0}, {0, -1}, {0, 1}, {1, 0}};
    EXPECT_EQ(p.factors, (std::vector<Offsets>{plus, axis, axis}));
}

TEST(ImdilatePlan, Errors) {
    const std::vector<uint8_t> nh = {1, 1, 1};
    const double nan_h[] = {0, std::numeric_limits<double>::quiet_NaN(), 0};
    PlanCall with_nan = call_with(IPT_DOUBLE, 3, 3, nh, 1, 3);
    with_nan.image("heights", IPT_DOUBLE, 1, 3, 1, nan_h);
    EXPECT_EQ(error_of(with_nan), "ipt.imdilate: parameter 'heights' must not contain NaN");

    const double h[] = {0, 1, 0};
    PlanCall logical = call_with(IPT_LOGICAL, 3, 3, nh, 1, 3);
    logical.image("heights", IPT_DOUBLE, 1, 3, 1, h);
    EXPECT_EQ(error_of(logical),
              "ipt.imdilate: parameter 'heights' must be zero for a logical image "
              "(binary morphology needs a flat structuring element)");

    // Zero heights on a logical image are a flat SE: accepted.
    const double zero[] = {0, 0, 0};
    PlanCall flat = call_with(IPT_LOGICAL, 3, 3, nh, 1, 3);
    flat.image("heights", IPT_DOUBLE, 1, 3, 1, zero);
    EXPECT_EQ(error_of(flat), "");
}

}  // namespace
