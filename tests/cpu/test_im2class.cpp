// SPDX-License-Identifier: Apache-2.0
// ipt.im2double, im2single, im2uint8, im2uint16 and im2int16 against
// MathWorks' documented examples and brute-force expectations written here:
// integer results by searching the nearest integer in integer arithmetic,
// floating results by checking that no neighbouring value of the class is
// nearer the exact quotient.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <limits>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

template <class Out>
std::vector<Out> convert(const char* op, const ipt::Image& a, ipt_dtype out_dtype) {
    ipt::Call call(context(), op);
    call.image("I", a).run();
    ipt::Image j = call.take("J");
    EXPECT_EQ(j.dtype(), out_dtype);
    EXPECT_EQ(j.rows(), a.rows());
    EXPECT_EQ(j.cols(), a.cols());
    EXPECT_EQ(j.channels(), a.channels());
    return j.download<Out>();
}

std::vector<double> im2double(const ipt::Image& a) { return convert<double>("ipt.im2double", a, IPT_DOUBLE); }
std::vector<float> im2single(const ipt::Image& a) { return convert<float>("ipt.im2single", a, IPT_SINGLE); }
std::vector<uint8_t> im2uint8(const ipt::Image& a) { return convert<uint8_t>("ipt.im2uint8", a, IPT_UINT8); }
std::vector<uint16_t> im2uint16(const ipt::Image& a) { return convert<uint16_t>("ipt.im2uint16", a, IPT_UINT16); }
std::vector<int16_t> im2int16(const ipt::Image& a) { return convert<int16_t>("ipt.im2int16", a, IPT_INT16); }

ipt::Image logical_image(const std::vector<uint8_t>& v) {
    return context().upload(IPT_LOGICAL, 1, int64_t(v.size()), v.data());
}

// The integer k in [0, top] nearest num/den (num >= 0, den > 0), ties away
// from zero, found by search.
int64_t nearest(int64_t num, int64_t den, int64_t top) {
    int64_t best = 0;
    for (int64_t k = 1; k <= top; ++k) {
        const int64_t d_best = std::llabs(best * den - num), d_k = std::llabs(k * den - num);
        if (d_k < d_best || (d_k == d_best)) best = k;  // a tie: the larger k, away from zero
    }
    return best;
}

// r is the value of class F nearest the exact quotient num/den.
template <class F>
::testing::AssertionResult nearest_of_class(F r, int64_t num, int64_t den) {
    const long double q = static_cast<long double>(num) / static_cast<long double>(den);
    const long double e = std::fabs(static_cast<long double>(r) - q);
    for (F n : {std::nextafter(r, F(-1)), std::nextafter(r, F(2))})
        if (std::fabs(static_cast<long double>(n) - q) < e)
            return ::testing::AssertionFailure() << num << "/" << den << ": " << n << " is nearer than " << r;
    return ::testing::AssertionSuccess();
}

// All 256 uint8 values, all 65536 uint16 and int16 values.
std::vector<uint8_t> every_uint8() {
    std::vector<uint8_t> v(256);
    for (int k = 0; k < 256; ++k) v[k] = uint8_t(k);
    return v;
}
std::vector<uint16_t> every_uint16() {
    std::vector<uint16_t> v(65536);
    for (int k = 0; k < 65536; ++k) v[k] = uint16_t(k);
    return v;
}
std::vector<int16_t> every_int16() {
    std::vector<int16_t> v(65536);
    for (int k = 0; k < 65536; ++k) v[k] = int16_t(k - 32768);
    return v;
}

// ---- MathWorks' examples ------------------------------------------------------

// I = reshape(linspace(0,1,20),[5 4]): element (r,c) is k/19 with k = 5c + r
// (0-based), the last exactly 1.
std::vector<double> linspace_5x4() {
    std::vector<double> v(20);
    for (int r = 0; r < 5; ++r)
        for (int c = 0; c < 4; ++c) v[r * 4 + c] = (c * 5 + r) == 19 ? 1.0 : (c * 5 + r) / 19.0;
    return v;
}

TEST(Im2Uint16, MatlabDocExample) {
    EXPECT_EQ(im2uint16(image<double>(5, 4, linspace_5x4())),
              (std::vector<uint16_t>{0, 17246, 34492, 51738, 3449, 20695, 37941, 55187, 6898, 24144, 41391, 58637,
                                     10348, 27594, 44840, 62086, 13797, 31043, 48289, 65535}));
}

TEST(Im2Int16, MatlabDocExample) {
    EXPECT_EQ(im2int16(image<double>(5, 4, linspace_5x4())),
              (std::vector<int16_t>{-32768, -15522, 1724, 18970, -29319, -12073, 5173, 22419, -25870, -8624, 8623,
                                    25869, -22420, -5174, 12072, 29318, -18971, -1725, 15521, 32767}));
}

