// SPDX-License-Identifier: Apache-2.0
// ipt.imadjust against hand-computed values and an independent transcription
// of MATLAB's definition: clamp to [low_in, high_in], normalise, ^gamma,
// scale to [low_out, high_out]; integer classes through a LUT at
// linspace(0,1,n) converted with uint8(255*lut) / uint16(65535*lut).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

struct Params {
    std::vector<double> in;  // empty: default stretchlim(I)
    std::vector<double> out;
    std::vector<double> gamma;
};

template <class T>
std::vector<T> imadjust(const ipt::Image& img, const Params& p = {}) {
    ipt::Call call(context(), "ipt.imadjust");
    call.image("I", img);
    if (!p.in.empty()) call.numbers("low_high_in", p.in);
    if (!p.out.empty()) call.numbers("low_high_out", p.out);
    if (!p.gamma.empty()) call.numbers("gamma", p.gamma);
    call.run();
    ipt::Image j = call.take("J");
    EXPECT_EQ(j.dtype(), img.dtype());
    EXPECT_EQ(j.rows(), img.rows());
    EXPECT_EQ(j.cols(), img.cols());
    EXPECT_EQ(j.channels(), img.channels());
    return j.download<T>();
}

// MATLAB: round half away from zero, saturate.
double matlab_round_sat(double v, double lo, double hi) {
    if (std::isnan(v)) return 0;
    double r = v < 0 ? -std::floor(-v + 0.5) : std::floor(v + 0.5);
    return std::min(hi, std::max(lo, r));
}

double curve(double x, double li, double hi, double lo, double ho, double g) {
    if (std::isnan(x)) x = hi;  // max/min ignore NaN
    x = std::max(li, std::min(hi, x));
    double y = std::pow((x - li) / (hi - li), g);
    return y * (ho - lo) + lo;
}

// Reference for one plane, value by value (no table): the integer value v is
// taken to k/(n-1), its index in MATLAB's LUT.
template <class T>
T reference(T v, double li, double hi, double lo, double ho, double g) {
    if constexpr (std::is_floating_point_v<T>) {
        return static_cast<T>(curve(static_cast<double>(v), li, hi, lo, ho, g));
    } else if constexpr (std::is_same_v<T, uint8_t>) {
        return static_cast<T>(matlab_round_sat(255 * curve(v / 255.0, li, hi, lo, ho, g), 0, 255));
    } else if constexpr (std::is_same_v<T, uint16_t>) {
        return static_cast<T>(
            matlab_round_sat(65535 * curve(v / 65535.0, li, hi, lo, ho, g), 0, 65535));
    } else {
        const double k = static_cast<double>(v) + 32768;
        return static_cast<T>(
            matlab_round_sat(65535 * curve(k / 65535.0, li, hi, lo, ho, g), 0, 65535) - 32768);
    }
}

TEST(Imadjust, Uint8HandValues) {
    // [0.2 0.8] -> [0 1]: 51 is 0.2, 204 is 0.8; 102 -> 1/3 -> 85; 153 -> 2/3 -> 170.
    auto img = image<uint8_t>(1, 6, {0, 51, 102, 153, 204, 255});
    EXPECT_EQ(imadjust<uint8_t>(img, {{0.2, 0.8}, {}, {}}),
              (std::vector<uint8_t>{0, 0, 85, 170, 255, 255}));
    // Inverted output range gives the negative.
    EXPECT_EQ(imadjust<uint8_t>(img, {{0.2, 0.8}, {1, 0}, {}}),
              (std::vector<uint8_t>{255, 255, 170, 85, 0, 0}));
    // gamma 2 on [0 1]: 128 -> (128/255)^2*255 = 64.25 -> 64; 255 -> 255.
    EXPECT_EQ(imadjust<uint8_t>(image<uint8_t>(1, 3, {0, 128, 255}), {{0, 1}, {0, 1}, {2}}),
              (std::vector<uint8_t>{0, 64, 255}));
    // Output range [0.5 1]: 0 -> 127.5 -> 128 (half away from zero).
    EXPECT_EQ(imadjust<uint8_t>(image<uint8_t>(1, 2, {0, 255}), {{0, 1}, {0.5, 1}, {}}),
              (std::vector<uint8_t>{128, 255}));
}

