// SPDX-License-Identifier: Apache-2.0
// ipt.imboxfilt against hand computation and a brute-force window sum
// written here: pad in A's class, add the window, times the factor, convert.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

struct Options {
    std::vector<double> size;  // empty: default 3
    std::string padding = "replicate";
    double X = 0;
    bool has_norm = false;
    double norm = 0;
};

template <class T>
std::vector<T> box(const ipt::Image& a, const Options& o) {
    ipt::Call call(context(), "ipt.imboxfilt");
    call.image("A", a).text("Padding", o.padding);
    if (!o.size.empty()) call.numbers("filterSize", o.size);
    if (o.padding == "constant") call.number("X", o.X);
    if (o.has_norm) call.number("NormalizationFactor", o.norm);
    call.run();
    ipt::Image b = call.take("B");
    EXPECT_EQ(b.dtype(), a.dtype());
    EXPECT_EQ(b.rows(), a.rows());
    EXPECT_EQ(b.cols(), a.cols());
    EXPECT_EQ(b.channels(), a.channels());
    return b.download<T>();
}

int64_t pad_index(const std::string& padding, int64_t i, int64_t n) {
    if (i >= 0 && i < n) return i;
    if (padding == "replicate") return i < 0 ? 0 : n - 1;
    if (padding == "circular") return ((i % n) + n) % n;
    if (padding == "symmetric") {
        const int64_t k = ((i % (2 * n)) + 2 * n) % (2 * n);
        return k < n ? k : 2 * n - 1 - k;
    }
    return -1;
}

double round_half_away(double v) { return v < 0 ? -std::floor(-v + 0.5) : std::floor(v + 0.5); }

template <class T>
double to_class(double v) {
    if constexpr (std::is_floating_point_v<T>) return static_cast<T>(v);
    if (std::isnan(v)) return 0;
    return std::clamp(round_half_away(v), double(std::numeric_limits<T>::lowest()),
                      double(std::numeric_limits<T>::max()));
}

template <class T>
std::vector<T> random_values(int64_t n, double lo, double hi, uint32_t seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>(std::is_floating_point_v<T> ? u(gen) : std::round(u(gen)));
    return v;
}

template <class T>
void check_case(int64_t m, int64_t n, const Options& o, uint32_t seed, double lo, double hi) {
    const std::vector<T> a = random_values<T>(m * n, lo, hi, seed);
    const int64_t fr = o.size.empty() ? 3 : int64_t(o.size[0]);
    const int64_t fc = o.size.empty() ? 3 : int64_t(o.size.size() > 1 ? o.size[1] : o.size[0]);
    const double norm = o.has_norm ? o.norm : 1.0 / double(fr * fc);
    const double pad = to_class<T>(o.X);
    const std::vector<T> got = box<T>(image<T>(m, n, a), o);
    ASSERT_EQ(got.size(), a.size());
    double total = 0;
    for (T v : a) total += std::abs(double(v));
    total += std::abs(pad) * double((m + fr) * (n + fc));
    for (int64_t r = 0; r < m; ++r)
        for (int64_t c = 0; c < n; ++c) {
            double s = 0;
            for (int64_t i = 0; i < fr; ++i)
                for (int64_t j = 0; j < fc; ++j) {
                    const int64_t rr = pad_index(o.padding, r + i - (fr - 1) / 2, m);
                    const int64_t cc = pad_index(o.padding, c + j - (fc - 1) / 2, n);
                    s += (rr < 0 || cc < 0) ? pad : double(a[rr * n + cc]);
                }
            const double v = got[r * n + c];
            if constexpr (std::is_floating_point_v<T>) {
                // The integral image's differences cancel: error relative to its entries.
                const double tol = 8 * std::numeric_limits<T>::epsilon() * std::max(1.0, std::abs(s * norm)) +
                                   8 * 2.2e-16 * total * std::abs(norm);
                ASSERT_NEAR(v, s * norm, tol) << r << "," << c;
            } else {
                ASSERT_EQ(v, to_class<T>(s * norm)) << r << "," << c << " " << s * norm;
            }
        }
}

// magic(3) = [8 1 6; 3 5 7; 4 9 2]: the centre 3x3 mean is 5; the corner with
// replicate padding sums 8 8 1 / 8 8 1 / 3 3 5 = 45, mean 5; the uint8 corner
// (1,3): 1 6 6 / 1 6 6 / 5 7 7 = 45, mean 5.
TEST(Imboxfilt, Magic3ByHand) {
    auto b = box<double>(image<double>(3, 3, {8, 1, 6, 3, 5, 7, 4, 9, 2}), Options{});
    EXPECT_NEAR(b[4], 5.0, 1e-15);
    EXPECT_NEAR(b[0], 45.0 / 9, 1e-15);
    // (2,1): 8 8 1 / 3 3 5 / 4 4 9 = 45.
    EXPECT_NEAR(b[3], 45.0 / 9, 1e-15);
    Options sums;
    sums.has_norm = true;
    sums.norm = 1;
    sums.padding = "constant";
    auto s = box<uint8_t>(image<uint8_t>(3, 3, {8, 1, 6, 3, 5, 7, 4, 9, 2}), sums);
    // Zero padding, factor 1: local sums.
    EXPECT_EQ(s, (std::vector<uint8_t>{17, 30, 19, 30, 45, 30, 21, 30, 23}));
}