TEST(Im2Uint8, MatlabDocExample) {
    // I = reshape(uint16(linspace(0,65535,25)),[5 5]), as the page prints it.
    const std::vector<uint16_t> in = {0,     13653, 27306, 40959, 54613, 2731,  16384, 30037, 43690,
                                      57343, 5461,  19114, 32768, 46421, 60074, 8192,  21845, 35498,
                                      49151, 62804, 10923, 24576, 38229, 51882, 65535};
    EXPECT_EQ(im2uint8(image<uint16_t>(5, 5, in)),
              (std::vector<uint8_t>{0, 53, 106, 159, 213, 11, 64, 117, 170, 223, 21, 74, 128,
                                    181, 234, 32, 85, 138, 191, 244, 43, 96, 149, 202, 255}));
}

// ---- every value of the integer classes ---------------------------------------

TEST(Im2Class, EveryUint8Value) {
    const auto v = every_uint8();
    const auto d = im2double(image<uint8_t>(16, 16, v));
    const auto s = im2single(image<uint8_t>(16, 16, v));
    const auto u16 = im2uint16(image<uint8_t>(16, 16, v));
    const auto i16 = im2int16(image<uint8_t>(16, 16, v));
    EXPECT_EQ(im2uint8(image<uint8_t>(16, 16, v)), v);  // same class: a copy
    for (int k = 0; k < 256; ++k) {
        EXPECT_TRUE(nearest_of_class(d[k], k, 255));
        EXPECT_TRUE(nearest_of_class(s[k], k, 255));
        EXPECT_EQ(u16[k], nearest(int64_t(k) * 65535, 255, 65535)) << k;  // k * 257
        EXPECT_EQ(i16[k], nearest(int64_t(k) * 65535, 255, 65535) - 32768) << k;
    }
    EXPECT_EQ(d[0], 0.0);
    EXPECT_EQ(d[255], 1.0);
    EXPECT_EQ(s[255], 1.0f);
}

TEST(Im2Class, EveryUint16Value) {
    const auto v = every_uint16();
    const auto d = im2double(image<uint16_t>(256, 256, v));
    const auto s = im2single(image<uint16_t>(256, 256, v));
    const auto u8 = im2uint8(image<uint16_t>(256, 256, v));
    const auto i16 = im2int16(image<uint16_t>(256, 256, v));
    EXPECT_EQ(im2uint16(image<uint16_t>(256, 256, v)), v);
    for (int k = 0; k < 65536; ++k) {
        ASSERT_TRUE(nearest_of_class(d[k], k, 65535));
        ASSERT_TRUE(nearest_of_class(s[k], k, 65535));
        ASSERT_EQ(u8[k], nearest(k, 257, 255)) << k;
        ASSERT_EQ(i16[k], k - 32768) << k;
    }
}

TEST(Im2Class, EveryInt16Value) {
    const auto v = every_int16();
    const auto d = im2double(image<int16_t>(256, 256, v));
    const auto s = im2single(image<int16_t>(256, 256, v));
    const auto u8 = im2uint8(image<int16_t>(256, 256, v));
    const auto u16 = im2uint16(image<int16_t>(256, 256, v));
    EXPECT_EQ(im2int16(image<int16_t>(256, 256, v)), v);
    for (int k = 0; k < 65536; ++k) {  // the value k - 32768
        ASSERT_TRUE(nearest_of_class(d[k], k, 65535));
        ASSERT_TRUE(nearest_of_class(s[k], k, 65535));
        ASSERT_EQ(u8[k], nearest(k, 257, 255)) << k;
        ASSERT_EQ(u16[k], k) << k;
    }
    EXPECT_EQ(d[32768], 32768.0 / 65535.0);  // int16 0 is just above one half
}

TEST(Im2Class, Logical) {
    const ipt::Image bw = logical_image({0, 1, 1, 0});
    EXPECT_EQ(im2double(bw), (std::vector<double>{0, 1, 1, 0}));
    EXPECT_EQ(im2single(bw), (std::vector<float>{0, 1, 1, 0}));
    EXPECT_EQ(im2uint8(bw), (std::vector<uint8_t>{0, 255, 255, 0}));
    EXPECT_EQ(im2uint16(bw), (std::vector<uint16_t>{0, 65535, 65535, 0}));
    EXPECT_EQ(im2int16(bw), (std::vector<int16_t>{-32768, 32767, 32767, -32768}));
}

// ---- floating inputs -------------------------------------------------------------

