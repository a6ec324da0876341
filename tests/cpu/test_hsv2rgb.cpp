// SPDX-License-Identifier: Apache-2.0
// ipt.hsv2rgb against MathWorks' documentation example and the textbook
// sextant formulas written here (for H, S, V in [0, 1]):
// i = floor(6H) mod 6, f = 6H - floor(6H), p = V(1-S), q = V(1-fS), t = V(1-(1-f)S).
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

template <class Out = double>
std::vector<Out> hsv2rgb(const ipt::Image& hsv, ipt_dtype out_class = IPT_DOUBLE) {
    ipt::Call call(context(), "ipt.hsv2rgb");
    call.image("HSV", hsv).run();
    ipt::Image rgb = call.take("RGB");
    EXPECT_EQ(rgb.dtype(), out_class);
    EXPECT_EQ(rgb.rows(), hsv.rows());
    EXPECT_EQ(rgb.cols(), hsv.cols());
    EXPECT_EQ(rgb.channels(), hsv.channels());
    return rgb.download<Out>();
}

void sextant(double h, double s, double v, double out[3]) {
    const double h6 = 6 * h, fl = std::floor(h6), f = h6 - fl;
    const int i = static_cast<int>(fl) % 6;
    const double p = v * (1 - s), q = v * (1 - f * s), t = v * (1 - (1 - f) * s);
    const double table[6][3] = {{v, t, p}, {q, v, p}, {p, v, t}, {p, q, v}, {t, p, v}, {v, p, q}};
    for (int c = 0; c < 3; ++c) out[c] = table[i][c];
}

// hsv = [.6 1 1; .6 .7 1; .6 .5 1; .6 .3 1; .6 0 1]: hue .6 is the fourth
// sextant (blue strongest), R = 1 - S, G = 1 - 0.6 S, B = 1.
TEST(Hsv2rgb, MatlabColormapExample) {
    const auto rgb = hsv2rgb(image<double>(5, 3, {.6, 1, 1, .6, .7, 1, .6, .5, 1, .6, .3, 1, .6, 0, 1}));
    const double s[5] = {1, .7, .5, .3, 0};
    for (int i = 0; i < 5; ++i) {
        EXPECT_NEAR(rgb[3 * i], 1 - s[i], 1e-15) << i;
        EXPECT_NEAR(rgb[3 * i + 1], 1 - 0.6 * s[i], 1e-15) << i;
        EXPECT_EQ(rgb[3 * i + 2], 1.0) << i;
    }
}

TEST(Hsv2rgb, GridAgainstSextants) {
    std::vector<double> h, s, v;
    for (int a = 0; a <= 48; ++a)
        for (int b = 0; b <= 8; ++b)
            for (int c = 0; c <= 4; ++c) h.push_back(a / 48.0), s.push_back(b / 8.0), v.push_back(c / 4.0);
    const int64_t n = static_cast<int64_t>(h.size());
    std::vector<double> planes = h;
    planes.insert(planes.end(), s.begin(), s.end());
    planes.insert(planes.end(), v.begin(), v.end());
    const auto rgb = hsv2rgb(image<double>(n, 1, planes, 3));
    for (int64_t i = 0; i < n; ++i) {
        double w[3];
        sextant(h[i], s[i], v[i], w);
        for (int c = 0; c < 3; ++c) ASSERT_NEAR(rgb[c * n + i], w[c], 1e-15) << i << " " << c;
    }
}

// H = 0 and H = 1 are both red; the sextant edges k/6 are exact colours.
TEST(Hsv2rgb, HueEnds) {
    const auto rgb = hsv2rgb(image<double>(1, 4, {0, 1, 1.0 / 6, 0.5, 1, 1, 1, 1, 1, 1, 1, 1}, 3));
    const std::vector<double> want = {1, 1, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1};  // red, red, yellow, cyan
    for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(rgb[i], want[i]) << i;
}

TEST(Hsv2rgb, SingleAndLogical) {
    const auto f = hsv2rgb<float>(image<float>(1, 1, {0.6f, 0.5f, 1.0f}, 3), IPT_SINGLE);
    EXPECT_NEAR(f[0], 0.5f, 1e-7);
    EXPECT_NEAR(f[1], 0.7f, 1e-7);
    EXPECT_EQ(f[2], 1.0f);
    // logical: H, S in {0, 1}; V = 1 gives red at full saturation and white without.
    std::vector<uint8_t> bits = {0, 1, 1, 0, 1, 1};  // pixels (0,1,1) and (1,0,1)
    ipt::Image l = context().upload(IPT_LOGICAL, 1, 2, bits.data(), 3);
    EXPECT_EQ(hsv2rgb(l), (std::vector<double>{1, 1, 0, 1, 0, 1}));
}

TEST(Hsv2rgb, NanPropagatesToEveryComponent) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto rgb = hsv2rgb(image<double>(1, 2, {nan, 0.5, 0.5, 1, 0.5, 1}, 3));
    for (int i : {0, 2, 4}) EXPECT_TRUE(std::isnan(rgb[i])) << i;
    for (int i : {1, 3, 5}) EXPECT_FALSE(std::isnan(rgb[i])) << i;
}

TEST(Hsv2rgb, ShapesAndErrors) {
    EXPECT_TRUE(hsv2rgb(image<double>(0, 3, {})).empty());
    EXPECT_EQ(hsv2rgb(image<double>(1, 1, {0, 0, 0.25}, 3)), (std::vector<double>{0.25, 0.25, 0.25}));
    IPT_EXPECT_ERROR(hsv2rgb(image<double>(2, 2, {0, 0, 0, 0})), IPT_ERR_INVALID_ARGUMENT, "c-by-3");
}

}  // namespace
