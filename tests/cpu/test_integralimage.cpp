// SPDX-License-Identifier: Apache-2.0
// ipt.integralImage against MathWorks' documented examples (magic(5), both
// orientations) and brute-force sums written here: the rectangle above and
// left for 'upright', the 45-degree cone for 'rotated'.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

std::vector<double> integral(const ipt::Image& i, const char* orientation, int64_t rows, int64_t cols) {
    ipt::Call call(context(), "ipt.integralimage");
    call.image("I", i);
    if (orientation) call.text("orientation", orientation);
    call.run();
    ipt::Image j = call.take("J");
    EXPECT_EQ(j.dtype(), IPT_DOUBLE);
    EXPECT_EQ(j.rows(), rows);
    EXPECT_EQ(j.cols(), cols);
    EXPECT_EQ(j.channels(), i.channels());
    return j.download<double>();
}

const std::vector<double> kMagic5 = {17, 24, 1,  8,  15, 23, 5,  7, 14, 16, 4, 6, 13,
                                     20, 22, 10, 12, 19, 21, 3,  11, 18, 25, 2, 9};

TEST(IntegralImage, MatlabDocExampleUpright) {
    const std::vector<double> expect = {0, 0,  0,   0,   0,   0,   0, 17, 41,  42,  50,  65,
                                        0, 40, 69,  77,  99,  130, 0, 44, 79,  100, 142, 195,
                                        0, 54, 101, 141, 204, 260, 0, 65, 130, 195, 260, 325};
    EXPECT_EQ(integral(image<double>(5, 5, kMagic5), nullptr, 6, 6), expect);
    // regionSum = J(eR+1,eC+1) - J(eR+1,sC) - J(sR,eC+1) + J(sR,sC) over rows 1:2, columns 3:4.
    const std::vector<double> j = integral(image<uint8_t>(5, 5, std::vector<uint8_t>(kMagic5.begin(), kMagic5.end())),
                                           "upright", 6, 6);
    auto J = [&](int r, int c) { return j[(r - 1) * 6 + (c - 1)]; };
    EXPECT_EQ(J(3, 5) - J(3, 3) - J(1, 5) + J(1, 3), 30.0);
}

// The rows MathWorks prints for integralImage(magic(5), 'rotated'); the last
// row and the region sum follow from the recurrence by hand.
TEST(IntegralImage, MatlabDocExampleRotated) {
    const std::vector<double> expect = {0,   0,   0,   0,   0,   0,   0,   0,  17,  24,  1,   8,   15,  0,
                                        17,  64,  47,  40,  38,  39,  15,  64, 74,  91,  104, 105, 76,  39,
                                        74,  105, 149, 188, 183, 130, 76,  105, 170, 232, 272, 236, 195, 130};
    const std::vector<double> j = integral(image<double>(5, 5, kMagic5), "rotated", 6, 7);
    EXPECT_EQ(j, expect);
    auto J = [&](int r, int c) { return j[(r - 1) * 7 + (c - 1)]; };
    const int x = 3, y = 1, w = 3, h = 2;
    EXPECT_EQ(J(y + w + h, x + w - h + 1) + J(y, x + 1) - J(y + h, x - h + 1) - J(y + w, x + w + 1), 133.0);
}

template <class T>
std::vector<T> random_values(int64_t n, double lo, double hi, uint32_t seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>(std::is_floating_point_v<T> ? u(gen) : std::round(u(gen)));
    return v;
}

