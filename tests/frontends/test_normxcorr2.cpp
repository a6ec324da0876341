// SPDX-License-Identifier: Apache-2.0
// ipt.normxcorr2's front-end: the full output size, the size rules that name
// 'template', the template's statistics and checks, A's shift by class, the
// tolerance and the [-1, 1] backstop; the FFT way's exact running sums,
// exact denominator and border term.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

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

// Sliding 0.1 in and out past 1e10 (where a double sum loses 0.1's last
// 33 bits) leaves exactly the sum of what is left: everything spans fewer
// than 106 bits.
TEST(Normxcorr2Sum, SlidesWithoutLoss) {
    ipt::frontend::Normxcorr2Sum s;
    s.add(1e10);
    for (int i = 0; i < 1000; ++i) s.add(0.1);
    s.sub(1e10);
    for (int i = 0; i < 999; ++i) s.sub(0.1);
    EXPECT_EQ(s.value(), 0.1);
    // v^2 held exactly: (1 + 2^-30)^2 = 1 + 2^-29 + 2^-60.
    ipt::frontend::Normxcorr2Sum q;
    q.add_square(1 + std::ldexp(1.0, -30));
    q.sub(1 + std::ldexp(1.0, -29));
    EXPECT_EQ(q.value(), std::ldexp(1.0, -60));
}

// A window of 36 equal values 0.1 has no variance: the denominator is 0 to
// about 2^-50 of the values (far below any tolerance sqrt(eps(.)) of a
// window with variance). One value apart gives the exact variance.
TEST(Normxcorr2Denominator, FlatWindowIsExactlyZero) {
    const Normxcorr2Plan p = plan_of(6, 6, 10, 10);
    ipt::frontend::Normxcorr2Sum s1, s2;
    for (int i = 0; i < 36; ++i) {
        s1.add(0.1);
        s2.add_square(0.1);
    }
    EXPECT_LE(ipt::frontend::normxcorr2_denom_exact(p, 3.0, s1, s2), 1e-15);
    // 35 zeros and one 6: s2 - s1^2/36 = 36 - 1 = 35.
    ipt::frontend::Normxcorr2Sum a1, a2;
    a1.add(6.0);
    a2.add_square(6.0);
    EXPECT_DOUBLE_EQ(ipt::frontend::normxcorr2_denom_exact(p, 2.0, a1, a2), 2.0 * std::sqrt(35.0));
}

// c * sum(t0) over the template's part inside A, from the (m+1) x (n+1)
// table: a 2x3 template over a 4x5 A.
TEST(Normxcorr2BorderTerm, RectangleInsideA) {
    const Normxcorr2Plan p = plan_of(2, 3, 4, 5);
    const double t0[6] = {1, 2, 3, 4, 5, 6};
    std::vector<double> table(12, 0.0);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j)
            table[(i + 1) * 4 + j + 1] = t0[i * 3 + j] + table[i * 4 + j + 1] + table[(i + 1) * 4 + j] - table[i * 4 + j];
    // Output (0, 0): only t0(1, 2) (row 1, column 2, 0-based) lies on A(0, 0).
    EXPECT_EQ(ipt::frontend::normxcorr2_border_term(p, table.data(), 2.0, 0, 0), 2.0 * 6);
    // Output (1, 2): the whole template inside.
    EXPECT_EQ(ipt::frontend::normxcorr2_border_term(p, table.data(), 2.0, 1, 2), 2.0 * 21);
    // Output (4, 6), the last: only t0(0, 0) on A(3, 4).
    EXPECT_EQ(ipt::frontend::normxcorr2_border_term(p, table.data(), 2.0, 4, 6), 2.0 * 1);
    // Output (4, 3): template row 0, columns 0..2 on A(3, 1..3).
    EXPECT_EQ(ipt::frontend::normxcorr2_border_term(p, table.data(), 2.0, 4, 3), 2.0 * 6);
}

// A template whose values are all equal is flagged (its std is 0 or noise).
TEST(Normxcorr2Template, AllEqualFlag) {
    const Normxcorr2Plan p = plan_of(2, 2, 5, 5);
    const double v[4] = {1, 2, 3, 4};
    const auto r = ipt::frontend::normxcorr2_template(p, v);
    EXPECT_FALSE(r.all_equal);
    EXPECT_DOUBLE_EQ(r.t0[0], -1.5);
    EXPECT_DOUBLE_EQ(r.t0_sum[3 * 3 - 1], 0.0);
}

}  // namespace
