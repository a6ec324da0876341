// SPDX-License-Identifier: Apache-2.0
// ipt.stretchlim against hand-computed limits and an independent
// transcription of MATLAB's definition (imhist bins, cdf, '>' and '>=').
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

std::vector<double> stretchlim(const ipt::Image& img, const std::vector<double>& tol = {}) {
    ipt::Call call(context(), "ipt.stretchlim");
    call.image("I", img);
    if (!tol.empty()) call.numbers("tol", tol);
    call.run();
    ipt::Image out = call.take("LOWHIGH");
    EXPECT_EQ(out.dtype(), IPT_DOUBLE);
    EXPECT_EQ(out.rows(), 2);
    EXPECT_EQ(out.cols(), img.channels());
    return out.download<double>();  // row-major 2 x channels: lows, then highs
}

// Reference: N = imhist(I, nbins) with the documented bins, cdf = cumsum/sum,
// ilow = find(cdf > tol1, 1), ihigh = find(cdf >= tol2, 1).
std::vector<double> reference(const std::vector<int64_t>& bins, int64_t nbins, double t1,
                              double t2) {
    if (t1 >= t2) return {0, 1};
    std::vector<double> n(nbins, 0.0);
    for (int64_t b : bins) n[b] += 1;
    std::vector<double> cdf(nbins);
    double run = 0;
    for (int64_t i = 0; i < nbins; ++i) cdf[i] = (run += n[i]);
    for (auto& c : cdf) c /= run;
    int64_t ilow = 0, ihigh = 0;
    while (!(cdf[ilow] > t1)) ++ilow;
    while (!(cdf[ihigh] >= t2)) ++ihigh;
    if (ilow == ihigh) return {0, 1};
    return {ilow / double(nbins - 1), ihigh / double(nbins - 1)};
}

int64_t double_bin(double x, int64_t nbins) {
    if (std::isnan(x)) return 0;
    const double c = std::min(1.0, std::max(0.0, x));
    return static_cast<int64_t>(std::floor(c * (nbins - 1) + 0.5));
}

