// SPDX-License-Identifier: Apache-2.0
// ipt.imhist's front-end: the default bin count (256, 2 for logical), the
// logical rule, and the bin locations per class (linspace over the class's
// range, hand-computed). Also the shared binning rule for bin counts other
// than the class's own (imhist's scaled integer rule).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "common/intensity.hpp"
#include "common/ops/imhist.hpp"
#include "plan_call.hpp"

namespace {

using ipt::common::histogram_bin;
using ipt::frontend::ImhistPlan;
using ipt::frontend::plan_imhist;
using ipt::test::PlanCall;

ImhistPlan plan_of(int32_t dtype, int64_t n = 0, int64_t rows = 3, int64_t cols = 4, int64_t channels = 1) {
    PlanCall call("ipt.imhist");
    call.image("I", dtype, rows, cols, channels);
    if (n > 0) call.integer("n", n);
    return plan_imhist(call.args());
}

TEST(ImhistPlan, DefaultBins) {
    EXPECT_EQ(plan_of(IPT_UINT8).nbins, 256);
    EXPECT_EQ(plan_of(IPT_DOUBLE).nbins, 256);
    EXPECT_EQ(plan_of(IPT_INT16).nbins, 256);
    EXPECT_EQ(plan_of(IPT_LOGICAL).nbins, 2);
    const ImhistPlan p = plan_of(IPT_SINGLE, 10);
    EXPECT_EQ(p.nbins, 10);
    EXPECT_EQ(p.out_dtype, IPT_DOUBLE);
    EXPECT_EQ(p.out_rows, 10);
    EXPECT_EQ(p.out_cols, 1);
}

TEST(ImhistPlan, LogicalTakesOnlyTwoBins) {
    EXPECT_EQ(plan_of(IPT_LOGICAL, 2).nbins, 2);
    try {
        plan_of(IPT_LOGICAL, 3);
        ADD_FAILURE() << "logical with 3 bins accepted";
    } catch (const ipt::plugin::Error& e) {
        EXPECT_NE(e.message.find("ipt.imhist: parameter 'n'"), std::string::npos) << e.message;
    }
}

TEST(ImhistPlan, EmptyAndRgbImages) {
    EXPECT_EQ(plan_of(IPT_UINT8, 0, 0, 0).out_rows, 256);
    const ImhistPlan rgb = plan_of(IPT_UINT8, 16, 2, 5, 3);
    EXPECT_EQ(rgb.plane, 10);
    EXPECT_EQ(rgb.channels, 3);
    EXPECT_EQ(rgb.out_rows, 16);
}

TEST(ImhistPlan, BinLocationsSpanTheClassRange) {
    const ImhistPlan u8 = plan_of(IPT_UINT8);
    for (int k = 0; k < 256; ++k) EXPECT_EQ(u8.bin_locations[k], k);
    EXPECT_EQ(plan_of(IPT_UINT8, 4).bin_locations, (std::vector<double>{0, 85, 170, 255}));
    EXPECT_EQ(plan_of(IPT_DOUBLE, 5).bin_locations, (std::vector<double>{0, 0.25, 0.5, 0.75, 1}));
    EXPECT_EQ(plan_of(IPT_LOGICAL).bin_locations, (std::vector<double>{0, 1}));
    // int16: -32768 + k*65535/255 = -32768 + 257k.
    const ImhistPlan i16 = plan_of(IPT_INT16);
    EXPECT_EQ(i16.bin_locations[0], -32768);
    EXPECT_EQ(i16.bin_locations[1], -32511);
    EXPECT_EQ(i16.bin_locations[128], -32768 + 257 * 128);
    EXPECT_EQ(i16.bin_locations[255], 32767);
    const ImhistPlan u16 = plan_of(IPT_UINT16, 65536);
    EXPECT_EQ(u16.bin_locations[1], 1);
    EXPECT_EQ(u16.bin_locations[65535], 65535);
    EXPECT_EQ(plan_of(IPT_INT32, 2).bin_locations, (std::vector<double>{-2147483648.0, 2147483647.0}));
    // linspace(lo, hi, 1) is hi.
    EXPECT_EQ(plan_of(IPT_UINT8, 1).bin_locations, (std::vector<double>{255}));
    EXPECT_EQ(plan_of(IPT_DOUBLE, 1).bin_locations, (std::vector<double>{1}));
    // 0.1 is not a multiple of a power of two: k*(1-0)/10 as linspace does it.
    const ImhistPlan d11 = plan_of(IPT_DOUBLE, 11);
    for (int k = 0; k <= 10; ++k) EXPECT_EQ(d11.bin_locations[k], k * 1.0 / 10) << k;
}

TEST(ImhistBins, IntegerClassesScaleForOtherBinCounts) {
    // uint8 into 4 bins: trunc(v*3/255 + 0.5).
    EXPECT_EQ(histogram_bin<uint8_t>(0, 4), 0);
    EXPECT_EQ(histogram_bin<uint8_t>(42, 4), 0);   // 0.494 + 0.5
    EXPECT_EQ(histogram_bin<uint8_t>(43, 4), 1);   // 0.506 + 0.5
    EXPECT_EQ(histogram_bin<uint8_t>(127, 4), 1);  // 1.494 + 0.5
    EXPECT_EQ(histogram_bin<uint8_t>(128, 4), 2);  // 1.506 + 0.5
    EXPECT_EQ(histogram_bin<uint8_t>(255, 4), 3);
    EXPECT_EQ(histogram_bin<uint8_t>(200, 256), 200);
    EXPECT_EQ(histogram_bin<uint8_t>(255, 1000), 999);
    EXPECT_EQ(histogram_bin<uint8_t>(1, 1000), 4);  // 3.92 + 0.5
    // uint16 into 256 bins: trunc(v*255/65535 + 0.5) = round(v/257).
    EXPECT_EQ(histogram_bin<uint16_t>(128, 256), 0);
    EXPECT_EQ(histogram_bin<uint16_t>(129, 256), 1);
    EXPECT_EQ(histogram_bin<uint16_t>(65535, 256), 255);
    EXPECT_EQ(histogram_bin<uint16_t>(1234, 65536), 1234);
    // int16 goes through uint16.
    EXPECT_EQ(histogram_bin<int16_t>(-32768, 256), 0);
    EXPECT_EQ(histogram_bin<int16_t>(0, 256), 128);  // 32768/257 = 127.5019...
    EXPECT_EQ(histogram_bin<int16_t>(32767, 256), 255);
    EXPECT_EQ(histogram_bin<int16_t>(-1, 65536), 32767);
    // One bin holds everything.
    EXPECT_EQ(histogram_bin<uint16_t>(65535, 1), 0);
    EXPECT_EQ(histogram_bin<double>(std::numeric_limits<double>::infinity(), 1), 0);
}

}  // namespace
