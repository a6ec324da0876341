// SPDX-License-Identifier: Apache-2.0
// ipt.histeq: hand-computed equalisations (see tests/frontends/test_histeq.cpp
// for the arithmetic of the transformation), every class, T, the n/hgram
// rules, and an independent transcription of MATLAB's histeq (the full
// m x 256 error matrix, min down each column, grayxform's rounding) for
// random images.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

template <class T>
std::vector<T> histeq(const ipt::Image& img, int64_t n = 0, const std::vector<double>& hgram = {},
                      std::vector<double>* T_out = nullptr) {
    ipt::Call call(context(), "ipt.histeq");
    call.image("I", img);
    if (n > 0) call.integer("n", n);
    if (!hgram.empty()) call.numbers("hgram", hgram);
    if (T_out) call.want("T");
    call.run();
    ipt::Image J = call.take("J");
    EXPECT_EQ(J.dtype(), img.dtype());
    EXPECT_EQ(J.rows(), img.rows());
    EXPECT_EQ(J.cols(), img.cols());
    EXPECT_EQ(J.channels(), img.channels());
    if (T_out) {
        ipt::Image t = call.take("T");
        EXPECT_EQ(t.rows(), 1);
        EXPECT_EQ(t.cols(), 256);
        *T_out = t.download<double>();
    }
    return J.download<T>();
}

TEST(Histeq, TwoLevelsEveryClass) {
    // Default 64 levels: the lower level goes to 31/63, the upper to 1.
    EXPECT_EQ(histeq<uint8_t>(image<uint8_t>(2, 2, {0, 255, 0, 255})), (std::vector<uint8_t>{125, 255, 125, 255}));
    EXPECT_EQ(histeq<uint16_t>(image<uint16_t>(1, 2, {0, 65535})), (std::vector<uint16_t>{32247, 65535}));
    EXPECT_EQ(histeq<int16_t>(image<int16_t>(2, 1, {-32768, 32767})), (std::vector<int16_t>{-521, 32767}));
    EXPECT_EQ(histeq<double>(image<double>(1, 2, {0, 1})), (std::vector<double>{31.0 / 63, 1}));
    EXPECT_EQ(histeq<float>(image<float>(1, 2, {0, 1})), (std::vector<float>{float(31.0 / 63), 1}));
}

TEST(Histeq, TwoOutputLevels) {
    std::vector<double> T;
    EXPECT_EQ(histeq<uint8_t>(image<uint8_t>(1, 4, {0, 0, 255, 255}), 2, {}, &T),
              (std::vector<uint8_t>{0, 0, 255, 255}));
    for (int j = 0; j < 255; ++j) EXPECT_EQ(T[j], 0.0) << j;
    EXPECT_EQ(T[255], 1.0);
}

TEST(Histeq, ThreeLevelsAndHalfBinTolerance) {
    EXPECT_EQ(histeq<double>(image<double>(1, 3, {0, 0.5, 1}), 3), (std::vector<double>{0, 0.5, 1}));
}

TEST(Histeq, TargetHistogram) {
    // hgram [1 3]: cumd = [1 4]; 10 stays at level 1, 20, 30, 40 go to level 2.
    EXPECT_EQ(histeq<uint8_t>(image<uint8_t>(1, 4, {10, 20, 30, 40}), 0, {1, 3}),
              (std::vector<uint8_t>{0, 255, 255, 255}));
    // Scaling hgram changes nothing.
    EXPECT_EQ(histeq<uint8_t>(image<uint8_t>(1, 4, {10, 20, 30, 40}), 0, {0.5, 1.5}),
              (std::vector<uint8_t>{0, 255, 255, 255}));
}

TEST(Histeq, FloatingValuesOutsideTheRange) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // NaN and negatives take T's first entry, values above 1 its last.
    const auto J = histeq<double>(image<double>(1, 4, {nan, -2, 0, 3}), 2);
    // Bin 0 holds 3 of 4, bin 255 one: cumd = [2 4]; bin 0 err = [-1 1] -> level 2.
    EXPECT_EQ(J, (std::vector<double>{1, 1, 1, 1}));
}

