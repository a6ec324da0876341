// SPDX-License-Identifier: Apache-2.0
// ipt.imerode's plan (backends/common/ops/imerode.hpp): imdilate's rules
// without the reflection, the heights subtracted, and the pad the highest
// value of the class; every expected value computed by hand.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "common/ops/imerode.hpp"
#include "plan_call.hpp"

namespace {

using ipt::common::StrelOffset;
using ipt::frontend::ImerodePlan;
using ipt::frontend::MorphMember;
using ipt::frontend::plan_imerode;
using ipt::test::PlanCall;
using Offsets = std::vector<StrelOffset>;

constexpr double kInf = std::numeric_limits<double>::infinity();

PlanCall call_with(int32_t dtype, int64_t rows, int64_t cols, const std::vector<uint8_t>& nhood, int64_t nr,
                   int64_t nc) {
    PlanCall call("ipt.imerode");
    call.image("A", dtype, rows, cols).image("nhood", IPT_LOGICAL, nr, nc, 1, nhood.data());
    return call;
}

std::string error_of(PlanCall& call) {
    try {
        (void)plan_imerode(call.args());
    } catch (const ipt::plugin::Error& e) {
        EXPECT_EQ(e.status, IPT_ERR_INVALID_ARGUMENT);
        return e.what();
    }
    return "";
}

TEST(ImerodePlan, OneByOne) {
    const std::vector<uint8_t> nh = {1};
    PlanCall call = call_with(IPT_DOUBLE, 1, 1, nh, 1, 1);
    const ImerodePlan p = plan_imerode(call.args());
    EXPECT_FALSE(p.dilate);
    EXPECT_EQ(p.rows, 1);
    EXPECT_EQ(p.cols, 1);
    EXPECT_EQ(p.members, (std::vector<MorphMember>{{0, 0, 0}}));
    EXPECT_EQ(p.factors, (std::vector<Offsets>{{{0, 0}}}));
    EXPECT_EQ(p.pad, kInf);
}

TEST(ImerodePlan, EmptyImage) {
    const std::vector<uint8_t> nh(9, 1);
    PlanCall call = call_with(IPT_UINT8, 0, 7, nh, 3, 3);
    const ImerodePlan p = plan_imerode(call.args());
    EXPECT_EQ(p.rows, 0);
    EXPECT_EQ(p.cols, 7);
    EXPECT_EQ(p.members.size(), 9u);
}

TEST(ImerodePlan, EvenRowIsNotReflected) {
    // 1x4: origin column 2 (1-based); members b - origin = -1, 0, 1, 2.
    const std::vector<uint8_t> nh(4, 1);
    PlanCall call = call_with(IPT_INT32, 1, 9, nh, 1, 4);
    const ImerodePlan p = plan_imerode(call.args());
    EXPECT_EQ(p.origin_col, 1);
    EXPECT_EQ(p.members, (std::vector<MorphMember>{{0, -1, 0}, {0, 0, 0}, {0, 1, 0}, {0, 2, 0}}));
    EXPECT_EQ(p.dc_min, -1);
    EXPECT_EQ(p.dc_max, 2);
    EXPECT_TRUE(p.rectangle);
    EXPECT_EQ(p.factors, (std::vector<Offsets>{{{0, -1}, {0, 0}, {0, 1}, {0, 2}}}));
}

TEST(ImerodePlan, EvenRectangle) {
    // 2x3: origin (1, 2) 1-based; members rows 0..1, columns -1..1.
    const std::vector<uint8_t> nh(6, 1);
    PlanCall call = call_with(IPT_UINT16, 4, 4, nh, 2, 3);
    const ImerodePlan p = plan_imerode(call.args());
    EXPECT_EQ(p.origin_row, 0);
    EXPECT_EQ(p.origin_col, 1);
    EXPECT_EQ(p.dr_min, 0);
    EXPECT_EQ(p.dr_max, 1);
    EXPECT_EQ(p.dc_min, -1);
    EXPECT_EQ(p.dc_max, 1);
    EXPECT_TRUE(p.rectangle);
    EXPECT_EQ(p.factors, (std::vector<Offsets>{{{0, -1}, {0, 0}, {0, 1}}, {{0, 0}, {1, 0}}}));
}

TEST(ImerodePlan, OriginOutsideTheMembers) {
    // [1 0 0]: the member is b - origin = -1, as given: B(p) = A(p + (0, -1)).
    const std::vector<uint8_t> nh = {1, 0, 0};
    PlanCall call = call_with(IPT_SINGLE, 3, 4, nh, 1, 3);
    const ImerodePlan p = plan_imerode(call.args());
    EXPECT_EQ(p.members, (std::vector<MorphMember>{{0, -1, 0}}));
    EXPECT_EQ(p.factors, (std::vector<Offsets>{{{0, -1}}}));
}

TEST(ImerodePlan, PadIsTheHighestValueOfEveryClass) {
    const std::vector<uint8_t> nh(9, 1);
    const std::pair<int32_t, double> cases[] = {
        {IPT_LOGICAL, 1},          {IPT_UINT8, 255},          {IPT_UINT16, 65535}, {IPT_INT16, 32767},
        {IPT_INT32, 2147483647.0}, {IPT_UINT32, 4294967295.0}, {IPT_SINGLE, kInf},  {IPT_DOUBLE, kInf},
    };
    for (const auto& [dtype, pad] : cases) {
        PlanCall call = call_with(dtype, 2, 2, nh, 3, 3);
        const ImerodePlan p = plan_imerode(call.args());
        EXPECT_EQ(p.dtype, dtype);
        EXPECT_EQ(p.pad, pad) << "class " << dtype;
    }
}

TEST(ImerodePlan, NoMembers) {
    const std::vector<uint8_t> none(6, 0);
    PlanCall call = call_with(IPT_LOGICAL, 3, 3, none, 2, 3);
    const ImerodePlan p = plan_imerode(call.args());
    EXPECT_TRUE(p.members.empty());
    EXPECT_TRUE(p.factors.empty());
    EXPECT_EQ(p.pad, 1.0);
}

TEST(ImerodePlan, NonFlatSubtractsTheHeights) {
    // 2x2 with heights [1 2; 3 4]: origin (0, 0); members as given, each
    // adding minus its height.
    const std::vector<uint8_t> nh(4, 1);
    const double h[] = {1, 2, 3, 4};
    PlanCall call = call_with(IPT_UINT8, 3, 3, nh, 2, 2);
    call.image("heights", IPT_DOUBLE, 2, 2, 1, h);
    const ImerodePlan p = plan_imerode(call.args());
    EXPECT_FALSE(p.flat);
    EXPECT_TRUE(p.round_to_class);
    EXPECT_EQ(p.members, (std::vector<MorphMember>{{0, 0, -1}, {0, 1, -2}, {1, 0, -3}, {1, 1, -4}}));
    EXPECT_TRUE(p.factors.empty());
    EXPECT_EQ(p.pad, 255.0);
}

TEST(ImerodePlan, ZeroHeightsAreFlat) {
    const std::vector<uint8_t> nh = {0, 1, 0, 1, 1, 1, 0, 1, 0};
    const double h[9] = {};
    PlanCall call = call_with(IPT_DOUBLE, 3, 3, nh, 3, 3);
    call.image("heights", IPT_DOUBLE, 3, 3, 1, h);
    const ImerodePlan p = plan_imerode(call.args());
    EXPECT_TRUE(p.flat);
    EXPECT_FALSE(p.round_to_class);
    EXPECT_FALSE(p.rectangle);
    // A plus of 5 is not one of MATLAB's decomposed shapes: one factor.
    const Offsets plus = {{-1, 0}, {0, -1}, {0, 0}, {0, 1}, {1, 0}};
    EXPECT_EQ(p.factors, (std::vector<Offsets>{plus}));
}

TEST(ImerodePlan, Errors) {
    const std::vector<uint8_t> nh = {1, 1};
    const double nan_h[] = {std::numeric_limits<double>::quiet_NaN(), 0};
    PlanCall with_nan = call_with(IPT_SINGLE, 3, 3, nh, 1, 2);
    with_nan.image("heights", IPT_DOUBLE, 1, 2, 1, nan_h);
    EXPECT_EQ(error_of(with_nan), "ipt.imerode: parameter 'heights' must not contain NaN");

    const double h[] = {-1, 0};
    PlanCall logical = call_with(IPT_LOGICAL, 3, 3, nh, 1, 2);
    logical.image("heights", IPT_DOUBLE, 1, 2, 1, h);
    EXPECT_EQ(error_of(logical),
              "ipt.imerode: parameter 'heights' must be zero for a logical image "
              "(binary morphology needs a flat structuring element)");
}

}  // namespace