// MATLAB's value of one uint8 entry of imadjust's table, each step as MATLAB
// evaluates it in double: x = k/255 (linspace), clamp, (x-li)/(hi-li), .^g,
// .*(ho-lo), +lo, then im2uint8: 255*y rounded half away from zero. Every
// step is computed in long double and rounded to double, so pow is correctly
// rounded here whatever the C library's pow does.
uint8_t matlab_uint8_entry(int k, double li, double hi, double lo, double ho, double g) {
    auto dbl = [](long double v) { return static_cast<double>(v); };
    double x = dbl(static_cast<long double>(k) / 255.0L);
    x = x < li ? li : (x > hi ? hi : x);
    const double q = dbl(static_cast<long double>(dbl(static_cast<long double>(x) - li)) /
                         static_cast<long double>(dbl(static_cast<long double>(hi) - li)));
    const double y = g == 1 ? q : dbl(std::pow(static_cast<long double>(q), static_cast<long double>(g)));
    const double scaled = dbl(static_cast<long double>(y) * dbl(static_cast<long double>(ho) - lo));
    const double out = dbl(static_cast<long double>(scaled) + lo);
    const double v = dbl(255.0L * static_cast<long double>(out));
    const double r = v < 0 ? -std::floor(-v + 0.5) : std::floor(v + 0.5);
    return static_cast<uint8_t>(std::min(255.0, std::max(0.0, r)));
}

TEST(Imadjust, Uint8RampMatchesMatlabAtTies) {
    // imadjust(uint8(0:255), [0.2 0.8], [0.1 0.9], 0.5): in exact arithmetic
    // inputs 68, 119 and 204 give 93.5, 161.5 and 229.5; MATLAB's double
    // steps land on 93 (93.49999999999999), 162 and 230.
    std::vector<uint8_t> ramp(256);
    for (int k = 0; k < 256; ++k) ramp[k] = static_cast<uint8_t>(k);
    const auto j = imadjust<uint8_t>(image<uint8_t>(1, 256, ramp), {{0.2, 0.8}, {0.1, 0.9}, {0.5}});
    ASSERT_EQ(j.size(), 256u);
    for (int k = 0; k < 256; ++k) EXPECT_EQ(j[k], matlab_uint8_entry(k, 0.2, 0.8, 0.1, 0.9, 0.5)) << "input " << k;
    EXPECT_EQ(j[119], 162);
    EXPECT_EQ(j[68], 93);
    EXPECT_EQ(j[204], 230);
    EXPECT_EQ(j[0], 26);    // 255 * 0.1 = 25.5 -> 26
    EXPECT_EQ(j[255], 230); // 255 * 0.9 = 229.5 (in double) -> 230
}

TEST(Imadjust, DoubleAndSingleHandValues) {
    auto d = imadjust<double>(image<double>(1, 7, {-0.5, 0, 0.25, 0.5, 0.75, 1, 1.5}),
                              {{0.25, 0.75}, {}, {}});
    EXPECT_EQ(d, (std::vector<double>{0, 0, 0, 0.5, 1, 1, 1}));
    auto f = imadjust<float>(image<float>(1, 3, {0.25f, 0.5f, 0.75f}), {{0.25, 0.75}, {1, 0}, {}});
    EXPECT_EQ(f, (std::vector<float>{1, 0.5f, 0}));
    // gamma 0.5 on [0 1] -> sqrt.
    auto g = imadjust<double>(image<double>(1, 2, {0.25, 0.81}), {{0, 1}, {0, 1}, {0.5}});
    EXPECT_NEAR(g[0], 0.5, 1e-15);
    EXPECT_NEAR(g[1], 0.9, 1e-15);
}

TEST(Imadjust, NaNBecomesHighOut) {
    // MATLAB's max/min skip NaN, so the clamp turns NaN into high_in.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    auto d = imadjust<double>(image<double>(1, 2, {nan, 0.5}), {{0.2, 0.8}, {0.1, 0.9}, {}});
    EXPECT_DOUBLE_EQ(d[0], 0.9);
    EXPECT_DOUBLE_EQ(d[1], 0.5);
}