TEST(Histeq, ColourImagesAreEqualisedWhole) {
    // The three planes form one histogram: 0 appears twice, 255 four times.
    const auto J = histeq<uint8_t>(image<uint8_t>(1, 2, {0, 0, 255, 255, 255, 255}, 3), 3);
    // cumd = [2 4 6]: bin 0 (cum 2) -> level 1, bin 255 (cum 6) -> level 3.
    EXPECT_EQ(J, (std::vector<uint8_t>{0, 0, 255, 255, 255, 255}));
}

TEST(Histeq, EmptyImage) { EXPECT_TRUE(histeq<uint8_t>(image<uint8_t>(0, 3, {})).empty()); }

TEST(Histeq, RejectsNAndHgramTogetherAndAnEmptyHgram) {
    IPT_EXPECT_ERROR(histeq<uint8_t>(image<uint8_t>(1, 2, {1, 2}), 4, {1, 1}), IPT_ERR_INVALID_ARGUMENT, "hgram");
    ipt::Call call(context(), "ipt.histeq");
    call.image("I", image<uint8_t>(1, 2, {1, 2}));
    IPT_EXPECT_ERROR(call.numbers("hgram", {}).run(), IPT_ERR_INVALID_ARGUMENT, "hgram");
}

// MATLAB's histeq for uint8 transcribed with its matrices.
std::vector<uint8_t> reference_u8(const std::vector<uint8_t>& a, std::vector<double> hgram) {
    const double numel = double(a.size());
    double s = 0;
    for (double h : hgram) s += h;
    for (double& h : hgram) h *= numel / s;
    const size_t m = hgram.size(), n = 256;
    std::vector<double> cumd(m), nn(n, 0.0), cum(n);
    std::partial_sum(hgram.begin(), hgram.end(), cumd.begin());
    for (uint8_t v : a) nn[v] += 1;
    std::partial_sum(nn.begin(), nn.end(), cum.begin());
    std::vector<double> tol(n);
    for (size_t j = 0; j < n; ++j) {
        const double row1 = j < n - 1 ? nn[j] : 0, row2 = j > 0 ? nn[j] : 0;
        tol[j] = std::min(row1, row2) / 2;
    }
    std::vector<std::vector<double>> err(m, std::vector<double>(n));
    for (size_t i = 0; i < m; ++i)
        for (size_t j = 0; j < n; ++j) {
            err[i][j] = (cumd[i] - cum[j]) + tol[j];
            if (err[i][j] < -numel * std::sqrt(std::numeric_limits<double>::epsilon())) err[i][j] = numel;
        }
    std::vector<uint8_t> lut(n);
    for (size_t j = 0; j < n; ++j) {
        size_t best = 0;
        for (size_t i = 1; i < m; ++i)
            if (err[i][j] < err[best][j]) best = i;
        const double T = double(best) / double(m - 1);
        lut[j] = static_cast<uint8_t>(std::floor(255.0 * T + 0.5));
    }
    std::vector<uint8_t> out(a.size());
    for (size_t k = 0; k < a.size(); ++k) out[k] = lut[a[k]];
    return out;
}

TEST(Histeq, RandomUint8AgainstTranscription) {
    std::mt19937 rng(11);
    std::normal_distribution<double> g(90, 30);
    std::vector<uint8_t> a(53 * 47);
    for (auto& v : a) v = static_cast<uint8_t>(std::clamp(std::lround(g(rng)), 0L, 255L));
    const ipt::Image img = image<uint8_t>(53, 47, a);
    for (int64_t n : {2, 5, 64, 256, 300})
        EXPECT_EQ(histeq<uint8_t>(img, n), reference_u8(a, std::vector<double>(n, double(a.size()) / n))) << n;
    std::vector<double> hgram(30);
    for (size_t i = 0; i < hgram.size(); ++i) hgram[i] = double(i * i + 1);
    EXPECT_EQ(histeq<uint8_t>(img, 0, hgram), reference_u8(a, hgram));
}

// A uint8 image large enough to be counted in blocks and mapped across
// threads, odd size.
TEST(Histeq, LargeUint8AgainstTranscription) {
    std::mt19937 rng(12);
    std::normal_distribution<double> g(120, 40);
    std::vector<uint8_t> a(1019 * 523);
    for (auto& v : a) v = static_cast<uint8_t>(std::clamp(std::lround(g(rng)), 0L, 255L));
    EXPECT_EQ(histeq<uint8_t>(image<uint8_t>(1019, 523, a), 64), reference_u8(a, std::vector<double>(64, double(a.size()) / 64)));
}

}  // namespace