// Upright: J(r+1, c+1) = sum of I(1:r, 1:c); rotated: the cone of pixels
// (r', c') with r' <= y-1 and |c'+1 - x| <= y-1-r' (1-based J(y, x)).
template <class T>
void brute_force(const std::vector<T>& a, int64_t m, int64_t n, double lo, double hi, uint32_t seed) {
    (void)lo, (void)hi, (void)seed;
    const std::vector<double> up = integral(image<T>(m, n, a), nullptr, m + 1, n + 1);
    double scale = 1;
    for (T v : a) scale += std::abs(double(v));
    const double tol = std::is_floating_point_v<T> ? 4 * (m + n) * 2.2e-16 * scale : 0;
    for (int64_t r = 0; r <= m; ++r)
        for (int64_t c = 0; c <= n; ++c) {
            double s = 0;
            for (int64_t i = 0; i < r; ++i)
                for (int64_t k = 0; k < c; ++k) s += double(a[i * n + k]);
            ASSERT_NEAR(up[r * (n + 1) + c], s, tol) << r << "," << c;
        }
    if (m == 0 || n == 0) return;
    const std::vector<double> rot = integral(image<T>(m, n, a), "rotated", m + 1, n + 2);
    for (int64_t y = 1; y <= m + 1; ++y)
        for (int64_t x = 1; x <= n + 2; ++x) {
            double s = 0;
            for (int64_t r = 1; r <= m; ++r)
                for (int64_t c = 1; c <= n; ++c)
                    if (r <= y - 1 && std::abs(c + 1 - x) <= y - 1 - r) s += double(a[(r - 1) * n + c - 1]);
            ASSERT_NEAR(rot[(y - 1) * (n + 2) + x - 1], s, tol * 4) << y << "," << x;
        }
}

TEST(IntegralImage, EveryClassAgainstBruteForce) {
    brute_force<uint8_t>(random_values<uint8_t>(13 * 17, 0, 255, 1), 13, 17, 0, 255, 1);
    brute_force<uint16_t>(random_values<uint16_t>(9 * 4, 0, 65535, 2), 9, 4, 0, 0, 0);
    brute_force<int16_t>(random_values<int16_t>(7 * 11, -32768, 32767, 3), 7, 11, 0, 0, 0);
    brute_force<int32_t>(random_values<int32_t>(6 * 5, -2e9, 2e9, 4), 6, 5, 0, 0, 0);
    brute_force<uint32_t>(random_values<uint32_t>(5 * 6, 0, 4e9, 5), 5, 6, 0, 0, 0);
    brute_force<float>(random_values<float>(8 * 9, -1, 1, 6), 8, 9, 0, 0, 0);
    brute_force<double>(random_values<double>(10 * 3, -1, 1, 7), 10, 3, 0, 0, 0);
}

TEST(IntegralImage, EdgeShapes) {
    brute_force<double>({2.5}, 1, 1, 0, 0, 0);
    brute_force<uint8_t>(random_values<uint8_t>(19, 0, 255, 8), 1, 19, 0, 0, 0);
    brute_force<uint8_t>(random_values<uint8_t>(19, 0, 255, 9), 19, 1, 0, 0, 0);
    // Empty: an all-zero (m+1) x (n+1) upright table, an empty rotated one.
    EXPECT_EQ(integral(context().upload<double>(0, 3, {}), nullptr, 1, 4), std::vector<double>(4, 0.0));
    EXPECT_TRUE(integral(context().upload<double>(2, 0, {}), "rotated", 0, 0).empty());
}

TEST(IntegralImage, LogicalAndPlanes) {
    const std::vector<double> j = integral(ipt_test::logical(2, 2, {1, 0, 1, 1}), nullptr, 3, 3);
    EXPECT_EQ(j, (std::vector<double>{0, 0, 0, 0, 1, 1, 0, 2, 3}));
    std::vector<uint8_t> rgb = {1, 2, 3, 4, 10, 20, 30, 40, 0, 0, 0, 255};
    const std::vector<double> p = integral(image<uint8_t>(2, 2, rgb, 3), nullptr, 3, 3);
    EXPECT_EQ(std::vector<double>(p.begin(), p.begin() + 9), (std::vector<double>{0, 0, 0, 0, 1, 3, 0, 4, 10}));
    EXPECT_EQ(std::vector<double>(p.begin() + 9, p.begin() + 18), (std::vector<double>{0, 0, 0, 0, 10, 30, 0, 40, 100}));
    EXPECT_EQ(p[26], 255.0);
}

