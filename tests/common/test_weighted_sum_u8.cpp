// SPDX-License-Identifier: Apache-2.0
// The CPU backend's fixed-point sum of three uint8 planes gives exactly what
// the double formula gives: (w0*x0 + w1*x1) + w2*x2 + offset in double, then
// rounded half away from zero (std::round) and saturated to [0, 255].
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "cpu/common/weighted_sum_u8.hpp"

namespace {

uint8_t by_formula(const double (&w)[3], double offset, uint8_t a, uint8_t b, uint8_t c) {
    double acc = w[0] * a;
    acc = acc + w[1] * b;
    acc = acc + w[2] * c;
    acc = acc + offset;
    return static_cast<uint8_t>(std::clamp(std::round(acc), 0.0, 255.0));
}

// Runs the fast path over the given triples and counts disagreements.
int64_t mismatches(const double (&w)[3], double offset, const std::vector<uint8_t>& x0, const std::vector<uint8_t>& x1,
                   const std::vector<uint8_t>& x2) {
    const ipt::cpu::FixedPointSum f = ipt::cpu::fixed_point_sum(w, offset);
    EXPECT_TRUE(f.usable);
    const int64_t n = static_cast<int64_t>(x0.size());
    std::vector<uint8_t> out(x0.size()), near(x0.size());
    ipt::cpu::weighted_sum_u8(f, x0.data(), x1.data(), x2.data(), out.data(), near.data(), n,
                              [&](uint8_t a, uint8_t b, uint8_t c) { return by_formula(w, offset, a, b, c); });
    int64_t bad = 0;
    for (int64_t i = 0; i < n; ++i) bad += out[i] != by_formula(w, offset, x0[i], x1[i], x2[i]);
    return bad;
}

// rgb2gray's weights over every one of the 2^24 colours.
TEST(WeightedSumU8, EveryColourWithRgb2grayWeights) {
    const double w[3] = {0.298936021293775, 0.587043074451121, 0.114020904255103};
    std::vector<uint8_t> r, g, b;
    r.reserve(1 << 24), g.reserve(1 << 24), b.reserve(1 << 24);
    for (int i = 0; i < (1 << 24); ++i) {
        r.push_back(static_cast<uint8_t>(i >> 16));
        g.push_back(static_cast<uint8_t>(i >> 8));
        b.push_back(static_cast<uint8_t>(i));
    }
    EXPECT_EQ(mismatches(w, 0.0, r, g, b), 0);
}

// Weights with exact halves (ties everywhere), negative weights and offsets
// (results below 0 and above 255: saturation), and large weights (fewer
// fraction bits), each over random colours and every value of one plane.
TEST(WeightedSumU8, TiesSaturationAndLargeWeights) {
    const struct {
        double w[3];
        double offset;
    } cases[] = {
        {{0.5, 0.25, 0.125}, 0.0},
        {{0.5, 0.5, 0.5}, 0.5},
        {{1.164383561643836, 0.0, 1.596026785714286}, -222.921565173},
        {{1.164383561643836, -0.391762290094914, -0.812967647237771}, 135.575409590},
        {{-0.148223, -0.290993, 0.439216}, 128.0},
        {{2.0, 2.0, -1.5}, -100.25},
    };
    std::mt19937 rng(7);
    std::vector<uint8_t> x0, x1, x2;
    for (int i = 0; i < 1 << 20; ++i) {
        x0.push_back(static_cast<uint8_t>(rng()));
        x1.push_back(static_cast<uint8_t>(rng()));
        x2.push_back(static_cast<uint8_t>(rng()));
    }
    for (int a = 0; a < 256; ++a)
        for (int b = 0; b < 256; ++b) {
            x0.push_back(static_cast<uint8_t>(a));
            x1.push_back(static_cast<uint8_t>(b));
            x2.push_back(static_cast<uint8_t>(a ^ b));
        }
    for (const auto& c : cases) EXPECT_EQ(mismatches(c.w, c.offset, x0, x1, x2), 0) << c.w[0] << " " << c.offset;
}

// Three sums in one pass (the colour matrices of ycbcr2rgb and rgb2ycbcr for
// uint8, and one with ties) over every colour: each output as its own formula
// gives it.
TEST(WeightedSumU8, ThreeSumsInOnePassOverEveryColour) {
    const double w[3][3] = {{1.164383561643836, 0.0, 1.596026785714286},
                            {1.164383561643836, -0.391762290094914, -0.812967647237771},
                            {0.5, 0.25, 0.125}};
    const double offset[3] = {-222.921565173, 135.575409590, 0.5};
    ipt::cpu::FixedPointSum f[3];
    for (int k = 0; k < 3; ++k) f[k] = ipt::cpu::fixed_point_sum(w[k], offset[k]);
    const int64_t n = int64_t{1} << 24;
    std::vector<uint8_t> x0(n), x1(n), x2(n), out[3], near(n);
    for (int64_t i = 0; i < n; ++i) {
        x0[i] = static_cast<uint8_t>(i >> 16);
        x1[i] = static_cast<uint8_t>(i >> 8);
        x2[i] = static_cast<uint8_t>(i);
    }
    for (auto& o : out) o.resize(n);
    ipt::cpu::weighted_sums3_u8(f, x0.data(), x1.data(), x2.data(), out[0].data(), out[1].data(), out[2].data(),
                                near.data(), n, [&](int k, uint8_t a, uint8_t b, uint8_t c) {
                                    return by_formula(w[k], offset[k], a, b, c);
                                });
    for (int k = 0; k < 3; ++k) {
        int64_t bad = 0;
        for (int64_t i = 0; i < n; ++i) bad += out[k][i] != by_formula(w[k], offset[k], x0[i], x1[i], x2[i]);
        EXPECT_EQ(bad, 0) << "sum " << k;
    }
}

TEST(WeightedSumU8, WeightsTooLargeForTheFixedPointAreRefused) {
    const double w[3] = {1e6, 0, 0};
    EXPECT_FALSE(ipt::cpu::fixed_point_sum(w, 0.0).usable);
    const double nan[3] = {NAN, 0, 0};
    EXPECT_FALSE(ipt::cpu::fixed_point_sum(nan, 0.0).usable);
}

}  // namespace