TEST(Imadjust, Uint16AndInt16) {
    auto u = imadjust<uint16_t>(image<uint16_t>(1, 3, {0, 32768, 65535}), {{0, 1}, {0, 1}, {0.5}});
    EXPECT_EQ(u[0], 0);
    EXPECT_EQ(u[1], static_cast<uint16_t>(std::floor(std::sqrt(32768 / 65535.0) * 65535 + 0.5)));
    EXPECT_EQ(u[2], 65535);
    // int16 identity, and [0.5 1]: value 0 is 32768/65535, just above 0.5
    // -> 1/65535 of the output range -> uint16 1 -> int16 -32767.
    auto s = image<int16_t>(1, 4, {-32768, -1, 0, 32767});
    EXPECT_EQ(imadjust<int16_t>(s, {{0, 1}, {0, 1}, {}}),
              (std::vector<int16_t>{-32768, -1, 0, 32767}));
    EXPECT_EQ(imadjust<int16_t>(s, {{0.5, 1}, {0, 1}, {}}),
              (std::vector<int16_t>{-32768, -32768, -32767, 32767}));
}

TEST(Imadjust, DefaultInputLimitsAreStretchlim) {
    // Values 0..99: stretchlim = [1/255 98/255].
    std::vector<uint8_t> v(100);
    for (int i = 0; i < 100; ++i) v[i] = static_cast<uint8_t>(i);
    auto j = imadjust<uint8_t>(image<uint8_t>(10, 10, v));
    for (int i = 0; i < 100; ++i)
        EXPECT_EQ(j[i], reference<uint8_t>(v[i], 1 / 255.0, 98 / 255.0, 0, 1, 1)) << i;
    EXPECT_EQ(j[0], 0);
    EXPECT_EQ(j[1], 0);
    EXPECT_EQ(j[98], 255);
    EXPECT_EQ(j[99], 255);
    // Constant image: stretchlim gives [0 1], so imadjust is the identity.
    EXPECT_EQ(imadjust<uint8_t>(image<uint8_t>(2, 2, {9, 9, 9, 9})),
              (std::vector<uint8_t>{9, 9, 9, 9}));
}

TEST(Imadjust, RgbPerChannelLimitsAndGamma) {
    std::mt19937 rng(2);
    const int rows = 7, cols = 9, n = rows * cols;
    std::vector<uint8_t> rgb(3 * n);
    for (auto& x : rgb) x = static_cast<uint8_t>(rng());
    // Column-major 2x3: [low_r high_r low_g high_g low_b high_b].
    Params p{{0.1, 0.9, 0.2, 0.6, 0, 0.5}, {0, 1, 1, 0, 0.2, 0.7}, {1, 2, 0.5}};
    auto j = imadjust<uint8_t>(image<uint8_t>(rows, cols, rgb, 3), p);
    for (int ch = 0; ch < 3; ++ch)
        for (int i = 0; i < n; ++i)
            ASSERT_EQ(j[ch * n + i],
                      reference<uint8_t>(rgb[ch * n + i], p.in[2 * ch], p.in[2 * ch + 1],
                                         p.out[2 * ch], p.out[2 * ch + 1], p.gamma[ch]))
                << ch << " " << i;
    // Two values apply to every channel.
    auto same = imadjust<uint8_t>(image<uint8_t>(rows, cols, rgb, 3), {{0.3, 0.7}, {}, {}});
    for (int i = 0; i < 3 * n; ++i)
        ASSERT_EQ(same[i], reference<uint8_t>(rgb[i], 0.3, 0.7, 0, 1, 1)) << i;
}

TEST(Imadjust, RgbDefaultUsesStretchlimPerChannel) {
    // Planes 0..99, 100..199, constant 5: limits [1 98], [101 198], [0 1]*255.
    std::vector<uint8_t> rgb(300);
    for (int i = 0; i < 100; ++i) {
        rgb[i] = static_cast<uint8_t>(i);
        rgb[100 + i] = static_cast<uint8_t>(100 + i);
        rgb[200 + i] = 5;
    }
    auto j = imadjust<uint8_t>(image<uint8_t>(10, 10, rgb, 3));
    for (int i = 0; i < 100; ++i) {
        ASSERT_EQ(j[i], reference<uint8_t>(rgb[i], 1 / 255.0, 98 / 255.0, 0, 1, 1));
        ASSERT_EQ(j[100 + i], reference<uint8_t>(rgb[100 + i], 101 / 255.0, 198 / 255.0, 0, 1, 1));
        ASSERT_EQ(j[200 + i], 5);
    }
}

