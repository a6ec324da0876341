// SPDX-License-Identifier: Apache-2.0
// ipt.imhist against hand-computed histograms and an independent brute-force
// binning written here from MathWorks' description (floor(x*(n-1)+0.5) on
// the [0,1] scale, values outside it in the end bins, NaN in the first).
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

struct Hist {
    std::vector<double> counts, locations;
};

Hist imhist(const ipt::Image& img, int64_t n = 0) {
    ipt::Call call(context(), "ipt.imhist");
    call.image("I", img);
    if (n > 0) call.integer("n", n);
    call.want("binLocations");
    call.run();
    ipt::Image c = call.take("counts");
    ipt::Image x = call.take("binLocations");
    EXPECT_EQ(c.dtype(), IPT_DOUBLE);
    EXPECT_EQ(c.cols(), 1);
    EXPECT_EQ(x.rows(), c.rows());
    return {c.download<double>(), x.download<double>()};
}

std::vector<double> sparse(int64_t n, std::initializer_list<std::pair<int64_t, double>> entries) {
    std::vector<double> v(n, 0.0);
    for (auto [k, c] : entries) v[k] = c;
    return v;
}

TEST(Imhist, Uint8DefaultBinsAreTheValues) {
    const Hist h = imhist(image<uint8_t>(2, 3, {0, 0, 1, 255, 255, 255}));
    EXPECT_EQ(h.counts, sparse(256, {{0, 2}, {1, 1}, {255, 3}}));
    for (int k = 0; k < 256; ++k) EXPECT_EQ(h.locations[k], k);
}

TEST(Imhist, Uint8IntoFourBins) {
    // trunc(v*3/255 + 0.5): 42 -> 0, 43 -> 1, 127 -> 1, 128 -> 2, 255 -> 3.
    const Hist h = imhist(image<uint8_t>(1, 6, {0, 42, 43, 127, 128, 255}), 4);
    EXPECT_EQ(h.counts, (std::vector<double>{2, 2, 1, 1}));
    EXPECT_EQ(h.locations, (std::vector<double>{0, 85, 170, 255}));
}

TEST(Imhist, Uint16AndInt16) {
    // uint16, 256 bins: round(v/257).
    const Hist u = imhist(image<uint16_t>(1, 5, {0, 128, 129, 257, 65535}));
    EXPECT_EQ(u.counts, sparse(256, {{0, 2}, {1, 2}, {255, 1}}));
    EXPECT_EQ(u.locations[1], 257);
    // int16 is offset to uint16: -32768 -> 0, 0 -> 128, 32767 -> 255.
    const Hist s = imhist(image<int16_t>(3, 1, {-32768, 0, 32767}));
    EXPECT_EQ(s.counts, sparse(256, {{0, 1}, {128, 1}, {255, 1}}));
    EXPECT_EQ(s.locations[0], -32768);
    EXPECT_EQ(s.locations[255], 32767);
    // Every uint16 value in its own bin.
    std::vector<uint16_t> all(65536);
    for (int v = 0; v < 65536; ++v) all[v] = static_cast<uint16_t>(v);
    const Hist full = imhist(image<uint16_t>(256, 256, all), 65536);
    EXPECT_EQ(full.counts, std::vector<double>(65536, 1.0));
}

TEST(Imhist, Int32AndUint32) {
    const Hist s = imhist(image<int32_t>(1, 3, {std::numeric_limits<int32_t>::min(), 0,
                                                std::numeric_limits<int32_t>::max()}));
    EXPECT_EQ(s.counts, sparse(256, {{0, 1}, {128, 1}, {255, 1}}));
    const Hist u = imhist(image<uint32_t>(1, 2, {0u, 4294967295u}), 3);
    EXPECT_EQ(u.counts, (std::vector<double>{1, 0, 1}));
    EXPECT_EQ(u.locations, (std::vector<double>{0, 2147483647.5, 4294967295.0}));
}

TEST(Imhist, LogicalHasTwoBins) {
    const Hist h = imhist(ipt_test::logical(2, 3, {0, 1, 1, 0, 1, 1}));
    EXPECT_EQ(h.counts, (std::vector<double>{2, 4}));
    EXPECT_EQ(h.locations, (std::vector<double>{0, 1}));
    IPT_EXPECT_ERROR(imhist(ipt_test::logical(1, 2, {0, 1}), 3), IPT_ERR_INVALID_ARGUMENT, "'n'");
}

