// SPDX-License-Identifier: Apache-2.0
// ipt.imlincomb's front-end: the terms (images given, in order, gaps
// skipped), the coefficients and the offset, and the output class
// ('default' is the class of A1, double for logical A1).
#include <gtest/gtest.h>

#include <vector>

#include "common/ops/imlincomb.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::ImlincombPlan;
using ipt::frontend::plan_imlincomb;
using ipt::test::PlanCall;

TEST(ImlincombPlan, OneCoefficientPerImage) {
    PlanCall call("ipt.imlincomb");
    call.floats("K", {0.5, -0.5}).image("A1", IPT_UINT8, 3, 4).image("A2", IPT_UINT8, 3, 4);
    const ImlincombPlan p = plan_imlincomb(call.args());
    ASSERT_EQ(p.images.size(), 2u);
    EXPECT_EQ(p.k, (std::vector<double>{0.5, -0.5}));
    EXPECT_FALSE(p.has_offset);
    EXPECT_EQ(p.offset, 0.0);
    EXPECT_EQ(p.in_dtype, IPT_UINT8);
    EXPECT_EQ(p.out_dtype, IPT_UINT8);
    EXPECT_EQ(p.rows, 3);
    EXPECT_EQ(p.cols, 4);
    EXPECT_EQ(p.numel, 12);
}

TEST(ImlincombPlan, OneMoreValueIsTheOffset) {
    PlanCall call("ipt.imlincomb");
    call.floats("K", {1, -1, 128}).image("A1", IPT_UINT8, 2, 2).image("A2", IPT_UINT8, 2, 2);
    const ImlincombPlan p = plan_imlincomb(call.args());
    EXPECT_EQ(p.k, (std::vector<double>{1, -1}));
    EXPECT_TRUE(p.has_offset);
    EXPECT_EQ(p.offset, 128.0);
    // A single image with an offset.
    PlanCall one("ipt.imlincomb");
    one.floats("K", {2, -300.5}).image("A1", IPT_INT16, 1, 1);
    const ImlincombPlan q = plan_imlincomb(one.args());
    EXPECT_EQ(q.k, (std::vector<double>{2}));
    EXPECT_EQ(q.offset, -300.5);
    EXPECT_EQ(q.numel, 1);
}

TEST(ImlincombPlan, ImagesWithGapsAreTakenInOrder) {
    PlanCall call("ipt.imlincomb");
    call.floats("K", {1, 2, 3}).image("A1", IPT_DOUBLE, 2, 3).image("A3", IPT_DOUBLE, 2, 3).image("A8", IPT_DOUBLE, 2, 3);
    auto args = call.args();
    const ImlincombPlan p = plan_imlincomb(args);
    ASSERT_EQ(p.images.size(), 3u);
    EXPECT_EQ(p.images[0], args.image("A1"));
    EXPECT_EQ(p.images[1], args.image("A3"));
    EXPECT_EQ(p.images[2], args.image("A8"));
    EXPECT_FALSE(p.has_offset);
}

TEST(ImlincombPlan, DefaultOutputClassIsTheClassOfA1) {
    for (int32_t d : {IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_UINT32, IPT_SINGLE, IPT_DOUBLE}) {
        PlanCall call("ipt.imlincomb");
        call.floats("K", {1}).image("A1", d, 2, 2);
        EXPECT_EQ(plan_imlincomb(call.args()).out_dtype, d) << d;
    }
    PlanCall logical("ipt.imlincomb");
    logical.floats("K", {1, 1}).image("A1", IPT_LOGICAL, 2, 2).image("A2", IPT_LOGICAL, 2, 2);
    const ImlincombPlan p = plan_imlincomb(logical.args());
    EXPECT_EQ(p.in_dtype, IPT_LOGICAL);
    EXPECT_EQ(p.out_dtype, IPT_DOUBLE);
}

TEST(ImlincombPlan, ExplicitOutputClasses) {
    const std::pair<const char*, int32_t> classes[] = {
        {"uint8", IPT_UINT8},   {"uint16", IPT_UINT16}, {"int16", IPT_INT16},   {"int32", IPT_INT32},
        {"uint32", IPT_UINT32}, {"single", IPT_SINGLE}, {"double", IPT_DOUBLE}, {"default", IPT_INT16}};
    for (const auto& [name, dtype] : classes) {
        PlanCall call("ipt.imlincomb");
        call.floats("K", {0.5}).image("A1", IPT_INT16, 3, 3).text("outclass", name);
        EXPECT_EQ(plan_imlincomb(call.args()).out_dtype, dtype) << name;
    }
}

TEST(ImlincombPlan, ShapesAndChannels) {
    PlanCall rgb("ipt.imlincomb");
    rgb.floats("K", {1, 1}).image("A1", IPT_UINT8, 17, 23, 3).image("A2", IPT_UINT8, 17, 23, 3);
    const ImlincombPlan p = plan_imlincomb(rgb.args());
    EXPECT_EQ(p.channels, 3);
    EXPECT_EQ(p.numel, 17 * 23 * 3);
    PlanCall empty("ipt.imlincomb");
    empty.floats("K", {1}).image("A1", IPT_DOUBLE, 0, 5);
    EXPECT_EQ(plan_imlincomb(empty.args()).numel, 0);
    PlanCall row("ipt.imlincomb");
    row.floats("K", {1}).image("A1", IPT_DOUBLE, 1, 37);
    EXPECT_EQ(plan_imlincomb(row.args()).numel, 37);
    PlanCall col("ipt.imlincomb");
    col.floats("K", {1}).image("A1", IPT_DOUBLE, 41, 1);
    EXPECT_EQ(plan_imlincomb(col.args()).rows, 41);
}

}  // namespace
