// SPDX-License-Identifier: Apache-2.0
// ipt.mean2 against hand values and exact sums computed here (integers in
// 128 bits, floating values with long double and error-free pairs).
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

double mean2(const ipt::Image& a, ipt_dtype want = IPT_DOUBLE) {
    ipt::Call call(context(), "ipt.mean2");
    call.image("A", a).run();
    ipt::Image m = call.take("m");
    EXPECT_EQ(m.dtype(), want);
    EXPECT_EQ(m.rows(), 1);
    EXPECT_EQ(m.cols(), 1);
    if (want == IPT_SINGLE) return m.download<float>()[0];
    return m.download<double>()[0];
}

TEST(Mean2, HandValues) {
    // magic(4): sum 136 over 16 elements.
    EXPECT_EQ(mean2(image<double>(4, 4, {16, 2, 3, 13, 5, 11, 10, 8, 9, 7, 6, 12, 4, 14, 15, 1})), 8.5);
    EXPECT_EQ(mean2(image<uint8_t>(2, 2, {1, 2, 3, 4})), 2.5);
    EXPECT_EQ(mean2(image<int16_t>(1, 3, {-32768, 0, 32767})), -1.0 / 3);
    EXPECT_EQ(mean2(ipt_test::logical(2, 3, {1, 0, 1, 1, 0, 0})), 0.5);
    EXPECT_EQ(mean2(image<float>(1, 2, {1.5f, 2.0f}), IPT_SINGLE), 1.75f);
    EXPECT_EQ(mean2(image<double>(1, 1, {-7})), -7);
}

TEST(Mean2, EveryChannelCounts) {
    EXPECT_EQ(mean2(image<uint8_t>(1, 2, {0, 0, 10, 10, 20, 20}, 3)), 10.0);
}

TEST(Mean2, IntegerSumsAreExact) {
    // 10^6 times the largest uint32: the sum needs 52 bits, exact in 64.
    std::vector<uint32_t> big(1000000, 4294967295u);
    EXPECT_EQ(mean2(image<uint32_t>(1000, 1000, big)), 4294967295.0);
    // int32 extremes that cancel except for one element.
    std::vector<int32_t> v;
    for (int i = 0; i < 50000; ++i) v.insert(v.end(), {2147483647, -2147483647});
    v.push_back(3);
    EXPECT_EQ(mean2(image<int32_t>(1, static_cast<int64_t>(v.size()), v)), 3.0 / 100001);
    // Random classes against an exact 128-bit sum.
    std::mt19937 rng(1);
    std::vector<uint16_t> u16(777 * 555);
    __int128 s = 0;
    for (auto& x : u16) s += (x = static_cast<uint16_t>(rng()));
    EXPECT_EQ(mean2(image<uint16_t>(777, 555, u16)), static_cast<double>(s) / (777.0 * 555.0));
    std::vector<uint8_t> u8(3000 * 3000, 255);
    EXPECT_EQ(mean2(image<uint8_t>(3000, 3000, u8)), 255.0);
}

