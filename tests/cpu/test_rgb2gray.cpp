// SPDX-License-Identifier: Apache-2.0
// ipt.rgb2gray against hand-computed values and a brute-force weighted sum
// written here: 0.298936021293775 R + 0.587043074451121 G + 0.114020904255103 B
// in double, rounded half away from zero for uint8 and uint16.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

template <class T>
std::vector<T> gray(const ipt::Image& rgb) {
    ipt::Call call(context(), "ipt.rgb2gray");
    call.image("RGB", rgb).run();
    ipt::Image i = call.take("I");
    EXPECT_EQ(i.dtype(), rgb.dtype());
    EXPECT_EQ(i.rows(), rgb.rows());
    EXPECT_EQ(i.cols(), rgb.cols());
    EXPECT_EQ(i.channels(), 1);
    return i.download<T>();
}

double weighted(double r, double g, double b) {
    double s = 0.298936021293775 * r;
    s += 0.587043074451121 * g;
    s += 0.114020904255103 * b;
    return s;
}

// Pure colours and greys, uint8 (planes R, G, B of a 1x5 image). By hand:
// 255*0.298936... = 76.229 -> 76; 255*0.587043... = 149.696 -> 150;
// 255*0.114020... = 29.075 -> 29; white: 254.99999999999974 -> 255; 1 -> 1.
TEST(Rgb2gray, Uint8PureColoursByHand) {
    const std::vector<uint8_t> rgb = {255, 0, 0, 255, 1,   // R
                                      0, 255, 0, 255, 1,   // G
                                      0, 0, 255, 255, 1};  // B
    EXPECT_EQ(gray<uint8_t>(image<uint8_t>(1, 5, rgb, 3)), (std::vector<uint8_t>{76, 150, 29, 255, 1}));
}

// A tie: 0.5 exactly is not reachable with these weights, but values just
// either side of x.5 are: brute force over every grey and many colours.
TEST(Rgb2gray, Uint8RandomAgainstBruteForce) {
    std::mt19937 rng(7);
    const int64_t rows = 37, cols = 53, plane = rows * cols;
    std::vector<uint8_t> rgb(3 * plane);
    for (auto& v : rgb) v = static_cast<uint8_t>(rng());
    for (int k = 0; k < 256; ++k) rgb[k] = rgb[plane + k] = rgb[2 * plane + k] = static_cast<uint8_t>(k);
    auto g = gray<uint8_t>(image<uint8_t>(rows, cols, rgb, 3));
    for (int64_t i = 0; i < plane; ++i) {
        const double s = weighted(rgb[i], rgb[plane + i], rgb[2 * plane + i]);
        ASSERT_EQ(g[i], static_cast<uint8_t>(std::floor(s + 0.5))) << i;
    }
    for (int k = 0; k < 256; ++k) EXPECT_EQ(g[k], k);
}

TEST(Rgb2gray, Uint16AgainstBruteForce) {
    std::mt19937 rng(9);
    const int64_t plane = 64 * 17;
    std::vector<uint16_t> rgb(3 * plane);
    for (auto& v : rgb) v = static_cast<uint16_t>(rng());
    rgb[0] = rgb[plane] = rgb[2 * plane] = 65535;
    auto g = gray<uint16_t>(image<uint16_t>(64, 17, rgb, 3));
    for (int64_t i = 0; i < plane; ++i) {
        const double s = weighted(rgb[i], rgb[plane + i], rgb[2 * plane + i]);
        ASSERT_EQ(g[i], static_cast<uint16_t>(std::floor(s + 0.5))) << i;
    }
    EXPECT_EQ(g[0], 65535);
}

// Floating classes keep their class, with no clipping; NaN propagates.
TEST(Rgb2gray, FloatingClasses) {
    const std::vector<double> rgb = {1, 0, 0.5, 2, NAN,  // R
                                     0, 1, 0.5, -1, 0,   // G
                                     0, 0, 0.5, 0, 0};   // B
    auto d = gray<double>(image<double>(1, 5, rgb, 3));
    EXPECT_EQ(d[0], 0.298936021293775);
    EXPECT_EQ(d[1], 0.587043074451121);
    EXPECT_EQ(d[2], weighted(0.5, 0.5, 0.5));
    EXPECT_EQ(d[3], weighted(2, -1, 0));
    EXPECT_TRUE(std::isnan(d[4]));
    std::vector<float> rgbf(rgb.begin(), rgb.end());
    auto f = gray<float>(image<float>(1, 5, rgbf, 3));
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(f[i], static_cast<float>(weighted(rgbf[i], rgbf[5 + i], rgbf[10 + i]))) << i;
    EXPECT_TRUE(std::isnan(f[4]));
}

TEST(Rgb2gray, ShapesAndEmpty) {
    // 1x1, Nx1 of uint8: R=G=B=200 stays 200.
    EXPECT_EQ(gray<uint8_t>(image<uint8_t>(1, 1, {200, 200, 200}, 3)), std::vector<uint8_t>{200});
    EXPECT_EQ(gray<uint8_t>(image<uint8_t>(2, 1, {10, 100, 10, 100, 10, 100}, 3)),
              (std::vector<uint8_t>{10, 100}));
    EXPECT_TRUE(gray<uint8_t>(image<uint8_t>(0, 4, {}, 3)).empty());
}

TEST(Rgb2gray, RefusesOneChannelAndOtherClasses) {
    const ipt::Image one = image<uint8_t>(2, 2, {1, 2, 3, 4});
    IPT_EXPECT_ERROR(ipt::Call(context(), "ipt.rgb2gray").image("RGB", one).run(), IPT_ERR_INVALID_ARGUMENT,
                     "RGB");
    const ipt::Image s16 = image<int16_t>(1, 1, {1, 2, 3}, 3);
    IPT_EXPECT_ERROR(ipt::Call(context(), "ipt.rgb2gray").image("RGB", s16).run(), IPT_ERR_INVALID_ARGUMENT,
                     "RGB");
}

}  // namespace
