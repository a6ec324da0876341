// SPDX-License-Identifier: Apache-2.0
// ipt.imadjust's front-end: the curves per channel (RGB's column-major 2x3
// limits), the default limits (stretchlim(I) with [0.01 0.99]), and MATLAB's
// tables for the integer classes, checked entry by entry against hand
// computation, .5 ties included (uint8(255*y) and uint16(65535*y) round half
// away from zero).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/ops/imadjust.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::ImadjustPlan;
using ipt::frontend::ImadjustTable;
using ipt::frontend::plan_imadjust;
using ipt::test::PlanCall;

struct Params {
    std::vector<double> in, out, gamma;  // empty: the default
};

ImadjustPlan plan_of(int32_t dtype, int64_t rows, int64_t cols, const Params& p = {}, int64_t channels = 1) {
    PlanCall call("ipt.imadjust");
    call.image("I", dtype, rows, cols, channels);
    if (!p.in.empty()) call.floats("low_high_in", p.in);
    if (!p.out.empty()) call.floats("low_high_out", p.out);
    if (!p.gamma.empty()) call.floats("gamma", p.gamma);
    return plan_imadjust(call.args());
}

std::vector<int> table_values(const ImadjustTable& t, int64_t ch = 0) {
    std::vector<int> v(static_cast<size_t>(t.entries));
    for (int64_t k = 0; k < t.entries; ++k) {
        if (t.dtype == IPT_UINT8) v[k] = t.channel<uint8_t>(ch)[k];
        else if (t.dtype == IPT_UINT16) v[k] = t.channel<uint16_t>(ch)[k];
        else v[k] = t.channel<int16_t>(ch)[k];
    }
    return v;
}

std::string invalid_message(int64_t channels, const Params& p) {
    try {
        plan_of(IPT_UINT8, 2, 2, p, channels);
    } catch (const ipt::plugin::Error& e) {
        EXPECT_EQ(e.status, IPT_ERR_INVALID_ARGUMENT);
        return e.message;
    }
    ADD_FAILURE() << "no error";
    return "";
}

TEST(ImadjustPlan, Uint8IdentityAndNegative) {
    const ImadjustPlan id = plan_of(IPT_UINT8, 3, 4, {{0, 1}, {}, {}});
    EXPECT_TRUE(id.uses_table);
    EXPECT_TRUE(id.limits_given);
    ASSERT_EQ(id.table.entries, 256);
    ASSERT_EQ(id.table.channels, 1);
    EXPECT_EQ(id.table.bytes(), 256u);
    const std::vector<int> v = table_values(id.table);
    for (int k = 0; k < 256; ++k) EXPECT_EQ(v[k], k);
    const std::vector<int> neg = table_values(plan_of(IPT_UINT8, 3, 4, {{0, 1}, {1, 0}, {}}).table);
    for (int k = 0; k < 256; ++k) EXPECT_EQ(neg[k], 255 - k);
}

TEST(ImadjustPlan, Uint8TiesRoundHalfAwayFromZero) {
    // [0 1] -> [0.5 1]: entry 0 is 255 * 0.5 = 127.5 -> 128.
    const std::vector<int> half = table_values(plan_of(IPT_UINT8, 1, 1, {{0, 1}, {0.5, 1}, {}}).table);
    EXPECT_EQ(half[0], 128);
    EXPECT_EQ(half[255], 255);
    // [0.2 0.8] -> [0.1 0.9], gamma 0.5. Exact arithmetic gives 93.5, 161.5
    // and 229.5 at 68, 119 and 204; MATLAB's double steps give 93 (the
    // product is 93.49999999999999), 162 and 230. Up to 51 = 0.2 * 255 the
    // output is 255 * 0.1 = 25.5 -> 26; from 204 on, 255 * 0.9 = 229.5 -> 230.
    const std::vector<int> v = table_values(plan_of(IPT_UINT8, 1, 256, {{0.2, 0.8}, {0.1, 0.9}, {0.5}}).table);
    EXPECT_EQ(v[119], 162);
    EXPECT_EQ(v[68], 93);
    EXPECT_EQ(v[204], 230);
    for (int k = 0; k <= 51; ++k) EXPECT_EQ(v[k], 26) << k;
    for (int k = 204; k < 256; ++k) EXPECT_EQ(v[k], 230) << k;
    // [0.2 0.8] -> [0 1], gamma 1: 102 -> 1/3 -> 85, 153 -> 2/3 -> 170.
    const std::vector<int> lin = table_values(plan_of(IPT_UINT8, 1, 1, {{0.2, 0.8}, {}, {}}).table);
    EXPECT_EQ(lin[51], 0);
    EXPECT_EQ(lin[102], 85);
    EXPECT_EQ(lin[153], 170);
    EXPECT_EQ(lin[204], 255);
}