TEST(Mean2, SmallClassesAtTheirLimits) {
    // 8- and 16-bit classes are summed in 32-bit (uint8: 64-bit SAD) lanes per
    // 2^16-element block: the extremes over many whole blocks, plus a ragged
    // tail, must stay exact.
    const int64_t rows = 3, cols = 65536 + 37;  // 3 full blocks and pieces
    const size_t n = static_cast<size_t>(rows * cols);
    EXPECT_EQ(mean2(image<uint16_t>(rows, cols, std::vector<uint16_t>(n, 65535))), 65535.0);
    EXPECT_EQ(mean2(image<int16_t>(rows, cols, std::vector<int16_t>(n, -32768))), -32768.0);
    EXPECT_EQ(mean2(image<int16_t>(rows, cols, std::vector<int16_t>(n, 32767))), 32767.0);
    EXPECT_EQ(mean2(image<uint8_t>(rows, cols, std::vector<uint8_t>(n, 255))), 255.0);
    // Random values against an exact sum, lengths that are not a multiple of 32.
    std::mt19937 rng(7);
    for (int64_t len : {1, 31, 33, 65536 + 31, 200001}) {
        std::vector<uint8_t> u8(static_cast<size_t>(len));
        std::vector<int16_t> i16(static_cast<size_t>(len));
        std::vector<uint8_t> bw(static_cast<size_t>(len));
        int64_t s8 = 0, s16 = 0, sbw = 0;
        for (int64_t i = 0; i < len; ++i) {
            s8 += (u8[static_cast<size_t>(i)] = static_cast<uint8_t>(rng()));
            s16 += (i16[static_cast<size_t>(i)] = static_cast<int16_t>(rng()));
            sbw += (bw[static_cast<size_t>(i)] = static_cast<uint8_t>(rng() & 1));
        }
        EXPECT_EQ(mean2(image<uint8_t>(1, len, u8)), static_cast<double>(s8) / static_cast<double>(len)) << len;
        EXPECT_EQ(mean2(image<int16_t>(len, 1, i16)), static_cast<double>(s16) / static_cast<double>(len)) << len;
        EXPECT_EQ(mean2(context().upload(IPT_LOGICAL, 1, len, bw.data())),
                  static_cast<double>(sbw) / static_cast<double>(len))
            << len;
    }
}

TEST(Mean2, FloatingSumIsCompensated) {
    // The plain left-to-right sum loses the ones (0.25); the exact mean is 0.5.
    EXPECT_EQ(mean2(image<double>(1, 4, {1e16, 1, -1e16, 1})), 0.5);
    std::mt19937 rng(2);
    std::uniform_real_distribution<double> d(-1e6, 1e6);
    std::vector<double> v(1234567);
    long double exact = 0;
    for (auto& x : v) exact += (x = d(rng));
    const double want = static_cast<double>(exact / v.size());
    EXPECT_NEAR(mean2(image<double>(1, static_cast<int64_t>(v.size()), v)), want,
                16 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(want)));
    // single: the exact mean (floats are exact in long double sums of this
    // size), rounded to single.
    std::vector<float> f(v.begin(), v.begin() + 1111 * 1111);
    long double ef = 0;
    for (float x : f) ef += x;
    EXPECT_EQ(mean2(image<float>(1111, 1111, f), IPT_SINGLE),
              static_cast<float>(static_cast<double>(ef / (1111 * 1111))));
}

TEST(Mean2, NonFiniteAndEmpty) {
    EXPECT_TRUE(std::isnan(mean2(image<double>(1, 3, {1, NAN, 2}))));
    EXPECT_EQ(mean2(image<double>(1, 3, {1, INFINITY, 2})), INFINITY);
    EXPECT_TRUE(std::isnan(mean2(image<double>(1, 2, {INFINITY, -INFINITY}))));
    EXPECT_EQ(mean2(image<float>(1, 2, {-INFINITY, 0.f}), IPT_SINGLE), -INFINITY);
    EXPECT_TRUE(std::isnan(mean2(context().create(IPT_DOUBLE, 0, 4))));
    EXPECT_TRUE(std::isnan(mean2(context().create(IPT_UINT8, 3, 0))));
    EXPECT_TRUE(std::isnan(mean2(context().create(IPT_SINGLE, 0, 0), IPT_SINGLE)));
}

TEST(Mean2, BadInput) {
    ipt::Call call(context(), "ipt.mean2");
    ipt::Image two = image<double>(1, 1, {1, 2}, 2);
    call.image("A", two);
    IPT_EXPECT_ERROR(call.run(), IPT_ERR_INVALID_ARGUMENT, "'A'");
    IPT_EXPECT_ERROR(call.take("m"), IPT_ERR_NOT_FOUND, "m");
    ipt::Call none(context(), "ipt.mean2");
    IPT_EXPECT_ERROR(none.run(), IPT_ERR_INVALID_ARGUMENT, "'A'");
}

}  // namespace