TEST(Imhist, FloatingSpecialValues) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    // NaN, -Inf and negatives in the first bin; Inf and > 1 in the last.
    const Hist h = imhist(image<double>(1, 8, {nan, -inf, -0.3, 0, 0.5, 1, 1.5, inf}), 5);
    EXPECT_EQ(h.counts, (std::vector<double>{4, 0, 1, 0, 3}));
    EXPECT_EQ(h.locations, (std::vector<double>{0, 0.25, 0.5, 0.75, 1}));
    const float fnan = std::numeric_limits<float>::quiet_NaN();
    const Hist f = imhist(image<float>(2, 2, {fnan, 0.25f, 0.75f, 2.0f}), 3);
    // 0.25*2 + 0.5 = 1, 0.75*2 + 0.5 = 2.
    EXPECT_EQ(f.counts, (std::vector<double>{1, 1, 2}));
}

TEST(Imhist, RandomDoubleAgainstBruteForce) {
    std::mt19937 rng(15);
    std::uniform_real_distribution<double> u(-0.2, 1.2);
    for (int64_t n : {1, 2, 7, 64, 256, 1000}) {
        std::vector<double> v(37 * 29);
        for (auto& x : v) x = u(rng);
        std::vector<double> expect(n, 0.0);
        for (double x : v) {
            const double c = std::min(1.0, std::max(0.0, x));
            ++expect[static_cast<int64_t>(std::floor(c * (n - 1) + 0.5))];
        }
        EXPECT_EQ(imhist(image<double>(37, 29, v), n).counts, expect) << n;
    }
}

TEST(Imhist, EveryChannelIsCounted) {
    const Hist h = imhist(image<uint8_t>(1, 2, {7, 7, 9, 9, 9, 250}, 3), 256);
    EXPECT_EQ(h.counts, sparse(256, {{7, 2}, {9, 3}, {250, 1}}));
}

TEST(Imhist, EmptyAndSingleBin) {
    const Hist e = imhist(image<uint8_t>(0, 0, {}));
    EXPECT_EQ(e.counts, std::vector<double>(256, 0.0));
    const Hist one = imhist(image<uint8_t>(1, 3, {0, 128, 255}), 1);
    EXPECT_EQ(one.counts, (std::vector<double>{3}));
    EXPECT_EQ(one.locations, (std::vector<double>{255}));
    const Hist col = imhist(image<double>(4, 1, {0, 0, 1, 1}), 2);
    EXPECT_EQ(col.counts, (std::vector<double>{2, 2}));
}

// Large images are counted in blocks, each into four interleaved 32-bit
// sub-histograms when there are at most 1024 bins, into one otherwise; the
// counts must not depend on how they were split. Odd sizes leave tails.
TEST(Imhist, LargeImagesAgainstBruteForce) {
    std::mt19937 rng(21);
    std::vector<uint8_t> u(1021 * 517);
    for (size_t i = 0; i < u.size(); ++i) u[i] = static_cast<uint8_t>(i % 5 == 0 ? 200 : rng() % 256);
    std::vector<double> expect(256, 0.0);
    for (uint8_t v : u) ++expect[v];
    EXPECT_EQ(imhist(image<uint8_t>(1021, 517, u)).counts, expect);
    std::vector<double> four(4, 0.0);
    for (uint8_t v : u) ++four[static_cast<int64_t>(std::floor(v * 3.0 / 255.0 + 0.5))];
    EXPECT_EQ(imhist(image<uint8_t>(1021, 517, u), 4).counts, four);
    std::vector<uint16_t> w(613 * 331);
    for (auto& v : w) v = static_cast<uint16_t>(rng() % 65536);
    for (int64_t n : {1024, 1025, 4096}) {
        std::vector<double> want(static_cast<size_t>(n), 0.0);
        for (uint16_t v : w) ++want[static_cast<size_t>(std::floor(v * double(n - 1) / 65535.0 + 0.5))];
        EXPECT_EQ(imhist(image<uint16_t>(613, 331, w), n).counts, want) << n;
    }
}

}  // namespace
