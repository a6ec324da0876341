// SPDX-License-Identifier: Apache-2.0
// ipt.graythresh: two-valued images (the documented EM = 1 case and the
// threshold midway), constant and empty images (0, 0), every class, colour
// images counted whole, and an independent transcription of graythresh
// (im2uint8, 256-bin histogram, MATLAB's otsuthresh) for random images.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

std::pair<double, double> graythresh(const ipt::Image& img) {
    ipt::Call call(context(), "ipt.graythresh");
    call.image("I", img);
    call.want("EM");
    call.run();
    ipt::Image t = call.take("T");
    EXPECT_EQ(t.rows(), 1);
    EXPECT_EQ(t.cols(), 1);
    return {t.download<double>()[0], call.take("EM").download<double>()[0]};
}

std::pair<double, double> otsu(const std::vector<double>& counts) {
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
    double maxval = -1;
    for (size_t i = 0; i < n; ++i) {
        sigma[i] = std::pow(mu_t * omega[i] - mu[i], 2) / (omega[i] * (1 - omega[i]));
        if (!std::isnan(sigma[i])) maxval = std::max(maxval, sigma[i]);
    }
    if (maxval < 0 || std::isinf(maxval)) return {0, 0};
    double sum = 0, hits = 0, m2 = 0;
    for (size_t i = 0; i < n; ++i) {
        if (sigma[i] == maxval) sum += double(i + 1), hits += 1;
        m2 += p[i] * double((i + 1) * (i + 1));
    }
    return {(sum / hits - 1) / double(n - 1), maxval / (m2 - mu_t * mu_t)};
}

// Two values at 0 and 255: sigma is the same in bins 1..255, so
// idx = mean(1:255) = 128 and T = 127/255; EM = 1 for a two-valued image.
TEST(Graythresh, TwoValuedImages) {
    const auto expect = std::make_pair(127.0 / 255, 1.0);
    EXPECT_EQ(graythresh(image<uint8_t>(2, 2, {0, 255, 255, 0})), expect);
    EXPECT_EQ(graythresh(image<double>(1, 2, {0, 1})), expect);
    EXPECT_EQ(graythresh(image<float>(2, 1, {0.f, 1.f})), expect);
    EXPECT_EQ(graythresh(image<uint16_t>(1, 2, {0, 65535})), expect);
    EXPECT_EQ(graythresh(image<int16_t>(1, 2, {-32768, 32767})), expect);
    // 0.2 and 0.8 are 51 and 204: bins 52..204 tie, idx = 128 again.
    EXPECT_EQ(graythresh(image<double>(2, 2, {0.2, 0.8, 0.8, 0.2})), expect);
    // Three of 10 and one of 20: sigma ties in bins 11..20, idx = 15.5.
    const auto r = graythresh(image<uint8_t>(1, 4, {10, 10, 10, 20}));
    EXPECT_EQ(r.first, 14.5 / 255);
    EXPECT_EQ(r.second, 1.0);
}

TEST(Graythresh, ConstantAndEmptyGiveZero) {
    EXPECT_EQ(graythresh(image<uint8_t>(3, 3, std::vector<uint8_t>(9, 77))), std::make_pair(0.0, 0.0));
    EXPECT_EQ(graythresh(image<double>(1, 1, {0.4})), std::make_pair(0.0, 0.0));
    EXPECT_EQ(graythresh(image<double>(0, 3, {})), std::make_pair(0.0, 0.0));
    // NaN is im2uint8's 0: NaN and 0 together are one level.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(graythresh(image<double>(1, 3, {nan, 0, nan})), std::make_pair(0.0, 0.0));
}

TEST(Graythresh, ColourImagesAreCountedWhole) {
    // Channel 1 all 0, channel 2 half 0, channel 3 all 255: six of each level
    // over the whole array (one channel alone would be constant).
    const auto r = graythresh(image<uint8_t>(2, 2, {0, 0, 0, 0, 0, 255, 0, 255, 255, 255, 255, 255}, 3));
    EXPECT_EQ(r, std::make_pair(127.0 / 255, 1.0));
}

TEST(Graythresh, RandomImagesAgainstTranscription) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(-0.1, 1.1);
    std::vector<double> v(41 * 23);
    for (auto& x : v) x = u(rng);
    std::vector<double> counts(256, 0.0);
    for (double x : v) {
        const double c = std::min(1.0, std::max(0.0, x)) * 255;  // im2uint8: round half away
        ++counts[static_cast<int>(std::round(c))];
    }
    const auto want = otsu(counts);
    const auto got = graythresh(image<double>(41, 23, v));
    EXPECT_EQ(got.first, want.first);
    EXPECT_NEAR(got.second, want.second, 1e-14);
    std::vector<uint16_t> w(31 * 17);
    std::uniform_int_distribution<int> ui(0, 65535);
    for (auto& x : w) x = static_cast<uint16_t>(ui(rng));
    std::fill(counts.begin(), counts.end(), 0.0);
    for (uint16_t x : w) ++counts[static_cast<int>(std::lround(x / 257.0))];
    const auto want16 = otsu(counts);
    const auto got16 = graythresh(image<uint16_t>(31, 17, w));
    EXPECT_EQ(got16.first, want16.first);
    EXPECT_NEAR(got16.second, want16.second, 1e-14);
}

// A large uint8 image (counted in blocks of interleaved sub-histograms).
TEST(Graythresh, LargeUint8AgainstTranscription) {
    std::mt19937 rng(4);
    std::vector<uint8_t> v(1013 * 509);
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint8_t>(i % 2 ? 40 + rng() % 60 : 150 + rng() % 80);
    std::vector<double> counts(256, 0.0);
    for (uint8_t x : v) ++counts[x];
    const auto want = otsu(counts);
    const auto got = graythresh(image<uint8_t>(1013, 509, v));
    EXPECT_EQ(got.first, want.first);
    EXPECT_NEAR(got.second, want.second, 1e-14);
}

}  // namespace
