// SPDX-License-Identifier: Apache-2.0
// ipt.intlut's front-end: sizes and classes of B, the table's size and the
// entry of the value 0 per class, and the table checks.
#include <gtest/gtest.h>

#include <string>

#include "common/ops/intlut.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::IntlutPlan;
using ipt::frontend::plan_intlut;
using ipt::test::PlanCall;

// The plan's sizes and classes; its image pointers die with the call.
IntlutPlan plan_of(int32_t dtype, int64_t rows, int64_t cols, int64_t channels, int32_t lut_dtype, int64_t lut_rows,
                   int64_t lut_cols, int64_t lut_channels = 1) {
    PlanCall call("ipt.intlut");
    call.image("A", dtype, rows, cols, channels).image("LUT", lut_dtype, lut_rows, lut_cols, lut_channels);
    return plan_intlut(call.args());
}

std::string invalid_message(int32_t dtype, int32_t lut_dtype, int64_t lut_rows, int64_t lut_cols,
                            int64_t lut_channels = 1) {
    try {
        plan_of(dtype, 4, 5, 1, lut_dtype, lut_rows, lut_cols, lut_channels);
    } catch (const ipt::plugin::Error& e) {
        EXPECT_EQ(e.status, IPT_ERR_INVALID_ARGUMENT);
        return e.message;
    }
    ADD_FAILURE() << "no error";
    return "";
}

TEST(IntlutPlan, Uint8TakesA256EntryTableFromZero) {
    // The plan points at the call's images: the call outlives it here.
    PlanCall call("ipt.intlut");
    call.image("A", IPT_UINT8, 3, 4).image("LUT", IPT_UINT8, 1, 256);
    const IntlutPlan p = plan_intlut(call.args());
    EXPECT_EQ(p.dtype, IPT_UINT8);
    EXPECT_EQ(p.rows, 3);
    EXPECT_EQ(p.cols, 4);
    EXPECT_EQ(p.channels, 1);
    EXPECT_EQ(p.numel, 12);
    EXPECT_EQ(p.entries, 256);
    EXPECT_EQ(p.zero_at, 0);
    ASSERT_NE(p.A, nullptr);
    ASSERT_NE(p.LUT, nullptr);
    EXPECT_EQ(p.LUT->cols, 256);
}

TEST(IntlutPlan, SixteenBitClassesTake65536Entries) {
    const IntlutPlan u = plan_of(IPT_UINT16, 2, 3, 1, IPT_UINT16, 65536, 1);  // a column works too
    EXPECT_EQ(u.entries, 65536);
    EXPECT_EQ(u.zero_at, 0);
    // int16: LUT(A + 32769) in MATLAB's 1-based indexing, so 0 sits at entry 32768.
    const IntlutPlan s = plan_of(IPT_INT16, 2, 3, 1, IPT_INT16, 1, 65536);
    EXPECT_EQ(s.entries, 65536);
    EXPECT_EQ(s.zero_at, 32768);
    EXPECT_EQ(s.dtype, IPT_INT16);
}

TEST(IntlutPlan, ShapesAndChannels) {
    EXPECT_EQ(plan_of(IPT_UINT8, 1, 1, 1, IPT_UINT8, 1, 256).numel, 1);
    EXPECT_EQ(plan_of(IPT_UINT8, 1, 37, 1, IPT_UINT8, 1, 256).numel, 37);
    EXPECT_EQ(plan_of(IPT_UINT8, 41, 1, 1, IPT_UINT8, 1, 256).numel, 41);
    const IntlutPlan rgb = plan_of(IPT_UINT16, 5, 7, 3, IPT_UINT16, 1, 65536);
    EXPECT_EQ(rgb.channels, 3);
    EXPECT_EQ(rgb.numel, 105);
    const IntlutPlan empty = plan_of(IPT_UINT8, 0, 5, 1, IPT_UINT8, 1, 256);
    EXPECT_EQ(empty.numel, 0);
    EXPECT_EQ(empty.cols, 5);
}

TEST(IntlutPlan, RejectsTablesItCannotIndexSafely) {
    EXPECT_NE(invalid_message(IPT_UINT8, IPT_UINT8, 1, 255).find("ipt.intlut: parameter 'LUT'"), std::string::npos);
    EXPECT_NE(invalid_message(IPT_UINT16, IPT_UINT16, 1, 256).find("65536 entries"), std::string::npos);
    EXPECT_NE(invalid_message(IPT_UINT8, IPT_UINT16, 1, 256).find("parameter 'LUT' must have the class of A"),
              std::string::npos);
    EXPECT_NE(invalid_message(IPT_UINT8, IPT_UINT8, 16, 16).find("parameter 'LUT' must be a vector"),
              std::string::npos);
    EXPECT_NE(invalid_message(IPT_UINT8, IPT_UINT8, 1, 256, 3).find("parameter 'LUT'"), std::string::npos);
    EXPECT_NE(invalid_message(IPT_DOUBLE, IPT_DOUBLE, 1, 65536).find("ipt.intlut: parameter 'A'"), std::string::npos);
}

}  // namespace
