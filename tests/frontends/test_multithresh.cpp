// SPDX-License-Identifier: Apache-2.0
// ipt.multithresh's front-end: the classes and N, each value's code (its bin
// after MATLAB's scaling, inside the limits or not, NaN), the thresholds
// without a histogram, and MATLAB's degenerate thresholds.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/ops/multithresh.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::MultithreshLimits;
using ipt::frontend::MultithreshPlan;
using ipt::frontend::MultithreshResult;
using ipt::frontend::multithresh_code;
using ipt::frontend::multithresh_degenerate;
using ipt::frontend::plan_multithresh;
using ipt::test::PlanCall;

const double inf = std::numeric_limits<double>::infinity();

int status_of(int32_t dtype, int64_t N) {
    PlanCall call("ipt.multithresh");
    call.image("A", dtype, 4, 4).integer("N", N);
    try {
        plan_multithresh(call.args());
    } catch (const ipt::plugin::Error& e) {
        return e.status;
    }
    return 0;
}

TEST(MultithreshPlan, ClassesAndN) {
    for (int32_t d : {IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_SINGLE, IPT_DOUBLE}) EXPECT_EQ(status_of(d, 2), 0) << d;
    EXPECT_EQ(status_of(IPT_INT32, 1), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(status_of(IPT_UINT32, 1), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(status_of(IPT_UINT8, 3), IPT_ERR_UNSUPPORTED);
    PlanCall rgb("ipt.multithresh");
    rgb.image("A", IPT_UINT8, 4, 5, 3);
    const MultithreshPlan p = plan_multithresh(rgb.args());
    EXPECT_EQ(p.numel, 60);
    EXPECT_EQ(p.N, 1);
}

TEST(MultithreshPlan, Codes) {
    EXPECT_EQ(multithresh_code(0.0, 0, 1), 0u);
    EXPECT_EQ(multithresh_code(1.0, 0, 1), 255u);
    EXPECT_EQ(multithresh_code(0.5, 0, 1), 256u + 128);  // 127.5 rounds up; inside
    EXPECT_EQ(multithresh_code(std::nan(""), 0, 1), MultithreshPlan::kNaN);
    EXPECT_EQ(multithresh_code(inf, 0, 1), 255u);
    EXPECT_EQ(multithresh_code(-inf, 0, 1), 0u);
    EXPECT_EQ(multithresh_code(uint8_t(15), 10, 20), 256u + 128);
    // int16: 0 - (-32768) saturates at 32767, as does the range: the top bin.
    EXPECT_EQ(multithresh_code(int16_t(0), -32768, 32767), 256u + 255);
    EXPECT_EQ(multithresh_code(int16_t(-1), -32768, 32767), 256u + 255);
    EXPECT_EQ(multithresh_code(int16_t(-16385), -32768, 32767), 256u + 127);  // 255*16383/32767 = 127.496
}

TEST(MultithreshPlan, DegenerateThresholds) {
    EXPECT_EQ(multithresh_degenerate({}, 3, IPT_DOUBLE), (std::vector<double>{1, 2, 3}));
    EXPECT_EQ(multithresh_degenerate({7}, 2, IPT_UINT8), (std::vector<double>{1, 7}));
    EXPECT_EQ(multithresh_degenerate({3}, 5, IPT_UINT8), (std::vector<double>{1, 2, 3, 4, 5}));
    EXPECT_EQ(multithresh_degenerate({0}, 2, IPT_UINT8), (std::vector<double>{0, 1}));
    EXPECT_EQ(multithresh_degenerate({-5}, 3, IPT_INT16), (std::vector<double>{-5, 1, 2}));
    EXPECT_EQ(multithresh_degenerate({1.5}, 3, IPT_DOUBLE), (std::vector<double>{1, 1.5, 2}));
    EXPECT_EQ(multithresh_degenerate({-inf, inf}, 2, IPT_DOUBLE), (std::vector<double>{-inf, inf}));
    EXPECT_EQ(multithresh_degenerate({inf}, 2, IPT_DOUBLE), (std::vector<double>{1, inf}));
    EXPECT_EQ(multithresh_degenerate({-inf}, 2, IPT_DOUBLE), (std::vector<double>{-inf, 1}));
}

TEST(MultithreshPlan, WithoutHistogram) {
    PlanCall call("ipt.multithresh");
    call.image("A", IPT_DOUBLE, 4, 4).integer("N", 2);
    const MultithreshPlan p = plan_multithresh(call.args());
    MultithreshResult r;
    MultithreshLimits flat;
    flat.lo = flat.hi = flat.lo_all = 0.25;
    flat.hi_all = inf;
    ASSERT_TRUE(multithresh_without_histogram(p, flat, r));
    EXPECT_EQ(r.thresh, (std::vector<double>{0.25, 1}));
    MultithreshLimits nan_only;  // nothing but NaN
    ASSERT_TRUE(multithresh_without_histogram(p, nan_only, r));
    EXPECT_EQ(r.thresh, (std::vector<double>{1, 2}));
    MultithreshLimits spread;
    spread.lo = spread.lo_all = 0;
    spread.hi = spread.hi_all = 1;
    EXPECT_FALSE(multithresh_without_histogram(p, spread, r));
}

}  // namespace
