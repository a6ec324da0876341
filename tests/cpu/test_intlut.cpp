// SPDX-License-Identifier: Apache-2.0
// ipt.intlut against MATLAB's documentation example and the definition
// B(i) = LUT(A(i)+1) (int16: LUT(A(i)+32769)).
#include <cstdint>
#include <random>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

template <class T>
std::vector<T> intlut(const ipt::Image& a, const ipt::Image& lut) {
    ipt::Call call(context(), "ipt.intlut");
    call.image("A", a).image("LUT", lut).run();
    ipt::Image b = call.take("B");
    EXPECT_EQ(b.dtype(), a.dtype());
    EXPECT_EQ(b.rows(), a.rows());
    EXPECT_EQ(b.cols(), a.cols());
    EXPECT_EQ(b.channels(), a.channels());
    return b.download<T>();
}

// MathWorks' example: A = uint8([1 2 3 4; 5 6 7 8; 9 10 11 12]);
// LUT = repmat(uint8([0 150 200 255]),1,64); B = intlut(A,LUT).
TEST(Intlut, MatlabDocExample) {
    std::vector<uint8_t> lut;
    for (int i = 0; i < 64; ++i) lut.insert(lut.end(), {0, 150, 200, 255});
    auto b = intlut<uint8_t>(image<uint8_t>(3, 4, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}),
                             image<uint8_t>(1, 256, lut));
    EXPECT_EQ(b, (std::vector<uint8_t>{150, 200, 255, 0, 150, 200, 255, 0, 150, 200, 255, 0}));
}

TEST(Intlut, Uint8EveryValueAndShapes) {
    std::vector<uint8_t> lut(256);
    for (int k = 0; k < 256; ++k) lut[k] = static_cast<uint8_t>((k * 37 + 11) % 256);
    std::vector<uint8_t> all(256);
    for (int k = 0; k < 256; ++k) all[k] = static_cast<uint8_t>(255 - k);
    // As a row, a column and a square; the LUT given as a column.
    for (auto [rows, cols] : {std::pair{1, 256}, {256, 1}, {16, 16}}) {
        auto b = intlut<uint8_t>(image<uint8_t>(rows, cols, all), image<uint8_t>(256, 1, lut));
        for (int i = 0; i < 256; ++i) EXPECT_EQ(b[i], lut[all[i]]) << i;
    }
    auto one = intlut<uint8_t>(image<uint8_t>(1, 1, {7}), image<uint8_t>(1, 256, lut));
    EXPECT_EQ(one, std::vector<uint8_t>{lut[7]});
}

// Large enough for the blocks that the threads share and the 64-pixel
// vector steps within them, with ragged ends.
TEST(Intlut, Uint8LargeRandomAgainstDefinition) {
    std::mt19937 rng(17);
    std::vector<uint8_t> lut(256), a(131 * 517);
    for (auto& v : lut) v = static_cast<uint8_t>(rng());
    for (auto& v : a) v = static_cast<uint8_t>(rng());
    auto b = intlut<uint8_t>(image<uint8_t>(131, 517, a), image<uint8_t>(256, 1, lut));
    ASSERT_EQ(b.size(), a.size());
    for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(b[i], lut[a[i]]) << i;
}

TEST(Intlut, RgbUsesOneTableForEveryPlane) {
    std::vector<uint8_t> lut(256);
    for (int k = 0; k < 256; ++k) lut[k] = static_cast<uint8_t>(k / 2);
    std::vector<uint8_t> a = {0, 10, 20, 30, 40, 50, 255, 254, 253, 1, 2, 3};  // 2x2x3
    auto b = intlut<uint8_t>(image<uint8_t>(2, 2, a, 3), image<uint8_t>(1, 256, lut));
    ASSERT_EQ(b.size(), a.size());
    for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(b[i], a[i] / 2);
}

TEST(Intlut, Uint16RandomAgainstDefinition) {
    std::mt19937 rng(5);
    std::vector<uint16_t> lut(65536);
    for (auto& v : lut) v = static_cast<uint16_t>(rng());
    std::vector<uint16_t> a(37 * 53);
    for (auto& v : a) v = static_cast<uint16_t>(rng());
    a[0] = 0;
    a[1] = 65535;
    auto b = intlut<uint16_t>(image<uint16_t>(37, 53, a), image<uint16_t>(1, 65536, lut));
    for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(b[i], lut[a[i]]) << i;
}

