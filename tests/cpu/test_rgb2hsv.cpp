// SPDX-License-Identifier: Apache-2.0
// ipt.rgb2hsv against MathWorks' documentation examples and a textbook
// hexcone written here: V = max, S = (max-min)/max, H from the largest
// channel (blue before green before red where they tie), in sixths, wrapped
// into [0, 1); grey pixels have H = S = 0.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

template <class Out = double>
std::vector<Out> rgb2hsv(const ipt::Image& rgb, ipt_dtype out_class = IPT_DOUBLE) {
    ipt::Call call(context(), "ipt.rgb2hsv");
    call.image("RGB", rgb).run();
    ipt::Image hsv = call.take("HSV");
    EXPECT_EQ(hsv.dtype(), out_class);
    EXPECT_EQ(hsv.rows(), rgb.rows());
    EXPECT_EQ(hsv.cols(), rgb.cols());
    EXPECT_EQ(hsv.channels(), rgb.channels());
    return hsv.download<Out>();
}

struct Hsv {
    double h, s, v;
};

Hsv hexcone(double r, double g, double b) {
    const double mx = std::max({r, g, b}), mn = std::min({r, g, b}), d = mx - mn;
    if (d == 0) return {0, 0, mx};
    double h;
    if (b == mx) h = 4 + (r - g) / d;
    else if (g == mx) h = 2 + (b - r) / d;
    else h = (g - b) / d;
    h /= 6;
    if (h < 0) h += 1;
    return {h, d / mx, mx};
}

// rgbmap = prism(6); hsv = rgb2hsv(rgbmap) (MathWorks' colormap example).
TEST(Rgb2hsv, MatlabColormapExample) {
    const std::vector<double> prism = {1, 0, 0, 1, 0.5, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 2.0 / 3, 0, 1};
    const auto hsv = rgb2hsv(image<double>(6, 3, prism));
    const double h[6] = {0, 1.0 / 12, 1.0 / 6, 1.0 / 3, 2.0 / 3, 7.0 / 9};
    for (int i = 0; i < 6; ++i) {
        EXPECT_NEAR(hsv[3 * i], h[i], 1e-15) << i;
        EXPECT_EQ(hsv[3 * i + 1], 1.0) << i;
        EXPECT_EQ(hsv[3 * i + 2], 1.0) << i;
    }
}

// rgb(:,:,1) = [1 1; 0 .5]; rgb(:,:,2) = [0 1; 0 .5]; rgb(:,:,3) = [0 0; 1 .5].
TEST(Rgb2hsv, MatlabTruecolorExample) {
    const auto hsv = rgb2hsv(image<double>(2, 2, {1, 1, 0, .5, 0, 1, 0, .5, 0, 0, 1, .5}, 3));
    const std::vector<double> want = {0, 1.0 / 6, 2.0 / 3, 0, 1, 1, 1, 0, 1, 1, 1, .5};
    for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(hsv[i], want[i], 1e-15) << i;
}

TEST(Rgb2hsv, Uint8ColourCubeAgainstHexcone) {
    std::vector<uint8_t> r, g, b;
    for (int x = 0; x < 256; x += 15)
        for (int y = 0; y < 256; y += 15)
            for (int z = 0; z < 256; z += 15) r.push_back(uint8_t(x)), g.push_back(uint8_t(y)), b.push_back(uint8_t(z));
    const int64_t n = static_cast<int64_t>(r.size());
    std::vector<uint8_t> planes = r;
    planes.insert(planes.end(), g.begin(), g.end());
    planes.insert(planes.end(), b.begin(), b.end());
    const auto hsv = rgb2hsv(image<uint8_t>(1, n, planes, 3));
    for (int64_t i = 0; i < n; ++i) {
        const Hsv w = hexcone(r[i] / 255.0, g[i] / 255.0, b[i] / 255.0);
        ASSERT_NEAR(hsv[i], w.h, 1e-15) << i;
        ASSERT_NEAR(hsv[n + i], w.s, 1e-15) << i;
        ASSERT_EQ(hsv[2 * n + i], std::max({r[i], g[i], b[i]}) / 255.0) << i;
    }
}

TEST(Rgb2hsv, Uint16AndSingle) {
    const auto u16 = rgb2hsv(image<uint16_t>(1, 2, {65535, 0, 32768, 0, 0, 65535}, 3));
    // orange (1, 32768/65535, 0) and blue
    EXPECT_NEAR(u16[0], 32768.0 / 65535.0 / 6, 1e-16);
    EXPECT_NEAR(u16[1], 2.0 / 3, 1e-16);
    EXPECT_EQ(u16[2], 1.0);
    EXPECT_EQ(u16[4], 1.0);
    EXPECT_EQ(u16[5], 1.0);
    const auto f = rgb2hsv<float>(image<float>(1, 1, {0.25f, 0.5f, 0.125f}, 3), IPT_SINGLE);
    const Hsv w = hexcone(0.25, 0.5, 0.125);
    EXPECT_NEAR(f[0], w.h, 1e-7);
    EXPECT_NEAR(f[1], w.s, 1e-7);
    EXPECT_EQ(f[2], 0.5f);
}

TEST(Rgb2hsv, GreysBlackAndTies) {
    // grey, black, white, red = green (yellow), green = blue (cyan), red = blue (magenta)
    const auto hsv = rgb2hsv(image<double>(1, 6, {.3, 0, 1, 1, 0, 1, .3, 0, 1, 1, 1, 0, .3, 0, 1, 0, 1, 1}, 3));
    const std::vector<double> h = {0, 0, 0, 1.0 / 6, 0.5, 5.0 / 6};
    for (int i = 0; i < 6; ++i) EXPECT_NEAR(hsv[i], h[i], 1e-15) << i;
    const std::vector<double> s = {0, 0, 0, 1, 1, 1};
    for (int i = 0; i < 6; ++i) EXPECT_EQ(hsv[6 + i], s[i]) << i;
    EXPECT_EQ(hsv[12], .3);
    EXPECT_EQ(hsv[13], 0.0);
}