template <class T>
void random_class_check(unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(0, 1);
    for (int trial = 0; trial < 6; ++trial) {
        const int rows = 1 + rng() % 40, cols = 1 + rng() % 40;
        std::vector<T> v(rows * cols);
        for (auto& x : v) {
            if constexpr (std::is_floating_point_v<T>) x = static_cast<T>(unit(rng) * 1.2 - 0.1);
            else x = static_cast<T>(rng());
        }
        double li = unit(rng) * 0.5, hi = li + 0.01 + unit(rng) * (0.99 - li);
        double lo = unit(rng), ho = unit(rng), g = trial == 0 ? 1.0 : unit(rng) * 3;
        auto j = imadjust<T>(image<T>(rows, cols, v), {{li, hi}, {lo, ho}, {g}});
        for (size_t i = 0; i < v.size(); ++i) {
            const T want = reference<T>(v[i], li, hi, lo, ho, g);
            if constexpr (std::is_floating_point_v<T>)
                ASSERT_NEAR(j[i], want, 8 * std::numeric_limits<T>::epsilon()) << i;
            else
                ASSERT_EQ(j[i], want) << i << " value " << double(v[i]);
        }
    }
}

TEST(Imadjust, RandomUint8) { random_class_check<uint8_t>(11); }
TEST(Imadjust, RandomUint16) { random_class_check<uint16_t>(12); }
TEST(Imadjust, RandomInt16) { random_class_check<int16_t>(13); }
TEST(Imadjust, RandomSingle) { random_class_check<float>(14); }
TEST(Imadjust, RandomDouble) { random_class_check<double>(15); }

TEST(Imadjust, EdgeShapes) {
    EXPECT_EQ(imadjust<uint8_t>(image<uint8_t>(1, 1, {100}), {{0, 0.5}, {}, {}}),
              (std::vector<uint8_t>{200}));
    auto row = imadjust<double>(image<double>(1, 3, {0.1, 0.5, 0.9}), {{0.1, 0.9}, {}, {}});
    auto col = imadjust<double>(image<double>(3, 1, {0.1, 0.5, 0.9}), {{0.1, 0.9}, {}, {}});
    EXPECT_EQ(row, col);
    EXPECT_DOUBLE_EQ(row[1], 0.5);
}

void expect_rejected(const ipt::Image& img, const Params& p, const char* name) {
    ipt::Call call(context(), "ipt.imadjust");
    call.image("I", img);
    if (!p.in.empty()) call.numbers("low_high_in", p.in);
    if (!p.out.empty()) call.numbers("low_high_out", p.out);
    if (!p.gamma.empty()) call.numbers("gamma", p.gamma);
    IPT_EXPECT_ERROR(call.run(), IPT_ERR_INVALID_ARGUMENT, name);
    IPT_EXPECT_ERROR(call.take("J"), IPT_ERR_NOT_FOUND, "J");  // no output on failure
}

TEST(Imadjust, RejectsBadLimits) {
    auto gray = image<uint8_t>(1, 2, {1, 2});
    expect_rejected(gray, {{0.8, 0.2}, {}, {}}, "low_high_in");
    expect_rejected(gray, {{0.5, 0.5}, {}, {}}, "low_high_in");
    expect_rejected(gray, {{0, 1.5}, {}, {}}, "low_high_in");
    expect_rejected(gray, {{0.1, 0.2, 0.3, 0.4, 0.5, 0.6}, {}, {}}, "low_high_in");
    expect_rejected(gray, {{}, {-0.1, 1}, {}}, "low_high_out");
    expect_rejected(gray, {{}, {}, {1, 2, 3}}, "gamma");
    expect_rejected(gray, {{}, {}, {-1}}, "gamma");
    auto rgb = image<uint8_t>(1, 1, {1, 2, 3}, 3);
    expect_rejected(rgb, {{0.1, 0.2, 0.3, 0.4}, {}, {}}, "low_high_in");
    expect_rejected(rgb, {{}, {0, 1, 0, 1}, {}}, "low_high_out");
    expect_rejected(rgb, {{}, {}, {1, 2}}, "gamma");
    expect_rejected(rgb, {{0.1, 0.9, 0.5, 0.4, 0, 1}, {}, {}}, "low_high_in");
}

}  // namespace
