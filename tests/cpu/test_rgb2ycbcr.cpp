// SPDX-License-Identifier: Apache-2.0
// ipt.rgb2ycbcr against MathWorks' documented ranges (Y in [16, 235], Cb and
// Cr in [16, 240], scaled by 257 for uint16 and by 1/255 for floating
// classes), hand-computed colours, and the definition evaluated here as
// MATLAB's rgb2ycbcr does: imlincomb with T and the offset multiplied by the
// class's scale factors, a double sum from left to right, converted once.
#include <cmath>
#include <cstdint>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

template <class T>
std::vector<T> rgb2ycbcr(const ipt::Image& rgb) {
    ipt::Call call(context(), "ipt.rgb2ycbcr");
    call.image("RGB", rgb).run();
    ipt::Image y = call.take("YCBCR");
    EXPECT_EQ(y.dtype(), rgb.dtype());
    EXPECT_EQ(y.rows(), rgb.rows());
    EXPECT_EQ(y.cols(), rgb.cols());
    EXPECT_EQ(y.channels(), rgb.channels());
    return y.download<T>();
}

const double kT[3][3] = {{65.481, 128.553, 24.966}, {-37.797, -74.203, 112}, {112, -93.786, -18.214}};
const double kOffset[3] = {16, 128, 128};

double round_half_away(double x) { return x < 0 ? -std::floor(-x + 0.5) : std::floor(x + 0.5); }

TEST(Rgb2ycbcr, Uint8BlackWhiteAndPrimaries) {
    // black, white, red, green, blue
    const auto y = rgb2ycbcr<uint8_t>(image<uint8_t>(1, 5, {0, 255, 255, 0, 0, 0, 255, 0, 255, 0, 0, 255, 0, 0, 255}, 3));
    // Y: 16, 235, 16+65.481, 16+128.553, 16+24.966
    EXPECT_EQ(std::vector<uint8_t>(y.begin(), y.begin() + 5), (std::vector<uint8_t>{16, 235, 81, 145, 41}));
    // Cb: 128, 128, 128-37.797, 128-74.203, 240
    EXPECT_EQ(std::vector<uint8_t>(y.begin() + 5, y.begin() + 10), (std::vector<uint8_t>{128, 128, 90, 54, 240}));
    // Cr: 128, 128, 240, 128-93.786, 128-18.214
    EXPECT_EQ(std::vector<uint8_t>(y.begin() + 10, y.end()), (std::vector<uint8_t>{128, 128, 240, 34, 110}));
}

TEST(Rgb2ycbcr, Uint16AndFloatingRanges) {
    const auto u = rgb2ycbcr<uint16_t>(image<uint16_t>(1, 2, {0, 65535, 0, 65535, 0, 65535}, 3));
    EXPECT_EQ(u, (std::vector<uint16_t>{4112, 60395, 32896, 32896, 32896, 32896}));
    const auto d = rgb2ycbcr<double>(image<double>(1, 2, {0, 1, 0, 1, 0, 1}, 3));
    EXPECT_NEAR(d[0], 16.0 / 255, 1e-16);
    EXPECT_NEAR(d[1], 235.0 / 255, 1e-15);
    for (int i = 2; i < 6; ++i) EXPECT_NEAR(d[i], 128.0 / 255, 1e-15) << i;
    const auto f = rgb2ycbcr<float>(image<float>(1, 1, {1, 0, 0}, 3));
    EXPECT_NEAR(f[0], 81.481 / 255, 1e-7);
    EXPECT_NEAR(f[1], 90.203 / 255, 1e-7);
    EXPECT_NEAR(f[2], 240.0 / 255, 1e-7);
}

// Every uint8 colour on a grid against MATLAB's double evaluation, and that
// against the exact value (within half a unit, apart from the rounding).
TEST(Rgb2ycbcr, Uint8GridAgainstDefinition) {
    std::vector<uint8_t> planes[3];
    for (int r = 0; r < 256; r += 5)
        for (int g = 0; g < 256; g += 5)
            for (int b = 0; b < 256; b += 5) planes[0].push_back(uint8_t(r)), planes[1].push_back(uint8_t(g)), planes[2].push_back(uint8_t(b));
    const int64_t n = static_cast<int64_t>(planes[0].size());
    std::vector<uint8_t> all = planes[0];
    all.insert(all.end(), planes[1].begin(), planes[1].end());
    all.insert(all.end(), planes[2].begin(), planes[2].end());
    const auto y = rgb2ycbcr<uint8_t>(image<uint8_t>(n, 1, all, 3));
    for (int c = 0; c < 3; ++c)
        for (int64_t i = 0; i < n; ++i) {
            double acc = (1.0 / 255 * kT[c][0]) * planes[0][i];
            acc = acc + (1.0 / 255 * kT[c][1]) * planes[1][i];
            acc = acc + (1.0 / 255 * kT[c][2]) * planes[2][i];
            acc = acc + kOffset[c];
            const double want = std::fmin(255, std::fmax(0, round_half_away(acc)));
            ASSERT_EQ(y[c * n + i], want) << c << " " << i;
            const double exact = kOffset[c] + (kT[c][0] * planes[0][i] + kT[c][1] * planes[1][i] + kT[c][2] * planes[2][i]) / 255;
            ASSERT_LE(std::fabs(y[c * n + i] - exact), 0.5 + 1e-9);
        }
}

TEST(Rgb2ycbcr, ColormapAndEmpty) {
    const auto m = rgb2ycbcr<double>(image<double>(2, 3, {0, 0, 0, 1, 1, 1}));
    EXPECT_NEAR(m[0], 16.0 / 255, 1e-16);
    EXPECT_NEAR(m[1], 128.0 / 255, 1e-15);
    EXPECT_NEAR(m[3], 235.0 / 255, 1e-15);
    EXPECT_TRUE(rgb2ycbcr<uint8_t>(image<uint8_t>(0, 7, {}, 3)).empty());
    IPT_EXPECT_ERROR(rgb2ycbcr<uint8_t>(image<uint8_t>(2, 2, {0, 0, 0, 0})), IPT_ERR_INVALID_ARGUMENT, "c-by-3");
}

}  // namespace