std::vector<uint8_t> iota_u8(int n, int start = 0) {
    std::vector<uint8_t> v(n);
    for (int i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(start + i);
    return v;
}

// 100 distinct values 0..99: cdf(bin k) = (k+1)/100. ilow needs cdf > 0.01, so
// bin 1 (not 0); ihigh needs cdf >= 0.99, so bin 98.
TEST(Stretchlim, StrictLowAndInclusiveHigh) {
    auto lh = stretchlim(image<uint8_t>(10, 10, iota_u8(100)));
    EXPECT_DOUBLE_EQ(lh[0], 1.0 / 255);
    EXPECT_DOUBLE_EQ(lh[1], 98.0 / 255);
    // uint16: 65536 bins.
    std::vector<uint16_t> v16(100);
    for (int i = 0; i < 100; ++i) v16[i] = static_cast<uint16_t>(i);
    auto lh16 = stretchlim(image<uint16_t>(1, 100, v16));
    EXPECT_DOUBLE_EQ(lh16[0], 1.0 / 65535);
    EXPECT_DOUBLE_EQ(lh16[1], 98.0 / 65535);
}

TEST(Stretchlim, ZeroToleranceIsMinAndMax) {
    auto lh = stretchlim(image<uint8_t>(1, 3, {30, 10, 20}), {0});
    EXPECT_DOUBLE_EQ(lh[0], 10.0 / 255);
    EXPECT_DOUBLE_EQ(lh[1], 30.0 / 255);
}

TEST(Stretchlim, ScalarToleranceMeansTAndOneMinusT) {
    auto img = image<uint8_t>(10, 10, iota_u8(100, 50));
    auto scalar = stretchlim(img, {0.1});
    auto pair = stretchlim(img, {0.1, 0.9});
    EXPECT_EQ(scalar, pair);
    // cdf(value 50+k) = (k+1)/100: > 0.1 first at k=10, >= 0.9 first at k=89.
    EXPECT_DOUBLE_EQ(scalar[0], 60.0 / 255);
    EXPECT_DOUBLE_EQ(scalar[1], 139.0 / 255);
}

TEST(Stretchlim, ConstantImageGivesZeroOne) {
    EXPECT_EQ(stretchlim(image<uint8_t>(4, 4, std::vector<uint8_t>(16, 77))),
              (std::vector<double>{0, 1}));
    EXPECT_EQ(stretchlim(image<double>(1, 1, {0.3})), (std::vector<double>{0, 1}));
    EXPECT_EQ(stretchlim(image<int16_t>(3, 1, {-5, -5, -5})), (std::vector<double>{0, 1}));
}

TEST(Stretchlim, ToleranceLowNotBelowHighGivesZeroOne) {
    auto img = image<uint8_t>(10, 10, iota_u8(100));
    EXPECT_EQ(stretchlim(img, {0.6, 0.4}), (std::vector<double>{0, 1}));
    EXPECT_EQ(stretchlim(img, {0.5, 0.5}), (std::vector<double>{0, 1}));
    EXPECT_EQ(stretchlim(img, {0.5}), (std::vector<double>{0, 1}));  // [0.5 0.5]
    EXPECT_EQ(stretchlim(img, {0.7}), (std::vector<double>{0, 1}));  // [0.7 0.3]
}

TEST(Stretchlim, Int16IsOffsetBy32768) {
    std::vector<int16_t> v(100);
    for (int i = 0; i < 100; ++i) v[i] = static_cast<int16_t>(i - 50);
    auto lh = stretchlim(image<int16_t>(10, 10, v));
    EXPECT_DOUBLE_EQ(lh[0], (32768.0 - 49) / 65535);
    EXPECT_DOUBLE_EQ(lh[1], (32768.0 + 48) / 65535);
}

TEST(Stretchlim, DoubleAndSingleUse65536Bins) {
    std::vector<double> d(100);
    std::vector<float> f(100);
    for (int i = 0; i < 100; ++i) {
        d[i] = i / 65535.0;
        f[i] = static_cast<float>(d[i]);
    }
    auto lh = stretchlim(image<double>(10, 10, d));
    EXPECT_DOUBLE_EQ(lh[0], 1.0 / 65535);
    EXPECT_DOUBLE_EQ(lh[1], 98.0 / 65535);
    EXPECT_EQ(stretchlim(image<float>(10, 10, f)), lh);
    // Values outside [0,1] fall in the end bins; the limits are quantised to 1/65535.
    auto clamp = stretchlim(image<double>(1, 4, {-3, 0.25, 0.75, 7}), {0.3, 0.7});
    EXPECT_DOUBLE_EQ(clamp[0], std::floor(0.25 * 65535 + 0.5) / 65535);
    EXPECT_DOUBLE_EQ(clamp[1], std::floor(0.75 * 65535 + 0.5) / 65535);
}

TEST(Stretchlim, NaNCountsInTheFirstBin) {
    // 2 NaN and 98 values 0.5: cdf(bin 1) = 0.02 > 0.01, so low = 0. Were NaN
    // ignored, every value would share one bin and the result would be [0;1].
    std::vector<double> v(100, 0.5);
    v[3] = v[77] = std::numeric_limits<double>::quiet_NaN();
    auto lh = stretchlim(image<double>(10, 10, v));
    EXPECT_DOUBLE_EQ(lh[0], 0.0);
    EXPECT_DOUBLE_EQ(lh[1], 32768.0 / 65535);
}

TEST(Stretchlim, LogicalIsAlwaysZeroOne) {
    EXPECT_EQ(stretchlim(ipt_test::logical(2, 3, {0, 1, 1, 0, 1, 1})), (std::vector<double>{0, 1}));
    EXPECT_EQ(stretchlim(ipt_test::logical(1, 2, {1, 1})), (std::vector<double>{0, 1}));
}

TEST(Stretchlim, Int32UsesImhistScaledBins) {
    // int32 is offset to uint32; bin = trunc(u*65535/(2^32-1) + 0.5):
    // intmin -> 0, 0 -> 32768.
    std::vector<int32_t> v(100, 0);
    v[0] = v[1] = std::numeric_limits<int32_t>::min();
    auto lh = stretchlim(image<int32_t>(10, 10, v));
    EXPECT_DOUBLE_EQ(lh[0], 0.0);
    EXPECT_DOUBLE_EQ(lh[1], 32768.0 / 65535);
}

TEST(Stretchlim, RgbGivesOneColumnPerChannel) {
    // Planes: 0..99, 100..199, constant 5.
    std::vector<uint8_t> rgb = iota_u8(100);
    auto g = iota_u8(100, 100);
    rgb.insert(rgb.end(), g.begin(), g.end());
    rgb.insert(rgb.end(), 100, 5);
    auto lh = stretchlim(image<uint8_t>(10, 10, rgb, 3));
    ASSERT_EQ(lh.size(), 6u);
    // Row-major 2x3: [low_r low_g low_b; high_r high_g high_b].
    EXPECT_DOUBLE_EQ(lh[0], 1.0 / 255);
    EXPECT_DOUBLE_EQ(lh[1], 101.0 / 255);
    EXPECT_DOUBLE_EQ(lh[2], 0.0);
    EXPECT_DOUBLE_EQ(lh[3], 98.0 / 255);
    EXPECT_DOUBLE_EQ(lh[4], 198.0 / 255);
    EXPECT_DOUBLE_EQ(lh[5], 1.0);
}

TEST(Stretchlim, EdgeShapes) {
    EXPECT_EQ(stretchlim(image<uint8_t>(1, 1, {200})), (std::vector<double>{0, 1}));
    auto row = stretchlim(image<uint8_t>(1, 5, {0, 50, 100, 150, 200}), {0.2, 0.8});
    auto col = stretchlim(image<uint8_t>(5, 1, {0, 50, 100, 150, 200}), {0.2, 0.8});
    EXPECT_EQ(row, col);
    // cdf = 0.2, 0.4, ...: > 0.2 first at 50; >= 0.8 first at 150.
    EXPECT_DOUBLE_EQ(row[0], 50.0 / 255);
    EXPECT_DOUBLE_EQ(row[1], 150.0 / 255);
}

TEST(Stretchlim, RandomImagesAgainstDefinition) {
    std::mt19937 rng(17);
    std::uniform_real_distribution<double> unit(0, 1);
    for (int trial = 0; trial < 20; ++trial) {
        const int rows = 1 + rng() % 60, cols = 1 + rng() % 60;
        double t1 = unit(rng) * 0.3, t2 = 1 - unit(rng) * 0.3;
        std::vector<uint8_t> u8(rows * cols);
        std::vector<uint16_t> u16(rows * cols);
        std::vector<double> d(rows * cols);
        std::vector<int64_t> b8, b16, bd;
        for (int i = 0; i < rows * cols; ++i) {
            u8[i] = static_cast<uint8_t>(rng() % (1 + trial * 12));
            u16[i] = static_cast<uint16_t>(rng() % (1 + trial * 3000));
            d[i] = unit(rng) * 1.2 - 0.1;
            b8.push_back(u8[i]);
            b16.push_back(u16[i]);
            bd.push_back(double_bin(d[i], 65536));
        }
        EXPECT_EQ(stretchlim(image<uint8_t>(rows, cols, u8), {t1, t2}), reference(b8, 256, t1, t2));
        EXPECT_EQ(stretchlim(image<uint16_t>(rows, cols, u16), {t1, t2}),
                  reference(b16, 65536, t1, t2));
        EXPECT_EQ(stretchlim(image<double>(rows, cols, d), {t1, t2}), reference(bd, 65536, t1, t2));
        EXPECT_EQ(stretchlim(image<double>(rows, cols, d)), reference(bd, 65536, 0.01, 0.99));
    }
}

TEST(Stretchlim, LargeImageMatchesDefinition) {
    // Large enough for the parallel partial histograms.
    std::mt19937 rng(3);
    const int rows = 700, cols = 500;
    std::vector<uint16_t> v(rows * cols);
    std::vector<int64_t> bins;
    for (auto& x : v) {
        x = static_cast<uint16_t>((rng() % 40000) + (rng() % 20000));
        bins.push_back(x);
    }
    EXPECT_EQ(stretchlim(image<uint16_t>(rows, cols, v)), reference(bins, 65536, 0.01, 0.99));
}

TEST(Stretchlim, RejectsToleranceOutOfRange) {
    auto img = image<uint8_t>(1, 2, {1, 2});
    for (std::vector<double> tol : {std::vector<double>{1.5}, {-0.1, 0.9}, {0.1, 1.01}}) {
        ipt::Call call(context(), "ipt.stretchlim");
        call.image("I", img).numbers("tol", tol);
        IPT_EXPECT_ERROR(call.run(), IPT_ERR_INVALID_ARGUMENT, "tol");
    }
    ipt::Call three(context(), "ipt.stretchlim");
    three.image("I", img).numbers("tol", {0.1, 0.2, 0.3});
    IPT_EXPECT_ERROR(three.run(), IPT_ERR_INVALID_ARGUMENT, "tol");
    ipt::Call nan(context(), "ipt.stretchlim");
    nan.image("I", img).numbers("tol", {std::numeric_limits<double>::quiet_NaN()});
    IPT_EXPECT_ERROR(nan.run(), IPT_ERR_INVALID_ARGUMENT, "tol");
}

TEST(Stretchlim, RejectsEmptyImage) {
    const ipt::Image empty = image<uint8_t>(0, 3, {});
    ipt::Call call(context(), "ipt.stretchlim");
    call.image("I", empty);
    IPT_EXPECT_ERROR(call.run(), IPT_ERR_INVALID_ARGUMENT, "I");
    IPT_EXPECT_ERROR(call.take("LOWHIGH"), IPT_ERR_NOT_FOUND, "LOWHIGH");
}

}  // namespace