// NaN and Inf travel right and down (every later sum includes them).
TEST(IntegralImage, SpecialValues) {
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    const std::vector<double> j = integral(image<double>(2, 2, {1, nan, inf, 1}), nullptr, 3, 3);
    EXPECT_EQ(j[4], 1.0);
    EXPECT_TRUE(std::isnan(j[5]));
    EXPECT_EQ(j[7], inf);
    EXPECT_TRUE(std::isnan(j[8]));
}

// Upright tables of large images, against independent references: for the
// integer classes the exact sums by inclusion-exclusion in int64 (any order
// of exact additions gives them), for the others cumsum(cumsum(I, 1), 2)
// with MATLAB's order of double additions, compared bit for bit. The sizes
// make several row strips (one a thread), leave columns past the last eight
// and rows past the last four, and (3 x 40000 uint16) rows whose running
// sums pass 2^31.
template <class T>
void large_upright(int64_t m, int64_t n, uint32_t seed, double lo, double hi) {
    const std::vector<T> a = random_values<T>(m * n, lo, hi, seed);
    const std::vector<double> got = integral(image<T>(m, n, a), nullptr, m + 1, n + 1);
    const int64_t w = n + 1;
    if constexpr (std::is_integral_v<T> && sizeof(T) <= 2) {
        std::vector<int64_t> S(static_cast<size_t>((m + 1) * w), 0);
        for (int64_t r = 1; r <= m; ++r)
            for (int64_t c = 1; c <= n; ++c)
                S[r * w + c] = int64_t(a[(r - 1) * n + c - 1]) + S[(r - 1) * w + c] + S[r * w + c - 1] -
                               S[(r - 1) * w + c - 1];
        for (size_t i = 0; i < S.size(); ++i) ASSERT_EQ(got[i], double(S[i])) << i;
    } else {
        std::vector<double> C(static_cast<size_t>(n), 0.0), want(static_cast<size_t>((m + 1) * w), 0.0);
        for (int64_t r = 1; r <= m; ++r) {
            double s = 0;
            for (int64_t c = 1; c <= n; ++c) {
                C[c - 1] = double(a[(r - 1) * n + c - 1]) + C[c - 1];
                s = s + C[c - 1];
                want[r * w + c] = s;
            }
        }
        for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(got[i], want[i]) << i;
    }
}

TEST(IntegralImage, LargeImagesUpright) {
    large_upright<uint8_t>(301, 259, 31, 0, 255);
    large_upright<uint16_t>(203, 333, 32, 0, 65535);
    large_upright<int16_t>(250, 301, 33, -32768, 32767);
    large_upright<uint16_t>(3, 40000, 34, 60000, 65535);
    large_upright<uint8_t>(40000, 3, 35, 0, 255);
    large_upright<float>(301, 259, 36, -1, 1);
    large_upright<double>(258, 307, 37, -1e6, 1e6);
    large_upright<int32_t>(211, 301, 38, -2e9, 2e9);
    large_upright<uint32_t>(205, 299, 39, 0, 4e9);
    std::vector<uint8_t> bits(300 * 257);
    for (size_t i = 0; i < bits.size(); ++i) bits[i] = static_cast<uint8_t>(i % 7 < 3);
    const std::vector<double> j = integral(context().upload(IPT_LOGICAL, 300, 257, bits.data()), nullptr, 301, 258);
    for (int64_t r = 1; r <= 300; r += 37)
        for (int64_t c = 1; c <= 257; c += 29) {
            double s = 0;
            for (int64_t i = 0; i < r; ++i)
                for (int64_t k = 0; k < c; ++k) s += bits[i * 257 + k];
            ASSERT_EQ(j[r * 258 + c], s) << r << "," << c;
        }
}

}  // namespace