// x = m/1024 for m in [-300, 1400] is exact in double and single, and so is
// 255*x; 65535*x is exact in double. The expected value is round(top*m/1024),
// half away from zero, saturated, found by search.
TEST(Im2Class, DoubleRoundsHalfAwayAndSaturates) {
    std::vector<double> x;
    for (int m = -300; m <= 1400; ++m) x.push_back(m / 1024.0);
    const int64_t n = int64_t(x.size());
    const auto u8 = im2uint8(image<double>(1, n, x));
    const auto u16 = im2uint16(image<double>(n, 1, x));
    const auto i16 = im2int16(image<double>(1, n, x));
    for (int64_t i = 0; i < n; ++i) {
        const int64_t m = std::max<int64_t>(0, i - 300);  // negatives saturate to 0
        ASSERT_EQ(u8[i], nearest(255 * m, 1024, 255)) << x[i];
        ASSERT_EQ(u16[i], nearest(65535 * m, 1024, 65535)) << x[i];
        ASSERT_EQ(i16[i], nearest(65535 * m, 1024, 65535) - 32768) << x[i];
    }
    // Ties: 255 * (1.5/255)... as exact products: 255 * 0.5 = 127.5 -> 128;
    // 65535 * 0.5 = 32767.5 -> 32768, so im2int16(0.5) is 0 (MATLAB's
    // uint16 value less 32768, not round(65535*0.5 - 32768) = -1).
    EXPECT_EQ(im2uint8(image<double>(1, 1, {0.5})), std::vector<uint8_t>{128});
    EXPECT_EQ(im2uint16(image<double>(1, 1, {0.5})), std::vector<uint16_t>{32768});
    EXPECT_EQ(im2int16(image<double>(1, 1, {0.5})), std::vector<int16_t>{0});
}

TEST(Im2Class, SingleProductIsTakenInSingle) {
    std::vector<float> x;
    for (int m = -64; m <= 320; ++m) x.push_back(float(m) / 256.0f);  // 65535 * m < 2^24: exact
    const int64_t n = int64_t(x.size());
    const auto u8 = im2uint8(image<float>(1, n, x));
    const auto u16 = im2uint16(image<float>(1, n, x));
    const auto i16 = im2int16(image<float>(1, n, x));
    for (int64_t i = 0; i < n; ++i) {
        const int64_t m = std::max<int64_t>(0, i - 64);
        ASSERT_EQ(u8[i], nearest(255 * m, 256, 255)) << x[i];
        ASSERT_EQ(u16[i], nearest(65535 * m, 256, 65535)) << x[i];
        ASSERT_EQ(i16[i], nearest(65535 * m, 256, 65535) - 32768) << x[i];
    }
    // MATLAB forms 255*x in single for a single x and rounds that product:
    // near a tie the single product, not the exact one, decides.
    const float h = 0.5f / 255.0f;
    const float p = 255.0f * h;  // the product MATLAB forms in single
    const uint8_t expect = p >= 0.5f ? 1 : 0;
    EXPECT_EQ(im2uint8(image<float>(1, 1, {h})), std::vector<uint8_t>{expect});
}

TEST(Im2Class, NaNInfAndFloatToFloat) {
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    const std::vector<double> x = {nan, inf, -inf, -0.0, 1e-310, 2.0, -1.0, 1e300};
    const int64_t n = int64_t(x.size());
    EXPECT_EQ(im2uint8(image<double>(1, n, x)), (std::vector<uint8_t>{0, 255, 0, 0, 0, 255, 0, 255}));
    EXPECT_EQ(im2uint16(image<double>(1, n, x)), (std::vector<uint16_t>{0, 65535, 0, 0, 0, 65535, 0, 65535}));
    EXPECT_EQ(im2int16(image<double>(1, n, x)),
              (std::vector<int16_t>{-32768, 32767, -32768, -32768, -32768, 32767, -32768, 32767}));
    // Floating to floating: no clamping, no scaling.
    const auto d = im2double(image<double>(1, n, x));
    EXPECT_TRUE(std::isnan(d[0]));
    for (int64_t i = 1; i < n; ++i) EXPECT_EQ(std::memcmp(&d[i], &x[i], sizeof(double)), 0) << i;
    const auto s = im2single(image<double>(1, n, x));
    EXPECT_TRUE(std::isnan(s[0]));
    EXPECT_EQ(s[1], std::numeric_limits<float>::infinity());
    EXPECT_EQ(s[2], -std::numeric_limits<float>::infinity());
    EXPECT_TRUE(std::signbit(s[3]));
    EXPECT_EQ(s[4], 0.0f);  // below single's smallest denormal
    EXPECT_EQ(s[5], 2.0f);
    EXPECT_EQ(s[6], -1.0f);
    EXPECT_EQ(s[7], std::numeric_limits<float>::infinity());
    // Single denormals survive im2double; single values go to single unchanged.
    const std::vector<float> f = {std::numeric_limits<float>::denorm_min(), 0.1f, -3.5f, 1.5f};
    const auto fd = im2double(image<float>(1, 4, f));
    for (int i = 0; i < 4; ++i) EXPECT_EQ(fd[i], double(f[i])) << i;
    EXPECT_EQ(im2single(image<float>(1, 4, f)), f);
    const std::vector<float> g = {std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::infinity()};
    EXPECT_EQ(im2uint8(image<float>(1, 2, g)), (std::vector<uint8_t>{0, 0}));
}

