// SPDX-License-Identifier: Apache-2.0
// The front-end of ipt.im2double, im2single, im2uint8, im2uint16 and
// im2int16 (the output class each names, the size of I) and the per-element
// rules of backends/common/class_scaling.hpp, against hand-computed values
// and a brute-force search for the nearest integer.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>

#include "common/class_scaling.hpp"
#include "common/ops/im2double.hpp"
#include "common/ops/im2int16.hpp"
#include "common/ops/im2single.hpp"
#include "common/ops/im2uint16.hpp"
#include "common/ops/im2uint8.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::Im2ClassPlan;
using ipt::test::PlanCall;
using namespace ipt::common;

TEST(Im2ClassPlan, EachFunctionNamesItsClass) {
    struct Case {
        const char* op;
        Im2ClassPlan (*plan)(const ipt::plugin::KernelArgs&);
        int32_t out;
    };
    const Case cases[] = {{"ipt.im2double", ipt::frontend::plan_im2double, IPT_DOUBLE},
                          {"ipt.im2single", ipt::frontend::plan_im2single, IPT_SINGLE},
                          {"ipt.im2uint8", ipt::frontend::plan_im2uint8, IPT_UINT8},
                          {"ipt.im2uint16", ipt::frontend::plan_im2uint16, IPT_UINT16},
                          {"ipt.im2int16", ipt::frontend::plan_im2int16, IPT_INT16}};
    for (const Case& c : cases)
        for (int32_t d : {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_SINGLE, IPT_DOUBLE}) {
            PlanCall call(c.op);
            call.image("I", d, 5, 7, 3);
            const Im2ClassPlan p = c.plan(call.args());
            EXPECT_EQ(p.out_dtype, c.out) << c.op;
            EXPECT_EQ(p.in_dtype, d) << c.op;
            EXPECT_EQ(p.rows, 5);
            EXPECT_EQ(p.cols, 7);
            EXPECT_EQ(p.channels, 3);
            EXPECT_EQ(p.numel, 105);
        }
}

TEST(Im2ClassPlan, EmptyAndVectors) {
    for (auto [r, c] : {std::pair<int64_t, int64_t>{0, 0}, {0, 4}, {1, 1}, {1, 9}, {9, 1}}) {
        PlanCall call("ipt.im2uint8");
        call.image("I", IPT_DOUBLE, r, c);
        EXPECT_EQ(ipt::frontend::plan_im2uint8(call.args()).numel, r * c);
    }
}

// The integer in [0, top] nearest num/den, ties to the larger, by search.
int64_t nearest(int64_t num, int64_t den, int64_t top) {
    int64_t best = 0;
    for (int64_t k = 1; k <= top; ++k)
        if (std::llabs(k * den - num) <= std::llabs(best * den - num)) best = k;
    return best;
}

TEST(ClassScaling, IntegerToIntegerEveryValue) {
    for (int v = 0; v < 65536; ++v) {
        ASSERT_EQ(to_uint8_scale(uint16_t(v)), nearest(v, 257, 255)) << v;
        ASSERT_EQ(to_uint8_scale(int16_t(v - 32768)), nearest(v, 257, 255)) << v;
        ASSERT_EQ(to_uint16_scale(int16_t(v - 32768)), v);
        ASSERT_EQ(to_int16_scale(uint16_t(v)), v - 32768);
    }
    for (int v = 0; v < 256; ++v) {
        EXPECT_EQ(to_uint16_scale(uint8_t(v)), v * 257);
        EXPECT_EQ(to_int16_scale(uint8_t(v)), v * 257 - 32768);
        EXPECT_EQ(to_uint8_scale(uint8_t(v)), v);
    }
    EXPECT_EQ(to_uint8_scale(uint16_t(128)), 0);   // 128/257 < 0.5
    EXPECT_EQ(to_uint8_scale(uint16_t(129)), 1);   // 129/257 > 0.5
    EXPECT_EQ(to_uint8_scale(uint16_t(385)), 1);   // MathWorks: 128..385 become 1
    EXPECT_EQ(to_uint8_scale(uint16_t(386)), 2);
}

TEST(ClassScaling, LogicalEnds) {
    EXPECT_EQ(to_uint8_scale(true), 255);
    EXPECT_EQ(to_uint16_scale(true), 65535);
    EXPECT_EQ(to_int16_scale(true), 32767);
    EXPECT_EQ(to_int16_scale(false), -32768);
    EXPECT_EQ(to_unit_scale<double>(true), 1.0);
    EXPECT_EQ(to_unit_scale<float>(false), 0.0f);
}

TEST(ClassScaling, RoundsHalfAwayOnTheRoundedProduct) {
    EXPECT_EQ(to_uint8_scale(0.5), 128);                  // 127.5
    EXPECT_EQ(to_uint16_scale(0.5), 32768);               // 32767.5
    EXPECT_EQ(to_int16_scale(0.5), 0);                    // through uint16, as MATLAB's im2int16
    EXPECT_EQ(to_uint8_scale(1.5 / 255.0 + 1e-12), 2);
    // A product just below one half must not round up (floor(p + 0.5) would:
    // 0.5 - 2^-25 + 0.5 rounds to 1 in single).
    EXPECT_EQ(round_to_range(0.5f - std::ldexp(1.0f, -25), 255u), 0u);
    EXPECT_EQ(round_to_range(0.5 - std::ldexp(1.0, -54), 255u), 0u);
    EXPECT_EQ(round_to_range(std::numeric_limits<double>::quiet_NaN(), 255u), 0u);
    EXPECT_EQ(round_to_range(-std::numeric_limits<float>::infinity(), 255u), 0u);
    EXPECT_EQ(round_to_range(std::numeric_limits<float>::infinity(), 65535u), 65535u);
    for (int m = 0; m <= 1024; ++m) {
        ASSERT_EQ(to_uint8_scale(m / 1024.0), nearest(255 * m, 1024, 255)) << m;
        ASSERT_EQ(to_uint16_scale(m / 1024.0), nearest(65535 * m, 1024, 65535)) << m;
    }
}

TEST(ClassScaling, UnitScaleIsOneDivision) {
    EXPECT_EQ(to_unit_scale<double>(uint8_t(51)), 0.2);
    EXPECT_EQ(to_unit_scale<float>(uint8_t(51)), 0.2f);
    EXPECT_EQ(to_unit_scale<double>(uint16_t(65535)), 1.0);
    EXPECT_EQ(to_unit_scale<double>(int16_t(-32768)), 0.0);
    EXPECT_EQ(to_unit_scale<double>(int16_t(32767)), 1.0);
    EXPECT_EQ(to_unit_scale<double>(2.5f), 2.5);  // floating: no clamping
    EXPECT_EQ(to_unit_scale<float>(-7.0), -7.0f);
}

}  // namespace
