// SPDX-License-Identifier: Apache-2.0
// ipt.graythresh's front-end: every element counts (channels too), an empty
// image needs no histogram and gives 0, and each value's bin is its im2uint8
// value (hand-computed per class).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "common/ops/graythresh.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::graythresh_bin;
using ipt::frontend::GraythreshPlan;
using ipt::frontend::plan_graythresh;
using ipt::test::PlanCall;

GraythreshPlan plan_of(int32_t dtype, int64_t rows, int64_t cols, int64_t channels = 1) {
    PlanCall call("ipt.graythresh");
    call.image("I", dtype, rows, cols, channels);
    return plan_graythresh(call.args());
}

TEST(GraythreshPlan, SizesAndEmpty) {
    const GraythreshPlan p = plan_of(IPT_UINT8, 3, 4, 3);
    EXPECT_TRUE(p.needs_histogram);
    EXPECT_EQ(p.plane, 12);
    EXPECT_EQ(p.channels, 3);
    EXPECT_EQ(p.out_dtype, IPT_DOUBLE);
    const GraythreshPlan e = plan_of(IPT_DOUBLE, 0, 5);
    EXPECT_FALSE(e.needs_histogram);
    const std::vector<uint64_t> none(256, 0);
    const auto r = ipt::frontend::graythresh_result(e, none.data());
    EXPECT_EQ(r.T, 0.0);
    EXPECT_EQ(r.EM, 0.0);
}

TEST(GraythreshPlan, BinIsTheIm2uint8Value) {
    EXPECT_EQ(graythresh_bin<uint8_t>(200), 200);
    EXPECT_EQ(graythresh_bin<uint16_t>(128), 0);    // 128/257 < 0.5
    EXPECT_EQ(graythresh_bin<uint16_t>(129), 1);
    EXPECT_EQ(graythresh_bin<uint16_t>(65535), 255);
    EXPECT_EQ(graythresh_bin<int16_t>(-32768), 0);
    EXPECT_EQ(graythresh_bin<int16_t>(0), 128);     // 32768/257 = 127.50...
    EXPECT_EQ(graythresh_bin<int16_t>(32767), 255);
    EXPECT_EQ(graythresh_bin<double>(0.5), 128);    // 127.5 rounds away from zero
    EXPECT_EQ(graythresh_bin<double>(-0.2), 0);
    EXPECT_EQ(graythresh_bin<double>(1.7), 255);
    EXPECT_EQ(graythresh_bin<double>(std::numeric_limits<double>::quiet_NaN()), 0);
    EXPECT_EQ(graythresh_bin<float>(0.5f), 128);
    EXPECT_EQ(graythresh_bin<float>(std::numeric_limits<float>::infinity()), 255);
}

}  // namespace