// ---- shapes --------------------------------------------------------------------

TEST(Im2Class, EmptyOneByOneRowColumnAndRgb) {
    const ipt::Image empty = context().create(IPT_UINT8, 0, 7);
    for (const char* op : {"ipt.im2double", "ipt.im2single", "ipt.im2uint8", "ipt.im2uint16", "ipt.im2int16"}) {
        ipt::Call call(context(), op);
        call.image("I", empty).run();
        ipt::Image j = call.take("J");
        EXPECT_EQ(j.rows(), 0) << op;
        EXPECT_EQ(j.cols(), 7) << op;
    }
    EXPECT_EQ(im2uint8(image<double>(1, 1, {1.0})), std::vector<uint8_t>{255});
    EXPECT_EQ(im2uint16(image<uint8_t>(1, 3, {1, 2, 3})), (std::vector<uint16_t>{257, 514, 771}));
    EXPECT_EQ(im2uint16(image<uint8_t>(3, 1, {1, 2, 3})), (std::vector<uint16_t>{257, 514, 771}));
    // 2x2x3 RGB: every plane converted alike.
    const std::vector<uint8_t> rgb = {0, 51, 102, 153, 204, 255, 1, 2, 3, 4, 5, 6};
    const auto d = im2double(image<uint8_t>(2, 2, rgb, 3));
    ASSERT_EQ(d.size(), rgb.size());
    for (size_t i = 0; i < rgb.size(); ++i) EXPECT_EQ(d[i], rgb[i] / 255.0) << i;
    EXPECT_EQ(im2double(image<uint8_t>(1, 6, {0, 51, 102, 153, 204, 255})),
              (std::vector<double>{0, 0.2, 0.4, 0.6, 0.8, 1.0}));
}

TEST(Im2Class, RejectsInt32) {
    IPT_EXPECT_ERROR(im2double(image<int32_t>(1, 1, {1})), IPT_ERR_INVALID_ARGUMENT, "ipt.im2double");
}

// im2double of images large enough to be shared among threads (over a
// megabyte moved), odd sizes, every input class: the division by hand.
TEST(Im2Class, Im2doubleLargeImages) {
    const int64_t m = 411, n = 301;
    std::vector<uint8_t> u8(static_cast<size_t>(m * n)), bits(u8.size());
    std::vector<uint16_t> u16(u8.size());
    std::vector<int16_t> i16(u8.size());
    std::vector<float> f(u8.size());
    for (size_t i = 0; i < u8.size(); ++i) {
        u8[i] = static_cast<uint8_t>(i * 37 % 256);
        bits[i] = static_cast<uint8_t>(i % 3 == 0);
        u16[i] = static_cast<uint16_t>(i * 7919 % 65536);
        i16[i] = static_cast<int16_t>(static_cast<int32_t>(i * 7919 % 65536) - 32768);
        f[i] = static_cast<float>(i % 997) / 996.0f - 0.5f;
    }
    const auto d8 = im2double(image<uint8_t>(m, n, u8));
    const auto d16 = im2double(image<uint16_t>(m, n, u16));
    const auto ds16 = im2double(image<int16_t>(m, n, i16));
    const auto df = im2double(image<float>(m, n, f));
    const auto dl = im2double(ipt_test::context().upload(IPT_LOGICAL, m, n, bits.data()));
    for (size_t i = 0; i < u8.size(); ++i) {
        ASSERT_EQ(d8[i], static_cast<double>(u8[i]) / 255.0) << i;
        ASSERT_EQ(d16[i], static_cast<double>(u16[i]) / 65535.0) << i;
        ASSERT_EQ(ds16[i], (static_cast<double>(i16[i]) + 32768.0) / 65535.0) << i;
        ASSERT_EQ(df[i], static_cast<double>(f[i])) << i;
        ASSERT_EQ(dl[i], bits[i] ? 1.0 : 0.0) << i;
    }
}

}  // namespace
