// SPDX-License-Identifier: Apache-2.0
// ipt.histeq's front-end: the target histogram (64 flat levels by default, n
// flat levels, or hgram scaled to numel(I)), the n/hgram rule, and the
// transformation and tables for hand-computed histograms.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common/ops/histeq.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::HisteqPlan;
using ipt::frontend::histeq_table;
using ipt::frontend::histeq_transform;
using ipt::frontend::plan_histeq;
using ipt::test::PlanCall;

HisteqPlan plan_of(int32_t dtype, int64_t rows, int64_t cols, int64_t n = 0, std::vector<double> hgram = {}) {
    PlanCall call("ipt.histeq");
    call.image("I", dtype, rows, cols);
    if (n > 0) call.integer("n", n);
    if (!hgram.empty()) call.floats("hgram", hgram);
    return plan_histeq(call.args());
}

TEST(HisteqPlan, TargetHistograms) {
    const HisteqPlan d = plan_of(IPT_UINT8, 2, 2);
    ASSERT_EQ(d.hgram.size(), 64u);
    EXPECT_EQ(d.hgram[0], 4.0 / 64);
    EXPECT_EQ(d.out_dtype, IPT_UINT8);
    EXPECT_EQ(d.t_cols, 256);
    EXPECT_EQ(plan_of(IPT_DOUBLE, 3, 1, 3).hgram, (std::vector<double>{1, 1, 1}));
    // hgram is scaled so that it sums to numel(I).
    EXPECT_EQ(plan_of(IPT_UINT8, 2, 4, 0, {1, 3}).hgram, (std::vector<double>{2, 6}));
}

TEST(HisteqPlan, NOrHgramNotBoth) {
    try {
        plan_of(IPT_UINT8, 2, 2, 4, {1, 2});
        ADD_FAILURE() << "n and hgram accepted together";
    } catch (const ipt::plugin::Error& e) {
        EXPECT_EQ(e.status, IPT_ERR_INVALID_ARGUMENT);
        EXPECT_NE(e.message.find("ipt.histeq: parameter 'hgram'"), std::string::npos) << e.message;
    }
}

// uint8 [0 0 255 255], default 64 levels: cumd(i) = i/16 (1-based i); bins 0
// and 255 hold 2 each. Every bin below 255 has cum = 2: levels 1..31 are
// more than numel*sqrt(eps) below (so count as numel), level 32 is exact:
// T = 31/63. Bin 255 (cum 4) picks level 64: T = 1.
TEST(HisteqTransform, TwoLevelsDefaultTarget) {
    const HisteqPlan p = plan_of(IPT_UINT8, 2, 2);
    std::vector<double> counts(256, 0.0);
    counts[0] = counts[255] = 2;
    const std::vector<double> T = histeq_transform(p, counts.data());
    for (int j = 0; j < 255; ++j) EXPECT_EQ(T[j], 31.0 / 63) << j;
    EXPECT_EQ(T[255], 1.0);
    const std::vector<uint8_t> t8 = histeq_table<uint8_t>(T);
    EXPECT_EQ(t8[0], 125);  // floor(255*31/63 + 0.5) = floor(125.98)
    EXPECT_EQ(t8[255], 255);
    const std::vector<uint16_t> t16 = histeq_table<uint16_t>(T);
    EXPECT_EQ(t16[0], 32247);  // floor(65535*31/63 + 0.5) = floor(32247.88)
    const std::vector<int16_t> ti16 = histeq_table<int16_t>(T);
    EXPECT_EQ(ti16[0], 32247 - 32768);
    EXPECT_EQ(ti16[255], 32767);
    EXPECT_EQ(histeq_table<float>(T)[0], static_cast<float>(31.0 / 63));
}

// double [0 0.5 1], n = 3: cumd = [1 2 3]; bins 0, 128, 255 hold 1 each.
// Bin 128: cum 2, tol 0.5: err = [-0.5 0.5 1.5], -0.5 counts as numel: level 2.
TEST(HisteqTransform, HalfBinTolerance) {
    const HisteqPlan p = plan_of(IPT_DOUBLE, 1, 3, 3);
    std::vector<double> counts(256, 0.0);
    counts[0] = counts[128] = counts[255] = 1;
    const std::vector<double> T = histeq_transform(p, counts.data());
    EXPECT_EQ(T[0], 0.0);
    EXPECT_EQ(T[127], 0.0);
    EXPECT_EQ(T[128], 0.5);
    EXPECT_EQ(T[200], 0.5);
    EXPECT_EQ(T[255], 1.0);
}

// One level: T = (1-1)/(1-1), NaN, as in MATLAB; integer tables give 0.
TEST(HisteqTransform, OneLevel) {
    const HisteqPlan p = plan_of(IPT_UINT8, 1, 2, 1);
    std::vector<double> counts(256, 0.0);
    counts[3] = 2;
    const std::vector<double> T = histeq_transform(p, counts.data());
    EXPECT_TRUE(std::isnan(T[0]));
    EXPECT_EQ(histeq_table<uint8_t>(T)[3], 0);
}

}  // namespace
