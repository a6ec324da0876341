// SPDX-License-Identifier: Apache-2.0
// ipt.imbinarize's front-end: the class ranges of the level, the sources of
// T ('global' or given), the shapes T may take, and the refusals.
#include <gtest/gtest.h>

#include <string>

#include "common/ops/imbinarize.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::ImbinarizePlan;
using ipt::frontend::plan_imbinarize;
using ipt::test::PlanCall;

int status_of(PlanCall& call, std::string* message = nullptr) {
    try {
        plan_imbinarize(call.args());
    } catch (const ipt::plugin::Error& e) {
        if (message) *message = e.message;
        return e.status;
    }
    return 0;
}

TEST(ImbinarizePlan, GlobalCountsEveryElementOfI) {
    PlanCall call("ipt.imbinarize");
    call.image("I", IPT_UINT16, 3, 4);
    const ImbinarizePlan p = plan_imbinarize(call.args());
    EXPECT_EQ(p.T, nullptr);
    EXPECT_EQ(p.rows, 3);
    EXPECT_EQ(p.cols, 4);
    EXPECT_EQ(p.numel, 12);
    EXPECT_EQ(p.global.plane, 12);
    EXPECT_TRUE(p.global.needs_histogram);
    EXPECT_EQ(p.lo, 0);
    EXPECT_EQ(p.span, 65535);
}

TEST(ImbinarizePlan, EmptyImageNeedsNoHistogram) {
    PlanCall call("ipt.imbinarize");
    call.image("I", IPT_DOUBLE, 0, 5);
    const ImbinarizePlan p = plan_imbinarize(call.args());
    EXPECT_FALSE(p.global.needs_histogram);
    EXPECT_EQ(p.numel, 0);
}

// MATLAB's level is lo + (hi - lo) * T with [lo, hi] the class range.
TEST(ImbinarizePlan, ClassRanges) {
    struct Row {
        int32_t dtype;
        double lo, span;
    };
    for (const Row& r : {Row{IPT_UINT8, 0, 255}, Row{IPT_UINT16, 0, 65535}, Row{IPT_UINT32, 0, 4294967295.0},
                         Row{IPT_INT16, -32768, 65535}, Row{IPT_INT32, -2147483648.0, 4294967295.0},
                         Row{IPT_SINGLE, 0, 1}, Row{IPT_DOUBLE, 0, 1}}) {
        PlanCall call("ipt.imbinarize");
        call.image("I", r.dtype, 2, 2).image("T", IPT_DOUBLE, 1, 1);
        const ImbinarizePlan p = plan_imbinarize(call.args());
        EXPECT_EQ(p.lo, r.lo) << r.dtype;
        EXPECT_EQ(p.span, r.span) << r.dtype;
        EXPECT_EQ(ipt::frontend::imbinarize_level(p.lo, p.span, 0.5), r.lo + r.span / 2) << r.dtype;
    }
}

// 'adaptive': adaptthresh's default window 2*floor(size/16)+1 and scale.
TEST(ImbinarizePlan, AdaptiveUsesAdaptthreshDefaults) {
    PlanCall call("ipt.imbinarize");
    call.image("I", IPT_INT32, 40, 17).text("method", "adaptive").number("Sensitivity", 0.25).text(
        "ForegroundPolarity", "dark");
    const ImbinarizePlan p = plan_imbinarize(call.args());
    EXPECT_TRUE(p.adaptive);
    EXPECT_EQ(p.local.box.fr, 5);
    EXPECT_EQ(p.local.box.fc, 3);
    EXPECT_EQ(p.local.scale, 0.4 + 0.25);
    EXPECT_EQ(p.local.box.norm, (0.4 + 0.25) / 15);
}

TEST(ImbinarizePlan, GivenThresholdIsScalarOrTheSizeOfI) {
    PlanCall scalar("ipt.imbinarize");
    scalar.image("I", IPT_UINT8, 3, 4).image("T", IPT_SINGLE, 1, 1);
    const ImbinarizePlan s = plan_imbinarize(scalar.args());
    EXPECT_TRUE(s.t_scalar);
    EXPECT_EQ(s.t_dtype, IPT_SINGLE);
    PlanCall matrix("ipt.imbinarize");
    matrix.image("I", IPT_UINT8, 3, 4).image("T", IPT_DOUBLE, 3, 4);
    const ImbinarizePlan m = plan_imbinarize(matrix.args());
    EXPECT_FALSE(m.t_scalar);
    ASSERT_NE(m.T, nullptr);
    // A scalar T with an empty I.
    PlanCall empty("ipt.imbinarize");
    empty.image("I", IPT_UINT8, 0, 4).image("T", IPT_DOUBLE, 1, 1);
    EXPECT_EQ(status_of(empty), 0);
}

TEST(ImbinarizePlan, Refusals) {
    std::string msg;
    PlanCall wrong_size("ipt.imbinarize");
    wrong_size.image("I", IPT_UINT8, 3, 4).image("T", IPT_DOUBLE, 4, 3);
    EXPECT_EQ(status_of(wrong_size, &msg), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_NE(msg.find("'T'"), std::string::npos) << msg;
    PlanCall integer_t("ipt.imbinarize");
    integer_t.image("I", IPT_UINT8, 3, 4).image("T", IPT_UINT8, 1, 1);
    EXPECT_EQ(status_of(integer_t, &msg), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_NE(msg.find("'T'"), std::string::npos) << msg;
    PlanCall both("ipt.imbinarize");
    both.image("I", IPT_UINT8, 3, 4).image("T", IPT_DOUBLE, 1, 1).text("method", "adaptive");
    EXPECT_EQ(status_of(both, &msg), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_NE(msg.find("'T'"), std::string::npos) << msg;
    PlanCall colour("ipt.imbinarize");
    colour.image("I", IPT_UINT8, 3, 4, 3);
    EXPECT_EQ(status_of(colour, &msg), IPT_ERR_INVALID_ARGUMENT);
    PlanCall wide("ipt.imbinarize");
    wide.image("I", IPT_INT32, 3, 4);
    EXPECT_EQ(status_of(wide, &msg), IPT_ERR_UNSUPPORTED);
}

}  // namespace