TEST(ImadjustPlan, Uint8Gammas) {
    // gamma 2: 128 -> (128/255)^2 * 255 = 64.25 -> 64.
    const std::vector<int> sq = table_values(plan_of(IPT_UINT8, 1, 1, {{0, 1}, {}, {2}}).table);
    EXPECT_EQ(sq[128], 64);
    EXPECT_EQ(sq[255], 255);
    EXPECT_EQ(sq[0], 0);
    // gamma 0: 0^0 = 1 as in MATLAB, so every entry is high_out.
    const std::vector<int> flat = table_values(plan_of(IPT_UINT8, 1, 1, {{0.2, 0.8}, {}, {0}}).table);
    for (int k = 0; k < 256; ++k) EXPECT_EQ(flat[k], 255) << k;
}

TEST(ImadjustPlan, SixteenBitTables) {
    const ImadjustPlan u = plan_of(IPT_UINT16, 2, 2, {{0, 1}, {0.5, 1}, {}});
    ASSERT_EQ(u.table.entries, 65536);
    EXPECT_EQ(u.table.bytes(), 131072u);
    const std::vector<int> uv = table_values(u.table);
    EXPECT_EQ(uv[0], 32768);  // 65535 * 0.5 = 32767.5 -> 32768
    EXPECT_EQ(uv[65535], 65535);
    // int16: entry k is the value -32768 + k; identity, then [0.5 1]: value 0
    // is 32768/65535, just above 0.5 -> uint16 1 -> int16 -32767.
    const std::vector<int> id = table_values(plan_of(IPT_INT16, 2, 2, {{0, 1}, {}, {}}).table);
    for (int k = 0; k < 65536; k += 257) EXPECT_EQ(id[k], k - 32768) << k;
    EXPECT_EQ(id[65535], 32767);
    const std::vector<int> s = table_values(plan_of(IPT_INT16, 2, 2, {{0.5, 1}, {}, {}}).table);
    EXPECT_EQ(s[0], -32768);
    EXPECT_EQ(s[32767], -32768);  // value -1
    EXPECT_EQ(s[32768], -32767);  // value 0
    EXPECT_EQ(s[65535], 32767);
}

TEST(ImadjustPlan, RgbCurvesAreColumnMajor2x3) {
    const Params p{{0.1, 0.9, 0.2, 0.6, 0, 0.5}, {0, 1, 1, 0, 0.2, 0.7}, {1, 2, 0.5}};
    const ImadjustPlan rgb = plan_of(IPT_UINT8, 4, 5, p, 3);
    ASSERT_EQ(rgb.curves.size(), 3u);
    EXPECT_EQ(rgb.curves[1].low_in, 0.2);
    EXPECT_EQ(rgb.curves[1].high_in, 0.6);
    EXPECT_EQ(rgb.curves[1].low_out, 1.0);
    EXPECT_EQ(rgb.curves[1].high_out, 0.0);
    EXPECT_EQ(rgb.curves[1].gamma, 2.0);
    EXPECT_EQ(rgb.curves[2].gamma, 0.5);
    ASSERT_EQ(rgb.table.channels, 3);
    // Each channel's table is the one-channel table of its curve.
    for (int ch = 0; ch < 3; ++ch) {
        const Params one{{p.in[2 * ch], p.in[2 * ch + 1]}, {p.out[2 * ch], p.out[2 * ch + 1]}, {p.gamma[ch]}};
        EXPECT_EQ(table_values(rgb.table, ch), table_values(plan_of(IPT_UINT8, 1, 1, one).table)) << ch;
    }
    // Two values and one gamma apply to every channel.
    const ImadjustPlan same = plan_of(IPT_UINT16, 4, 5, {{0.3, 0.7}, {}, {}}, 3);
    EXPECT_EQ(table_values(same.table, 2), table_values(same.table, 0));
    EXPECT_EQ(table_values(same.table, 0), table_values(plan_of(IPT_UINT16, 1, 1, {{0.3, 0.7}, {}, {}}).table));
}

