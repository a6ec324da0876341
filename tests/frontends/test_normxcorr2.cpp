// ipt.normxcorr2's front-end: the full output size, the size rules that name
// 'template', the template's statistics and checks, A's shift by class, the
// tolerance and the [-1, 1] backstop.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "common/ops/normxcorr2.hpp"
#include "plan_call.hpp"

namespace {

using ipt::frontend::Normxcorr2Plan;
using ipt::frontend::plan_normxcorr2;
using ipt::test::PlanCall;

Normxcorr2Plan plan_of(int64_t m, int64_t n, int64_t p, int64_t q, int32_t dt = IPT_DOUBLE, int32_t da = IPT_DOUBLE) {
    PlanCall call("ipt.normxcorr2");
    call.image("template", dt, m, n).image("A", da, p, q);
    return plan_normxcorr2(call.args());
}

TEST(Normxcorr2Plan, FullSize) {
    const Normxcorr2Plan p = plan_of(3, 4, 10, 20);
    EXPECT_EQ(p.out_rows, 12);
    EXPECT_EQ(p.out_cols, 23);
    EXPECT_EQ(p.mn, 12);
    EXPECT_EQ(plan_of(2, 2, 2, 2).out_rows, 3);
}

TEST(Normxcorr2Plan, SizeErrorsNameTemplate) {
    for (auto f : {+[] { plan_of(1, 1, 5, 5); }, +[] { plan_of(6, 1, 5, 5); }, +[] { plan_of(1, 6, 5, 5); }}) {
        try {
            f();
            ADD_FAILURE() << "expected an error";
        } catch (const std::exception& e) {
            EXPECT_NE(std::string(e.what()).find("template"), std::string::npos) << e.what();
        }
    }
}

TEST(Normxcorr2Plan, TemplateStatistics) {
    const Normxcorr2Plan p = plan_of(1, 2, 3, 3, IPT_INT16);
    const int16_t t[] = {-3, -1};  // shifted to {0, 2}
    const auto s = ipt::frontend::normxcorr2_template(p, t);
    EXPECT_EQ(s.t[0], 0);
    EXPECT_EQ(s.t[1], 2);
    EXPECT_EQ(s.sum, 2);
    EXPECT_DOUBLE_EQ(s.denom_t, std::sqrt(2.0));  // sqrt(1) * std([0 2])
    const int16_t flat[] = {4, 4};
    EXPECT_ANY_THROW(ipt::frontend::normxcorr2_template(p, flat));
}

TEST(Normxcorr2Plan, ShiftOnlyForClassesThatAreNotUnsigned) {
    EXPECT_EQ(ipt::frontend::normxcorr2_a_shift(plan_of(1, 2, 3, 3, IPT_DOUBLE, IPT_DOUBLE), -2.5, true), -2.5);
    EXPECT_EQ(ipt::frontend::normxcorr2_a_shift(plan_of(1, 2, 3, 3, IPT_DOUBLE, IPT_INT16), 3, true), 0);
    EXPECT_EQ(ipt::frontend::normxcorr2_a_shift(plan_of(1, 2, 3, 3, IPT_DOUBLE, IPT_UINT8), 0, true), 0);
    EXPECT_ANY_THROW(ipt::frontend::normxcorr2_a_shift(plan_of(1, 2, 3, 3), 0, false));
}

TEST(Normxcorr2Plan, ToleranceAndBackstop) {
    EXPECT_EQ(ipt::frontend::normxcorr2_tolerance(1.0), std::ldexp(1.0, -26));
    EXPECT_EQ(ipt::frontend::normxcorr2_tolerance(4.0), std::ldexp(1.0, -25));
    EXPECT_GT(ipt::frontend::normxcorr2_tolerance(0.0), 0.0);
    EXPECT_EQ(ipt::frontend::normxcorr2_value(1, 2, 0.5), 0.5);
    EXPECT_EQ(ipt::frontend::normxcorr2_value(1, 0.5, 0.5), 0);     // at the tolerance
    EXPECT_EQ(ipt::frontend::normxcorr2_value(-3, 2, 0.1), 0);      // |C| > 1
    EXPECT_EQ(ipt::frontend::normxcorr2_value(-2, 2, 0.1), -1);
}

}  // namespace
