// SPDX-License-Identifier: Apache-2.0
// ipt.ycbcr2rgb against hand-computed colours (the ends of MathWorks'
// documented ranges map to black and white), the inverse of the BT.601 map
// solved here by Gaussian elimination in long double, clamping of floating
// results to [0, 1] and saturation of integer ones.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

template <class T>
std::vector<T> ycbcr2rgb(const ipt::Image& ycbcr) {
    ipt::Call call(context(), "ipt.ycbcr2rgb");
    call.image("YCBCR", ycbcr).run();
    ipt::Image rgb = call.take("RGB");
    EXPECT_EQ(rgb.dtype(), ycbcr.dtype());
    EXPECT_EQ(rgb.rows(), ycbcr.rows());
    EXPECT_EQ(rgb.cols(), ycbcr.cols());
    EXPECT_EQ(rgb.channels(), ycbcr.channels());
    return rgb.download<T>();
}

// Solves T rgb = ycc - offset for rgb in [0, 1] units (ycc in [0, 255] units).
void solve(const double ycc[3], long double rgb[3]) {
    long double a[3][4] = {{65.481L, 128.553L, 24.966L, ycc[0] - 16.0L},
                           {-37.797L, -74.203L, 112.0L, ycc[1] - 128.0L},
                           {112.0L, -93.786L, -18.214L, ycc[2] - 128.0L}};
    for (int c = 0; c < 3; ++c) {
        int piv = c;
        for (int r = c + 1; r < 3; ++r)
            if (std::fabs(a[r][c]) > std::fabs(a[piv][c])) piv = r;
        for (int k = 0; k < 4; ++k) std::swap(a[c][k], a[piv][k]);
        for (int r = 0; r < 3; ++r)
            if (r != c) {
                const long double f = a[r][c] / a[c][c];
                for (int k = c; k < 4; ++k) a[r][k] -= f * a[c][k];
            }
    }
    for (int c = 0; c < 3; ++c) rgb[c] = a[c][3] / a[c][c];
}

TEST(Ycbcr2rgb, Uint8BlackWhiteRed) {
    const auto rgb = ycbcr2rgb<uint8_t>(image<uint8_t>(1, 3, {16, 235, 81, 128, 128, 90, 128, 128, 240}, 3));
    // Red's codes are rounded (Y 81.481 -> 81), so R comes back as
    // 255 * (65 * 0.0045662 + 112 * 0.0062589) = 254.44, not 255.
    EXPECT_EQ(rgb, (std::vector<uint8_t>{0, 255, 254, 0, 255, 0, 0, 255, 0}));
}

TEST(Ycbcr2rgb, Uint16Ends) {
    const auto rgb = ycbcr2rgb<uint16_t>(image<uint16_t>(1, 2, {4112, 60395, 32896, 32896, 32896, 32896}, 3));
    EXPECT_EQ(rgb, (std::vector<uint16_t>{0, 65535, 0, 65535, 0, 65535}));
}

// Every uint8 code on a grid: the rounded exact inverse, saturated, except
// within 1e-6 of a .5 tie, where double evaluation may go either way.
TEST(Ycbcr2rgb, Uint8GridAgainstExactInverse) {
    std::vector<uint8_t> planes[3];
    for (int y = 0; y < 256; y += 5)
        for (int cb = 0; cb < 256; cb += 5)
            for (int cr = 0; cr < 256; cr += 5)
                planes[0].push_back(uint8_t(y)), planes[1].push_back(uint8_t(cb)), planes[2].push_back(uint8_t(cr));
    const int64_t n = static_cast<int64_t>(planes[0].size());
    std::vector<uint8_t> all = planes[0];
    all.insert(all.end(), planes[1].begin(), planes[1].end());
    all.insert(all.end(), planes[2].begin(), planes[2].end());
    const auto rgb = ycbcr2rgb<uint8_t>(image<uint8_t>(1, n, all, 3));
    for (int64_t i = 0; i < n; ++i) {
        const double ycc[3] = {double(planes[0][i]), double(planes[1][i]), double(planes[2][i])};
        long double x[3];
        solve(ycc, x);
        for (int c = 0; c < 3; ++c) {
            const long double v = x[c] * 255;
            const long double frac = v - std::floor(v);
            if (std::fabs(frac - 0.5L) < 1e-6L) continue;
            const long double want = std::fmin(255.0L, std::fmax(0.0L, std::floor(v + 0.5L)));
            ASSERT_EQ(rgb[c * n + i], static_cast<int>(want)) << i << " " << c;
        }
    }
}

TEST(Ycbcr2rgb, FloatingResultsAreClampedAndNanIsZero) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // (0,0,0) is far below black: R and B negative, clamped to 0; (1,1,1)
    // gives R and B above 1, clamped to 1.
    const auto d = ycbcr2rgb<double>(image<double>(1, 3, {0, 1, nan, 0, 1, 0.5, 0, 1, 0.5}, 3));
    EXPECT_EQ(d[0], 0.0);
    EXPECT_GT(d[3], 0.53);  // G of (0,0,0): 16 * -0.0045662 + 128 * (0.0015363 + 0.0031881)
    EXPECT_LT(d[3], 0.54);
    EXPECT_EQ(d[6], 0.0);
    EXPECT_EQ(d[1], 1.0);
    EXPECT_EQ(d[7], 1.0);
    for (int c = 0; c < 3; ++c) EXPECT_EQ(d[2 + 3 * c], 0.0) << c;  // NaN
    // Mid grey round trip, in range: no clamping.
    const auto g = ycbcr2rgb<double>(image<double>(1, 1, {125.5 / 255, 128.0 / 255, 128.0 / 255}, 3));
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(g[c], 0.5, 1e-14) << c;
    // A colormap: black, a grey above white (R = G = B = 239/219), (0,0,0).
    const auto f = ycbcr2rgb<float>(
        image<float>(3, 3, {16.0f / 255, 128.0f / 255, 128.0f / 255, 1, 128.0f / 255, 128.0f / 255, 0, 0, 0}));
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(f[c], 0.0f, 1e-6) << c;
    for (int c = 3; c < 6; ++c) EXPECT_EQ(f[c], 1.0f) << c;
    EXPECT_EQ(f[6], 0.0f);
    EXPECT_EQ(f[8], 0.0f);
    EXPECT_TRUE(ycbcr2rgb<double>(image<double>(0, 3, {})).empty());
}

}  // namespace