TEST(ImadjustPlan, DefaultLimitsAreStretchlim) {
    const ImadjustPlan p = plan_of(IPT_UINT8, 10, 10, {{}, {0.1, 0.9}, {0.5}});
    EXPECT_FALSE(p.limits_given);
    EXPECT_TRUE(p.uses_table);
    EXPECT_EQ(p.table.entries, 0);  // built from the limits a backend computes
    EXPECT_EQ(p.default_limits.tol_low, 0.01);
    EXPECT_EQ(p.default_limits.tol_high, 0.99);
    EXPECT_EQ(p.default_limits.nbins, 256);
    EXPECT_EQ(p.default_limits.plane, 100);
    EXPECT_EQ(plan_of(IPT_UINT16, 3, 3).default_limits.nbins, 65536);
    // The table from limits [0.2; 0.8] is the table of low_high_in = [0.2 0.8].
    const double limits[2] = {0.2, 0.8};
    const ImadjustTable t = ipt::frontend::imadjust_table(p, limits);
    EXPECT_EQ(table_values(t), table_values(plan_of(IPT_UINT8, 1, 1, {{0.2, 0.8}, {0.1, 0.9}, {0.5}}).table));
    // RGB: 2 x channels, row 0 low, row 1 high.
    const ImadjustPlan rgb = plan_of(IPT_UINT8, 4, 4, {}, 3);
    const double rgb_limits[6] = {0.1, 0.2, 0.3, 0.6, 0.7, 0.8};
    const ImadjustTable rt = ipt::frontend::imadjust_table(rgb, rgb_limits);
    EXPECT_EQ(table_values(rt, 1), table_values(plan_of(IPT_UINT8, 1, 1, {{0.2, 0.7}, {}, {}}).table));
    EXPECT_EQ(table_values(rt, 2), table_values(plan_of(IPT_UINT8, 1, 1, {{0.3, 0.8}, {}, {}}).table));
}

TEST(ImadjustPlan, FloatingClassesUseTheCurve) {
    for (int32_t d : {IPT_SINGLE, IPT_DOUBLE}) {
        const ImadjustPlan p = plan_of(d, 3, 3, {{0.25, 0.75}, {1, 0}, {2}});
        EXPECT_FALSE(p.uses_table);
        EXPECT_EQ(p.table.entries, 0);
        ASSERT_EQ(p.curves.size(), 1u);
        EXPECT_EQ(p.curves[0](0.5), 0.75);  // ((0.5-0.25)/0.5)^2 = 0.25 -> 1 - 0.25
        EXPECT_EQ(p.curves[0](0.1), 1.0);
    }
    // Defaults: [0 1] out, gamma 1.
    const ImadjustPlan d = plan_of(IPT_DOUBLE, 3, 3, {{0.2, 0.8}, {}, {}});
    EXPECT_EQ(d.curves[0].low_out, 0.0);
    EXPECT_EQ(d.curves[0].high_out, 1.0);
    EXPECT_EQ(d.curves[0].gamma, 1.0);
}

TEST(ImadjustPlan, ShapesAndEmpty) {
    const ImadjustPlan empty = plan_of(IPT_UINT8, 0, 5, {{0.2, 0.8}, {}, {}});
    EXPECT_EQ(empty.plane, 0);
    EXPECT_EQ(empty.cols, 5);
    EXPECT_TRUE(empty.uses_table);
    EXPECT_EQ(empty.table.entries, 0);  // nothing to map
    EXPECT_EQ(plan_of(IPT_UINT8, 1, 37, {{0.2, 0.8}, {}, {}}).plane, 37);
    EXPECT_EQ(plan_of(IPT_UINT8, 41, 1, {{0.2, 0.8}, {}, {}}).plane, 41);
    EXPECT_EQ(plan_of(IPT_INT16, 1, 1, {{0.2, 0.8}, {}, {}}).table.entries, 65536);
}

TEST(ImadjustPlan, Errors) {
    EXPECT_NE(invalid_message(1, {{}, {}, {1, 2, 3}}).find("ipt.imadjust: parameter 'gamma'"), std::string::npos);
    EXPECT_NE(invalid_message(3, {{}, {}, {1, 2}}).find("parameter 'gamma'"), std::string::npos);
    EXPECT_NE(invalid_message(1, {{0.1, 0.2, 0.3, 0.4, 0.5, 0.6}, {}, {}}).find("parameter 'low_high_in'"),
              std::string::npos);
    EXPECT_NE(invalid_message(3, {{0.1, 0.2, 0.3, 0.4}, {}, {}}).find("parameter 'low_high_in'"), std::string::npos);
    EXPECT_NE(invalid_message(3, {{}, {0, 1, 0, 1}, {}}).find("parameter 'low_high_out'"), std::string::npos);
    EXPECT_NE(invalid_message(1, {{0.8, 0.2}, {}, {}}).find("parameter 'low_high_in' must have low < high"),
              std::string::npos);
    EXPECT_NE(invalid_message(1, {{0.5, 0.5}, {}, {}}).find("low < high"), std::string::npos);
    EXPECT_NE(invalid_message(3, {{0.1, 0.9, 0.5, 0.4, 0, 1}, {}, {}}).find("low < high"), std::string::npos);
    // Inverted output limits are allowed.
    EXPECT_NO_THROW(plan_of(IPT_UINT8, 2, 2, {{}, {0.9, 0.1}, {}}));
}

}  // namespace
