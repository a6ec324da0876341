// SPDX-License-Identifier: Apache-2.0
// ipt.otsuthresh through the C API: hand-computed thresholds (dyadic
// histograms), scalar outputs, and an independent transcription of MATLAB's
// otsuthresh for random histograms.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

std::pair<double, double> otsuthresh(const ipt::Image& counts) {
    ipt::Call call(context(), "ipt.otsuthresh");
    call.image("counts", counts);
    call.want("EM");
    call.run();
    ipt::Image t = call.take("T");
    ipt::Image em = call.take("EM");
    EXPECT_EQ(t.rows(), 1);
    EXPECT_EQ(t.cols(), 1);
    EXPECT_EQ(t.dtype(), IPT_DOUBLE);
    return {t.download<double>()[0], em.download<double>()[0]};
}

// MATLAB's otsuthresh.m transcribed: vectors, then max, find and mean.
std::pair<double, double> reference(const std::vector<double>& counts) {
    const size_t n = counts.size();
    double total = 0;
    for (double c : counts) total += c;
    std::vector<double> p(n), omega(n), mu(n), sigma(n);
    for (size_t i = 0; i < n; ++i) p[i] = counts[i] / total;
    for (size_t i = 0; i < n; ++i) {
        omega[i] = (i ? omega[i - 1] : 0) + p[i];
        mu[i] = (i ? mu[i - 1] : 0) + p[i] * double(i + 1);
    }
    const double mu_t = mu[n - 1];
    for (size_t i = 0; i < n; ++i) sigma[i] = std::pow(mu_t * omega[i] - mu[i], 2) / (omega[i] * (1 - omega[i]));
    double maxval = std::numeric_limits<double>::quiet_NaN();
    for (double s : sigma)
        if (!std::isnan(s) && (std::isnan(maxval) || s > maxval)) maxval = s;
    if (!std::isfinite(maxval)) return {0, 0};
    std::vector<double> found;
    for (size_t i = 0; i < n; ++i)
        if (sigma[i] == maxval) found.push_back(double(i + 1));
    double sum = 0;
    for (double f : found) sum += f;
    const double idx = sum / double(found.size());
    double m2 = 0;
    for (size_t i = 0; i < n; ++i) m2 += p[i] * double((i + 1) * (i + 1));
    return {(idx - 1) / double(n - 1), maxval / (m2 - mu_t * mu_t)};
}

TEST(Otsuthresh, HandComputed) {
    // See tests/frontends/test_otsuthresh.cpp for the arithmetic.
    EXPECT_EQ(otsuthresh(image<double>(1, 4, {1, 0, 0, 1})), std::make_pair(1.0 / 3, 1.0));
    EXPECT_EQ(otsuthresh(image<uint8_t>(3, 1, {1, 2, 1})).first, 0.25);
    EXPECT_EQ(otsuthresh(image<double>(1, 2, {3, 1})), std::make_pair(0.0, 1.0));
    EXPECT_EQ(otsuthresh(image<double>(1, 1, {5})), std::make_pair(0.0, 0.0));
    EXPECT_EQ(otsuthresh(image<double>(1, 3, {0, 0, 0})), std::make_pair(0.0, 0.0));
}

TEST(Otsuthresh, RandomHistogramsAgainstTranscription) {
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> u(0, 50);
    for (int n : {2, 3, 16, 256, 1000}) {
        std::vector<double> c(n);
        for (auto& x : c) x = u(rng);
        const auto got = otsuthresh(image<double>(n, 1, c));
        const auto want = reference(c);
        EXPECT_EQ(got.first, want.first) << n;
        EXPECT_NEAR(got.second, want.second, 1e-14) << n;
        EXPECT_GE(got.first, 0.0);
        EXPECT_LE(got.first, 1.0);
    }
}

TEST(Otsuthresh, RejectsBadCounts) {
    IPT_EXPECT_ERROR(otsuthresh(image<double>(1, 3, {1, -2, 3})), IPT_ERR_INVALID_ARGUMENT, "'counts'");
    IPT_EXPECT_ERROR(otsuthresh(image<double>(1, 2, {1, std::numeric_limits<double>::infinity()})),
                     IPT_ERR_INVALID_ARGUMENT, "'counts'");
    IPT_EXPECT_ERROR(otsuthresh(image<double>(2, 2, {1, 2, 3, 4})), IPT_ERR_INVALID_ARGUMENT, "counts");
    IPT_EXPECT_ERROR(otsuthresh(image<double>(0, 0, {})), IPT_ERR_INVALID_ARGUMENT, "counts");
}

}  // namespace