TEST(Rgb2hsv, ShapesAndEmpty) {
    EXPECT_TRUE(rgb2hsv(image<double>(0, 4, {}, 3)).empty());
    EXPECT_TRUE(rgb2hsv(image<double>(0, 3, {})).empty());
    EXPECT_EQ(rgb2hsv(image<uint8_t>(5, 1, std::vector<uint8_t>(15, 7), 3)).size(), 15u);
    const auto one = rgb2hsv(image<uint8_t>(1, 1, {255, 0, 0}, 3));
    EXPECT_EQ(one, (std::vector<double>{0, 1, 1}));
}

// max and min ignore NaN, as MATLAB's do; the hue of a NaN-bearing channel is NaN.
TEST(Rgb2hsv, NanIsIgnoredByMaxAndMin) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto hsv = rgb2hsv(image<double>(1, 1, {nan, 0.5, 0.2}, 3));
    EXPECT_TRUE(std::isnan(hsv[0]));
    EXPECT_NEAR(hsv[1], 0.6, 1e-15);
    EXPECT_EQ(hsv[2], 0.5);
}

// MATLAB's rgb2hsv written out for one pixel (its order of overwrites: red,
// then green, then blue; s = 1 where the range is 0 before the divisions),
// in the class of the image.
template <class F>
Hsv matlab_pixel(F r, F g, F b) {
    auto max_ignoring_nan = [](F x, F y) { return std::isnan(x) ? y : (std::isnan(y) ? x : (y > x ? y : x)); };
    auto min_ignoring_nan = [](F x, F y) { return std::isnan(x) ? y : (std::isnan(y) ? x : (y < x ? y : x)); };
    const F v = max_ignoring_nan(max_ignoring_nan(r, g), b);
    F s = v - min_ignoring_nan(min_ignoring_nan(r, g), b);
    const bool z = s == F(0);
    s = s + F(z ? 1 : 0);
    F h = 0;
    if (r == v) h = (g - b) / s;
    if (g == v) h = F(2) + (b - r) / s;
    if (b == v) h = F(4) + (r - g) / s;
    h = h / F(6);
    if (h < F(0)) h = h + F(1);
    h = F(z ? 0 : 1) * h;
    if (v != F(0)) s = (F(z ? 0 : 1) * s) / v;
    else s = 0;
    return {static_cast<double>(h), static_cast<double>(s), static_cast<double>(v)};
}

// Every triple of special and ordinary values (NaN, signed zeros, infinities,
// ties) in a row long enough for the vectorised loop, to the bit (signed
// zeros and NaN included) against the pixel formula above.
template <class F>
void check_special_triples(ipt_dtype cls) {
    const F inf = std::numeric_limits<F>::infinity(), nan = std::numeric_limits<F>::quiet_NaN();
    const std::vector<F> values = {nan, F(-0.0), F(0), F(0.25), F(0.5), F(1), inf, -inf, F(-0.5)};
    const int64_t k = static_cast<int64_t>(values.size()), n = k * k * k;
    std::vector<F> planes(static_cast<size_t>(3 * n));
    for (int64_t i = 0; i < n; ++i) {
        planes[static_cast<size_t>(i)] = values[static_cast<size_t>(i / (k * k))];
        planes[static_cast<size_t>(n + i)] = values[static_cast<size_t>(i / k % k)];
        planes[static_cast<size_t>(2 * n + i)] = values[static_cast<size_t>(i % k)];
    }
    const auto hsv = rgb2hsv<F>(image<F>(1, n, planes, 3), cls);
    auto same = [](double x, double y) { return std::isnan(x) ? std::isnan(y) : (x == y && std::signbit(x) == std::signbit(y)); };
    for (int64_t i = 0; i < n; ++i) {
        const F r = planes[static_cast<size_t>(i)], g = planes[static_cast<size_t>(n + i)],
                b = planes[static_cast<size_t>(2 * n + i)];
        const Hsv want = matlab_pixel<F>(r, g, b);
        const double got[3] = {static_cast<double>(hsv[static_cast<size_t>(i)]),
                               static_cast<double>(hsv[static_cast<size_t>(n + i)]),
                               static_cast<double>(hsv[static_cast<size_t>(2 * n + i)])};
        EXPECT_TRUE(same(got[0], want.h)) << "h of (" << r << ", " << g << ", " << b << "): " << got[0] << " vs " << want.h;
        EXPECT_TRUE(same(got[1], want.s)) << "s of (" << r << ", " << g << ", " << b << "): " << got[1] << " vs " << want.s;
        EXPECT_TRUE(same(got[2], want.v)) << "v of (" << r << ", " << g << ", " << b << "): " << got[2] << " vs " << want.v;
    }
}

TEST(Rgb2hsv, SpecialValuesToTheBitSingle) { check_special_triples<float>(IPT_SINGLE); }
TEST(Rgb2hsv, SpecialValuesToTheBitDouble) { check_special_triples<double>(IPT_DOUBLE); }

TEST(Rgb2hsv, RefusesOneChannelImagesAndIntegerColormaps) {
    IPT_EXPECT_ERROR(rgb2hsv(image<double>(4, 5, std::vector<double>(20, 0))), IPT_ERR_INVALID_ARGUMENT, "c-by-3");
    IPT_EXPECT_ERROR(rgb2hsv(image<uint8_t>(2, 3, std::vector<uint8_t>(6, 0))), IPT_ERR_INVALID_ARGUMENT, "double");
}

}  // namespace