// Rounding: the window sum 13 of a 1x3 mean is 4.33 -> 4; 14 -> 4.67 -> 5;
// int16 -13/3 rounds to -4; a factor 0.5 on 5 gives a tie, away from zero.
TEST(Imboxfilt, Rounding) {
    Options row;
    row.size = {1, 3};
    row.padding = "constant";
    auto b = box<uint8_t>(image<uint8_t>(1, 3, {6, 4, 3}), row);
    EXPECT_EQ(b, (std::vector<uint8_t>{3, 4, 2}));  // 10/3, 13/3, 7/3
    Options half;
    half.size = {1};
    half.has_norm = true;
    half.norm = 0.5;
    EXPECT_EQ(box<int16_t>(image<int16_t>(1, 4, {5, -5, 3, -3}), half), (std::vector<int16_t>{3, -3, 2, -2}));
    half.norm = 1000;
    EXPECT_EQ(box<uint8_t>(image<uint8_t>(1, 2, {1, 0}), half), (std::vector<uint8_t>{255, 0}));
}

TEST(Imboxfilt, EveryClassAndPadding) {
    uint32_t seed = 1;
    for (const char* pad : {"replicate", "circular", "symmetric", "constant"}) {
        for (std::vector<double> size : {std::vector<double>{3}, {5, 7}, {1, 9}, {11}}) {
            Options o;
            o.padding = pad;
            o.size = size;
            o.X = 300.7;
            check_case<uint8_t>(9, 13, o, seed++, 0, 255);
            check_case<uint16_t>(8, 7, o, seed++, 0, 65535);
            check_case<int16_t>(7, 8, o, seed++, -32768, 32767);
            check_case<int32_t>(6, 9, o, seed++, -2e9, 2e9);
            check_case<uint32_t>(6, 9, o, seed++, 0, 4e9);
            o.X = -0.25;
            check_case<float>(10, 8, o, seed++, -1, 1);
            check_case<double>(10, 8, o, seed++, -1, 1);
        }
    }
}

// 8- and 16-bit classes add a window row's terms as vectors while their sums
// fit int32 and the row is at most 16 wide, else by a running sum: both
// sides, on rows wider than a few vectors, with constants outside the class.
TEST(Imboxfilt, IntegerWindowsShortAndLong) {
    uint32_t seed = 50;
    for (const char* pad : {"replicate", "constant", "symmetric"}) {
        for (std::vector<double> size : {std::vector<double>{5}, {3, 15}, {3, 17}, {21, 1}, {1, 41}}) {
            Options o;
            o.padding = pad;
            o.size = size;
            o.X = -70000;
            check_case<uint8_t>(37, 71, o, seed++, 0, 255);
            check_case<uint16_t>(35, 66, o, seed++, 0, 65535);
            check_case<int16_t>(33, 69, o, seed++, -32768, 32767);
        }
    }
}

TEST(Imboxfilt, EdgeShapesAndPlanes) {
    Options o;
    check_case<uint8_t>(1, 1, o, 3, 0, 255);
    check_case<uint8_t>(1, 17, o, 4, 0, 255);
    check_case<uint8_t>(17, 1, o, 5, 0, 255);
    o.size = {9};
    check_case<double>(2, 3, o, 6, -1, 1);  // window larger than the image
    EXPECT_TRUE(box<float>(context().upload<float>(0, 3, {}), Options{}).empty());
    std::vector<uint8_t> one = random_values<uint8_t>(20, 0, 255, 7), rgb;
    for (int c = 0; c < 3; ++c) rgb.insert(rgb.end(), one.begin(), one.end());
    const auto plane = box<uint8_t>(image<uint8_t>(4, 5, one), Options{});
    const auto all = box<uint8_t>(image<uint8_t>(4, 5, rgb, 3), Options{});
    for (int c = 0; c < 3; ++c)
        EXPECT_EQ(std::vector<uint8_t>(all.begin() + c * 20, all.begin() + (c + 1) * 20), plane);
}

TEST(Imboxfilt, RejectsEvenSize) {
    ipt::Call call(context(), "ipt.imboxfilt");
    call.image("A", image<double>(2, 2, {1, 2, 3, 4})).numbers("filterSize", {2});
    IPT_EXPECT_ERROR(call.run(), IPT_ERR_INVALID_ARGUMENT, "filterSize");
}

}  // namespace
