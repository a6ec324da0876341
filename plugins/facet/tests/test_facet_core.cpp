// SPDX-License-Identifier: Apache-2.0
// The fit itself, without the host: the reference driver against an
// independent implementation (independent_fit.hpp), the cooperative driver
// that the CUDA kernel runs against the reference (bit for bit, phases run
// forwards and backwards), exact polynomial fits, and the padding rule.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "facet_core.hpp"
#include "independent_fit.hpp"
#include "synthetic.hpp"

namespace {

using facet::Settings;

// A window of one of several kinds, from a seed.
std::vector<double> make_window(int w, int kind, facet_test::Random& rnd) {
    const int n = w * w, h = w / 2;
    std::vector<double> d(n);
    for (int i = 0; i < n; ++i) {
        const double r = i / w - h, c = i % w - h;
        switch (kind) {
        case 0: d[i] = rnd.uniform(); break;                               // noise
        case 1: d[i] = rnd.below(256); break;                              // uint8-like, with ties
        case 2: d[i] = 10 + 0.3 * r - 0.7 * c + 0.01 * rnd.uniform(); break; // plane plus noise
        case 3:                                                             // quadratic plus outliers
            d[i] = 0.5 * r * r - 0.25 * r * c + c + (rnd.uniform() < 0.15 ? 40 * rnd.uniform() : 0);
            break;
        case 4: d[i] = c < 0 ? 20.0 : 80.0; break;                         // step edge
        case 5: d[i] = -3 * std::fabs(r) + 2 * std::fabs(c) + 1e-3 * rnd.uniform(); break;  // roof
        default: d[i] = 1e6 * (rnd.uniform() - 0.5); break;                 // large values
        }
    }
    return d;
}

facet::Fit run_team(const std::vector<double>& d, const Settings& st, bool reverse) {
    const int n = st.window * st.window;
    std::vector<double> memory(facet::team_state_doubles(n), -12345.0);  // poisoned
    std::vector<double> phi(facet::kMaxCoefficients * n);
    for (int k = 0; k < facet::kMaxCoefficients; ++k)
        for (int i = 0; i < n; ++i) phi[k * n + i] = facet::basis(k, i, st.window);
    const facet::TeamState s = facet::team_state_at(memory.data(), n);
    for (int i = 0; i < n; ++i) s.d[i] = d[i];
    facet::SerialTeam team{reverse};
    facet::fit_team(team, s, phi.data(), st);
    facet::Fit f{};
    for (int k = 0; k < facet::kMaxCoefficients; ++k) f.coef[k] = s.best[k];
    f.degree = s.sc->best_degree;
    return f;
}

facet::Fit run_reference(const std::vector<double>& d, const Settings& st) {
    auto ws = std::make_unique<facet::ReferenceWorkspace>();
    return facet::fit_reference(d.data(), st, *ws);
}

std::vector<Settings> settings_grid() {
    std::vector<Settings> out;
    for (int w : {3, 5, 7, 9, 15})
        for (int deg = 0; deg <= 3; ++deg) {
            if (w * w <= facet::coefficient_count(deg)) continue;
            Settings s;
            s.window = w;
            s.max_degree = deg;
            out.push_back(s);
        }
    Settings a;  // other iteration counts, tolerances and tuning constants
    a.max_iter = 1;
    out.push_back(a);
    a.max_iter = 9;
    a.tuning = 0.5;
    out.push_back(a);
    a.epsilon = 0;
    a.window = 7;
    out.push_back(a);
    a.epsilon = 1e-2;
    a.tuning = 3;
    out.push_back(a);
    return out;
}

TEST(FacetCore, TeamDriverEqualsReferenceBitForBit) {
    facet_test::Random rnd(7);
    int compared = 0;
    for (const Settings& st : settings_grid())
        for (int kind = 0; kind <= 6; ++kind)
            for (int rep = 0; rep < 6; ++rep) {
                const std::vector<double> d = make_window(st.window, kind, rnd);
                const facet::Fit ref = run_reference(d, st);
                for (bool reverse : {false, true}) {
                    const facet::Fit team = run_team(d, st, reverse);
                    ASSERT_EQ(team.degree, ref.degree) << "window " << st.window << " kind " << kind;
                    ASSERT_EQ(0, std::memcmp(team.coef, ref.coef, sizeof ref.coef))
                        << "window " << st.window << " kind " << kind << " reverse " << reverse
                        << ": J " << team.coef[0] << " vs " << ref.coef[0];
                    ++compared;
                }
            }
    EXPECT_GT(compared, 1000);
}

TEST(FacetCore, ReferenceAgreesWithIndependentNormalEquations) {
    facet_test::Random rnd(8);
    int clear = 0, degree_counts[4] = {};
    for (const Settings& st : settings_grid())
        for (int kind = 0; kind <= 6; ++kind)
            for (int rep = 0; rep < 6; ++rep) {
                const std::vector<double> d = make_window(st.window, kind, rnd);
                const facet::Fit got = run_reference(d, st);
                const facet_test::IndependentResult want =
                    facet_test::independent_fit(d, st.window, st.max_degree, st.max_iter, st.epsilon, st.tuning);
                if (!facet_test::clear_choice(want)) continue;
                ++clear;
                ++degree_counts[want.degree];
                ASSERT_EQ(got.degree, want.degree) << "window " << st.window << " kind " << kind;
                double size = 1;
                for (double v : d) size = std::max(size, std::fabs(v));
                for (int k = 0; k < 10; ++k)
                    ASSERT_NEAR(got.coef[k], want.coef[k], 1e-8 * size)
                        << "coefficient " << k << ", window " << st.window << " kind " << kind;
            }
    EXPECT_GT(clear, 900);
    // Every degree was chosen somewhere, so the comparison covers them all.
    for (int deg = 0; deg <= 3; ++deg) EXPECT_GT(degree_counts[deg], 10) << "degree " << deg;
}

// A pure polynomial of degree d is reproduced to rounding and degree d is chosen.
TEST(FacetCore, ExactPolynomialsAreReproduced) {
    facet_test::Random rnd(9);
    for (int w : {5, 7})
        for (int deg = 0; deg <= 3; ++deg)
            for (int rep = 0; rep < 20; ++rep) {
                const int h = w / 2, p = facet::coefficient_count(deg);
                double a[10] = {};
                for (int k = 0; k < p; ++k) a[k] = 4 * rnd.uniform() - 2;
                a[p - 1] += a[p - 1] >= 0 ? 0.5 : -0.5;  // the top degree really present
                std::vector<double> d(w * w);
                for (int i = 0; i < w * w; ++i) {
                    const double r = i / w - h, c = i % w - h;
                    double v = 0;
                    for (int k = 0; k < 10; ++k)
                        v += a[k] * std::pow(r, facet_test::kExponents[k].first) *
                             std::pow(c, facet_test::kExponents[k].second);
                    d[i] = v;
                }
                Settings st;
                st.window = w;
                const facet::Fit f = run_reference(d, st);
                ASSERT_EQ(f.degree, deg) << "window " << w << " rep " << rep;
                for (int k = 0; k < 10; ++k) ASSERT_NEAR(f.coef[k], a[k], 1e-10) << "coefficient " << k;
            }
}

TEST(FacetCore, HigherDegreesAreNotTriedOnceAFitIsExact) {
    // A constant window: the median fits exactly, degree 0, and the
    // coefficients beyond it stay 0 (the cubic would fit just as well).
    Settings st;
    std::vector<double> d(25, 3.5);
    const facet::Fit f = run_reference(d, st);
    EXPECT_EQ(f.degree, 0);
    EXPECT_EQ(f.coef[0], 3.5);
    for (int k = 1; k < 10; ++k) EXPECT_EQ(f.coef[k], 0.0);
    // More than half the window at one value: MAD 0, the median wins (step edges stay sharp).
    for (int i = 0; i < 25; ++i) d[i] = (i % 5) < 2 ? 0.0 : 100.0;
    const facet::Fit g = run_reference(d, st);
    EXPECT_EQ(g.degree, 0);
    EXPECT_EQ(g.coef[0], 100.0);
}

TEST(FacetCore, OutliersGetSmallWeights) {
    // A plane with a quarter of the window replaced by large outliers: the
    // robust planar fit recovers the plane (least squares would not).
    Settings st;
    st.max_degree = 1;
    st.max_iter = 20;
    std::vector<double> d(25);
    for (int i = 0; i < 25; ++i) {
        const double r = i / 5 - 2, c = i % 5 - 2;
        d[i] = 50 + 2 * r - 3 * c + (i % 4 == 1 ? 200.0 : 0.0);
    }
    const facet::Fit f = run_reference(d, st);
    EXPECT_EQ(f.degree, 1);
    EXPECT_NEAR(f.coef[0], 50, 0.5);
    EXPECT_NEAR(f.coef[1], 2, 0.5);
    EXPECT_NEAR(f.coef[2], -3, 0.5);
}

TEST(FacetCore, SymmetricIndexIsPadarraySymmetric) {
    for (int n = 1; n <= 6; ++n)
        for (int k = -40; k <= 40; ++k) {
            int m = k;
            while (m < 0 || m >= n) m = m < 0 ? -m - 1 : 2 * n - 1 - m;
            ASSERT_EQ(facet::symmetric_index(k, n), m) << "k " << k << " n " << n;
        }
    // MATLAB: padarray([1 2 3], [0 2], 'symmetric') = [2 1 1 2 3 3 2].
    const int want[] = {1, 0, 0, 1, 2, 2, 1};
    for (int k = -2; k <= 4; ++k) EXPECT_EQ(facet::symmetric_index(k, 3), want[k + 2]);
}

TEST(FacetCore, MedianIsTheMiddleOrderStatistic) {
    facet_test::Random rnd(10);
    double scratch[facet::kMaxWindowPixels];
    for (int n : {1, 3, 9, 25, 49, 225})
        for (int rep = 0; rep < 20; ++rep) {
            std::vector<double> v(n);
            for (double& x : v) x = rnd.below(7) - 3;  // many ties
            EXPECT_EQ(facet::detail::median_of(v.data(), n, scratch), facet_test::sorted_median(v));
        }
}

TEST(FacetCore, QualityPrefersLowerDegreeAtEqualScale) {
    for (int p : {1, 3, 6}) {
        EXPECT_LT(facet::fit_quality(0.0, 1e-6, 25, p), facet::fit_quality(0.0, 1e-6, 25, p + 3));
        EXPECT_LT(facet::fit_quality(2.0, 1e-6, 25, p), facet::fit_quality(2.0, 1e-6, 25, p + 3));
    }
    // sigma * sqrt(N / (N - p)) by hand: 2 * sqrt(25 / 15).
    EXPECT_DOUBLE_EQ(facet::fit_quality(2.0, 1e-6, 25, 10), 2.0 * std::sqrt(25.0 / 15.0));
    EXPECT_DOUBLE_EQ(facet::fit_quality(1e-9, 1e-6, 25, 1), 1e-6 * std::sqrt(25.0 / 24.0));
}

}  // namespace
