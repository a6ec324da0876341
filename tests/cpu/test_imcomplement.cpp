// SPDX-License-Identifier: Apache-2.0
// ipt.imcomplement against MathWorks' documented examples and the rules per
// class written out by hand: ~I, intmax-I, -1-I, 1-I.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

template <class T>
std::vector<T> complement(const ipt::Image& i) {
    ipt::Call call(context(), "ipt.imcomplement");
    call.image("I", i).run();
    ipt::Image j = call.take("J");
    EXPECT_EQ(j.dtype(), i.dtype());
    EXPECT_EQ(j.rows(), i.rows());
    EXPECT_EQ(j.cols(), i.cols());
    EXPECT_EQ(j.channels(), i.channels());
    return j.download<T>();
}

// MathWorks' example: X = uint8([255 10 75; 44 225 100]) gives
// [0 245 180; 211 30 155].
TEST(Imcomplement, MatlabDocExampleUint8) {
    auto j = complement<uint8_t>(image<uint8_t>(2, 3, {255, 10, 75, 44, 225, 100}));
    EXPECT_EQ(j, (std::vector<uint8_t>{0, 245, 180, 211, 30, 155}));
}

TEST(Imcomplement, Uint8EveryValueAndShapes) {
    std::vector<uint8_t> all(256);
    for (int k = 0; k < 256; ++k) all[k] = static_cast<uint8_t>(k);
    for (auto [rows, cols] : {std::pair{1, 256}, {256, 1}, {16, 16}}) {
        auto j = complement<uint8_t>(image<uint8_t>(rows, cols, all));
        for (int k = 0; k < 256; ++k) ASSERT_EQ(j[k], 255 - k) << k;
    }
    EXPECT_EQ(complement<uint8_t>(image<uint8_t>(1, 1, {0})), std::vector<uint8_t>{255});
}

TEST(Imcomplement, Uint16EveryValue) {
    std::vector<uint16_t> all(65536);
    for (int k = 0; k < 65536; ++k) all[k] = static_cast<uint16_t>(k);
    auto j = complement<uint16_t>(image<uint16_t>(256, 256, all));
    for (int k = 0; k < 65536; ++k) ASSERT_EQ(j[k], 65535 - k) << k;
}

// Signed classes: intmin + intmax - x, which is -1 - x: intmin and intmax swap.
TEST(Imcomplement, Int16EveryValue) {
    std::vector<int16_t> all(65536);
    for (int k = 0; k < 65536; ++k) all[k] = static_cast<int16_t>(k - 32768);
    auto j = complement<int16_t>(image<int16_t>(65536, 1, all));
    for (int k = 0; k < 65536; ++k) ASSERT_EQ(j[k], -1 - (k - 32768)) << k;
    auto ends = complement<int16_t>(image<int16_t>(1, 4, {-32768, -1, 0, 32767}));
    EXPECT_EQ(ends, (std::vector<int16_t>{32767, 0, -1, -32768}));
}

TEST(Imcomplement, ThirtyTwoBitClasses) {
    const int32_t lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
    EXPECT_EQ(complement<int32_t>(image<int32_t>(1, 5, {lo, -5, 0, 7, hi})),
              (std::vector<int32_t>{hi, 4, -1, -8, lo}));
    EXPECT_EQ(complement<uint32_t>(image<uint32_t>(3, 1, {0u, 1u, 4294967295u})),
              (std::vector<uint32_t>{4294967295u, 4294967294u, 0u}));
}

TEST(Imcomplement, LogicalIsNot) {
    ipt::Call call(context(), "ipt.imcomplement");
    call.image("I", ipt_test::logical(2, 2, {1, 0, 0, 1})).run();
    ipt::Image j = call.take("J");
    EXPECT_EQ(j.dtype(), IPT_LOGICAL);
    EXPECT_EQ(j.download<uint8_t>(), (std::vector<uint8_t>{0, 1, 1, 0}));
}

// Floating classes: 1 - I in the class of I, without clipping; NaN stays NaN.
TEST(Imcomplement, FloatingOneMinus) {
    const double inf = std::numeric_limits<double>::infinity();
    auto d = complement<double>(image<double>(1, 7, {0.0, 1.0, 0.25, -0.5, 2.0, inf, NAN}));
    EXPECT_EQ(d[0], 1.0);
    EXPECT_EQ(d[1], 0.0);
    EXPECT_EQ(d[2], 0.75);
    EXPECT_EQ(d[3], 1.5);
    EXPECT_EQ(d[4], -1.0);
    EXPECT_EQ(d[5], -inf);
    EXPECT_TRUE(std::isnan(d[6]));
    // 0.1f: 1 - 0.1f rounded in single, not in double.
    auto s = complement<float>(image<float>(1, 3, {0.1f, 1e-30f, 3.0f}));
    EXPECT_EQ(s[0], 1.0f - 0.1f);
    EXPECT_EQ(s[1], 1.0f);
    EXPECT_EQ(s[2], -2.0f);
}

TEST(Imcomplement, RgbEveryPlaneAndEmpty) {
    std::vector<uint8_t> a = {0, 10, 20, 30, 40, 50, 255, 254, 253, 1, 2, 3};  // 2x2x3
    auto j = complement<uint8_t>(image<uint8_t>(2, 2, a, 3));
    for (size_t k = 0; k < a.size(); ++k) EXPECT_EQ(j[k], 255 - a[k]);
    EXPECT_TRUE(complement<uint8_t>(image<uint8_t>(0, 5, {})).empty());
}

// Images of over a megabyte moved are shared among threads in ranges; odd
// sizes leave a short last range.
TEST(Imcomplement, LargeImagesEveryElement) {
    std::vector<uint8_t> u(1031 * 677);
    for (size_t i = 0; i < u.size(); ++i) u[i] = static_cast<uint8_t>((i * 131 + 7) % 256);
    const auto ju = complement<uint8_t>(image<uint8_t>(1031, 677, u));
    for (size_t i = 0; i < u.size(); ++i) ASSERT_EQ(ju[i], 255 - u[i]) << i;
    std::vector<double> d(517 * 263);
    for (size_t i = 0; i < d.size(); ++i) d[i] = static_cast<double>(i % 1000) / 999.0 - 0.25;
    const auto jd = complement<double>(image<double>(517, 263, d));
    for (size_t i = 0; i < d.size(); ++i) ASSERT_EQ(jd[i], 1.0 - d[i]) << i;
}

}  // namespace
