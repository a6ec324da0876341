// SPDX-License-Identifier: Apache-2.0
// rgb_to_hsv_u8 (backends/common/colour.hpp), the uint8 form of rgb2hsv with
// fewer divisions, against MATLAB's formula evaluated directly in double
// (rgb_to_hsv of R/255, G/255, B/255) over every RGB triple, to the bit,
// which covers quotient_by_constant at every value it divides there.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "common/colour.hpp"

namespace {

double to_double(uint32_t x) { return static_cast<double>(x); }

uint64_t bits(double x) {
    uint64_t u;
    std::memcpy(&u, &x, sizeof u);
    return u;
}

TEST(Rgb2hsvUint8, EveryTripleMatchesTheFormulaInDouble) {
    int64_t mismatches = 0;
    for (uint32_t R = 0; R < 256; ++R)
        for (uint32_t G = 0; G < 256; ++G)
            for (uint32_t B = 0; B < 256; ++B) {
                double h0, s0, v0, h1, s1, v1;
                ipt::common::rgb_to_hsv(R / 255.0, G / 255.0, B / 255.0, h0, s0, v0);
                ipt::common::rgb_to_hsv_u8(R, G, B, to_double, h1, s1, v1);
                if (bits(h0) != bits(h1) || bits(s0) != bits(s1) || bits(v0) != bits(v1)) {
                    if (++mismatches <= 5)
                        ADD_FAILURE() << "RGB (" << R << ", " << G << ", " << B << "): h " << h0 << " vs " << h1
                                      << ", s " << s0 << " vs " << s1 << ", v " << v0 << " vs " << v1;
                }
            }
    EXPECT_EQ(mismatches, 0);
}

// The Vulkan shader's x/255 of a byte (shaders/rgb2hsv.comp, byte_unit): the
// 64-bit integer of x's bits repeated eight times, converted to double and
// scaled by 2^-64, is the correctly rounded quotient for every byte.
TEST(Rgb2hsvUint8, ByteOver255FromItsRepeatedBits) {
    for (uint32_t x = 0; x < 256; ++x)
        EXPECT_EQ(std::ldexp(static_cast<double>(uint64_t{x} * 0x0101010101010101ull), -64), x / 255.0) << x;
}

// Hand-checked points: pure red, green and blue, a grey and black.
TEST(Rgb2hsvUint8, PrimariesGreyAndBlack) {
    double h, s, v;
    ipt::common::rgb_to_hsv_u8(255, 0, 0, to_double, h, s, v);
    EXPECT_EQ(h, 0.0);
    EXPECT_EQ(s, 1.0);
    EXPECT_EQ(v, 1.0);
    ipt::common::rgb_to_hsv_u8(0, 255, 0, to_double, h, s, v);
    EXPECT_EQ(h, 2.0 / 6.0);
    ipt::common::rgb_to_hsv_u8(0, 0, 255, to_double, h, s, v);
    EXPECT_EQ(h, 4.0 / 6.0);
    ipt::common::rgb_to_hsv_u8(51, 51, 51, to_double, h, s, v);
    EXPECT_EQ(h, 0.0);
    EXPECT_EQ(s, 0.0);
    EXPECT_EQ(v, 0.2);
    ipt::common::rgb_to_hsv_u8(0, 0, 0, to_double, h, s, v);
    EXPECT_EQ(v, 0.0);
    EXPECT_EQ(s, 0.0);
}

}  // namespace