TEST(Intlut, Int16IsIndexedFromMinus32768) {
    // LUT(k) = k - 1 - 32768 as int16 would be the identity; use a distinct map:
    // LUT entry for value v is -v (saturated), so B = -A.
    std::vector<int16_t> lut(65536);
    for (int k = 0; k < 65536; ++k) {
        const int v = k - 32768;
        lut[k] = static_cast<int16_t>(v == -32768 ? 32767 : -v);
    }
    auto b = intlut<int16_t>(image<int16_t>(1, 6, {-32768, -32767, -1, 0, 1, 32767}),
                             image<int16_t>(1, 65536, lut));
    EXPECT_EQ(b, (std::vector<int16_t>{32767, 32767, 1, 0, -1, -32767}));
    // Random values against the definition LUT(double(A)+32769).
    std::mt19937 rng(9);
    std::vector<int16_t> a(4096);
    for (auto& v : a) v = static_cast<int16_t>(static_cast<int32_t>(rng() % 65536) - 32768);
    for (auto& v : lut) v = static_cast<int16_t>(static_cast<int32_t>(rng() % 65536) - 32768);
    auto c = intlut<int16_t>(image<int16_t>(64, 64, a), image<int16_t>(65536, 1, lut));
    for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(c[i], lut[a[i] + 32768]) << i;
}

TEST(Intlut, EmptyImage) {
    std::vector<uint8_t> lut(256, 3);
    auto b = intlut<uint8_t>(image<uint8_t>(0, 5, {}), image<uint8_t>(1, 256, lut));
    EXPECT_TRUE(b.empty());
}

TEST(Intlut, RejectsLutOfWrongLength) {
    // A call refers to its images: keep them alive until it runs.
    const ipt::Image a8 = image<uint8_t>(1, 2, {1, 2});
    const ipt::Image short_lut = image<uint8_t>(1, 255, std::vector<uint8_t>(255, 0));
    ipt::Call call(context(), "ipt.intlut");
    call.image("A", a8).image("LUT", short_lut);
    IPT_EXPECT_ERROR(call.run(), IPT_ERR_INVALID_ARGUMENT, "LUT");
    IPT_EXPECT_ERROR(call.take("B"), IPT_ERR_NOT_FOUND, "B");  // no output on failure

    const ipt::Image a16 = image<uint16_t>(1, 2, {1, 2});
    const ipt::Image lut256 = image<uint16_t>(1, 256, std::vector<uint16_t>(256, 0));  // needs 65536
    ipt::Call call16(context(), "ipt.intlut");
    call16.image("A", a16).image("LUT", lut256);
    IPT_EXPECT_ERROR(call16.run(), IPT_ERR_INVALID_ARGUMENT, "LUT");
}

TEST(Intlut, RejectsLutOfWrongClassOrShape) {
    const ipt::Image a = image<uint8_t>(1, 2, {1, 2});
    const ipt::Image lut16 = image<uint16_t>(1, 256, std::vector<uint16_t>(256, 0));
    ipt::Call call(context(), "ipt.intlut");
    call.image("A", a).image("LUT", lut16);
    IPT_EXPECT_ERROR(call.run(), IPT_ERR_INVALID_ARGUMENT, "LUT");

    const ipt::Image square = image<uint8_t>(16, 16, std::vector<uint8_t>(256, 0));  // not a vector
    ipt::Call call2(context(), "ipt.intlut");
    call2.image("A", a).image("LUT", square);
    IPT_EXPECT_ERROR(call2.run(), IPT_ERR_INVALID_ARGUMENT, "LUT");
}

TEST(Intlut, RejectsNonIntegerImage) {
    const ipt::Image a = image<double>(1, 2, {1, 2});
    const ipt::Image lut = image<double>(1, 256, std::vector<double>(256, 0));
    ipt::Call call(context(), "ipt.intlut");
    call.image("A", a).image("LUT", lut);
    IPT_EXPECT_ERROR(call.run(), IPT_ERR_INVALID_ARGUMENT, "A");
}

}  // namespace
