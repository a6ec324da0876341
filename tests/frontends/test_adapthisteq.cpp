// SPDX-License-Identifier: Apache-2.0
// ipt.adapthisteq's front-end: padding to even tiles, the clip count, the
// blend weights along a side, the clipping loops and the value bins, each
// computed by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "common/ops/adapthisteq.hpp"
#include "plan_call.hpp"

namespace {

using namespace ipt::frontend;
using ipt::test::PlanCall;

AdapthisteqPlan plan_of(int32_t dtype, int64_t rows, int64_t cols, double tr, double tc, double clip = 0.01,
                        int64_t nbins = 256) {
    PlanCall call("ipt.adapthisteq");
    call.image("I", dtype, rows, cols);
    call.floats("NumTiles", {tr, tc}).number("ClipLimit", clip).integer("NBins", nbins);
    return plan_adapthisteq(call.args());
}

TEST(AdapthisteqPlan, PaddingToEvenTiles) {
    // 16 rows in 2 tiles of 8: no padding; 15 in 2: tiles of 8, 1 pad row
    // after; 18 in 2: tiles of 9 are odd, 2 more rows, one before and one after.
    const AdapthisteqPlan a = plan_of(IPT_UINT8, 16, 15, 2, 2);
    EXPECT_EQ(a.H, 16);
    EXPECT_EQ(a.tile_h, 8);
    EXPECT_EQ(a.pad_top, 0);
    EXPECT_EQ(a.W, 16);
    EXPECT_EQ(a.tile_w, 8);
    EXPECT_EQ(a.pad_left, 0);  // floor(1/2)
    const AdapthisteqPlan b = plan_of(IPT_UINT8, 18, 17, 2, 3);
    EXPECT_EQ(b.H, 20);
    EXPECT_EQ(b.tile_h, 10);
    EXPECT_EQ(b.pad_top, 1);
    // 17 in 3: tiles of 6 (18 columns), even: pad 1, none before.
    EXPECT_EQ(b.W, 18);
    EXPECT_EQ(b.tile_w, 6);
    EXPECT_EQ(b.pad_left, 0);
    // 7 in 3: tiles of 3 are odd, so 4: 12 columns, 5 padding, 2 before.
    const AdapthisteqPlan c = plan_of(IPT_DOUBLE, 7, 7, 3, 3);
    EXPECT_EQ(c.W, 12);
    EXPECT_EQ(c.tile_w, 4);
    EXPECT_EQ(c.pad_left, 2);
}

TEST(AdapthisteqPlan, ClipCount) {
    // 64-pixel tiles: ceil(64/256) = 1 plus round(0.01*63) = 1.
    EXPECT_EQ(plan_of(IPT_UINT8, 16, 16, 2, 2).clip, 2);
    EXPECT_EQ(plan_of(IPT_UINT8, 16, 16, 2, 2, 1).clip, 64);
    // ceil(64/10) = 7, then round(0.5*57) = 29 (28.5 rounds away).
    EXPECT_EQ(plan_of(IPT_UINT8, 16, 16, 2, 2, 0.5, 10).clip, 36);
}

TEST(AdapthisteqPlan, ClippingLoops) {
    // 4 bins, clip 3: excess 5 + 1 = 6, floor(6/4) = 1 to each bin at or
    // below 3 - 1 = 2 (the two clipped bins stay at 3): {3 1 3 1}, 4 left.
    // Steps of floor(4/4) = 1 from bin 0 fill bins 1 and 3 to 2 (2 left);
    // then steps of floor(4/2) = 2 from bin 1 fill bins 1 and 3 to 3.
    std::vector<int64_t> h = {8, 0, 4, 0};
    adapthisteq_clip(h, 3);
    EXPECT_EQ(h, (std::vector<int64_t>{3, 3, 3, 3}));
    // 8 bins, clip 2, one bin of 9: excess 7, none per bin; steps of
    // floor(8/7) = 1 from bin 0 give bins 1..7 one each.
    std::vector<int64_t> g = {9, 0, 0, 0, 0, 0, 0, 0};
    adapthisteq_clip(g, 2);
    EXPECT_EQ(g, (std::vector<int64_t>{2, 1, 1, 1, 1, 1, 1, 1}));
}

TEST(AdapthisteqPlan, BlendWeightsAlongASide) {
    // 16 pixels in 2 tiles of 8: the first 4 use tile 0 alone, the middle 8
    // blend tiles 0 and 1, the last 4 use tile 1 alone.
    int64_t t0, t1, w, n;
    clahe_axis(3, 8, 2, 16, t0, t1, w, n);
    EXPECT_EQ((std::vector<int64_t>{t0, t1, w, n}), (std::vector<int64_t>{0, 0, 3, 4}));
    clahe_axis(4, 8, 2, 16, t0, t1, w, n);
    EXPECT_EQ((std::vector<int64_t>{t0, t1, w, n}), (std::vector<int64_t>{0, 1, 0, 8}));
    clahe_axis(11, 8, 2, 16, t0, t1, w, n);
    EXPECT_EQ((std::vector<int64_t>{t0, t1, w, n}), (std::vector<int64_t>{0, 1, 7, 8}));
    clahe_axis(12, 8, 2, 16, t0, t1, w, n);
    EXPECT_EQ((std::vector<int64_t>{t0, t1, w, n}), (std::vector<int64_t>{1, 1, 0, 4}));
    // (1*(1*10 + 3*20) + 3*(1*30 + 3*40)) / 16 = (70 + 450)/16 = 32.5
    EXPECT_EQ(adapthisteq_blend(10, 20, 30, 40, 3, 4, 3, 4), 32.5);
}

TEST(AdapthisteqPlan, ValueBinsOfTheFullRange) {
    // uint8 with 256 bins: every value is its own bin; with 2 bins, 0..127
    // go to bin 0 and 128..255 to bin 1 (round(v/255)).
    const AdapthisteqPlan p = plan_of(IPT_UINT8, 16, 16, 2, 2);
    const std::vector<int32_t> b = adapthisteq_value_bins(p, clahe_range(p, 0, 0));
    ASSERT_EQ(b.size(), 256u);
    for (int k = 0; k < 256; ++k) EXPECT_EQ(b[k], k);
    const AdapthisteqPlan q = plan_of(IPT_UINT8, 16, 16, 2, 2, 0.01, 2);
    const std::vector<int32_t> c = adapthisteq_value_bins(q, clahe_range(q, 0, 0));
    EXPECT_EQ(c[127], 0);
    EXPECT_EQ(c[128], 1);
}

}  // namespace

namespace {

AdapthisteqPlan plan_with_alpha(const char* distribution, bool give_alpha) {
    PlanCall call("ipt.adapthisteq");
    call.image("I", IPT_UINT8, 16, 16);
    call.text("Distribution", distribution);
    if (give_alpha) call.number("Alpha", 0.9);
    return plan_adapthisteq(call.args());
}

}  // namespace

// Alpha shapes only the rayleigh and exponential targets: given with
// uniform it is refused, and absent it is 0.4.
TEST(AdapthisteqPlan, AlphaOnlyWithRayleighOrExponential) {
    EXPECT_EQ(plan_with_alpha("rayleigh", false).alpha, 0.4);
    EXPECT_EQ(plan_with_alpha("exponential", true).alpha, 0.9);
    EXPECT_EQ(plan_with_alpha("uniform", false).alpha, 0.4);
    try {
        plan_with_alpha("uniform", true);
        ADD_FAILURE() << "Alpha accepted with the uniform distribution";
    } catch (const ipt::plugin::Error& e) {
        EXPECT_EQ(e.status, IPT_ERR_INVALID_ARGUMENT);
        EXPECT_NE(e.message.find("parameter 'Alpha'"), std::string::npos) << e.message;
    }
}
