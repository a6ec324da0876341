// SPDX-License-Identifier: Apache-2.0
// ipt.imcrop against MathWorks' documented rule (a rect of width w and
// height h from pixel centre (xmin, ymin) keeps every pixel it touches: about
// h+1 rows and w+1 columns; [20 20 40 30] gives 31-by-41) and a brute force
// that tests every pixel centre against the rounded corners, over every class
// and RGB.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

double round_half_away(double x) { return x < 0 ? -std::floor(-x + 0.5) : std::floor(x + 0.5); }

// Keeps pixel (r, c) (1-based) when its centre lies in the rounded rectangle.
template <class T>
std::vector<T> brute(const std::vector<T>& a, int64_t m, int64_t n, int64_t channels, const std::vector<double>& rect,
                     int64_t& rows, int64_t& cols) {
    const double c1 = round_half_away(rect[0]), c2 = round_half_away(rect[0] + rect[2]);
    const double r1 = round_half_away(rect[1]), r2 = round_half_away(rect[1] + rect[3]);
    std::vector<T> out;
    rows = cols = 0;
    for (int64_t ch = 0; ch < channels; ++ch)
        for (int64_t r = 1; r <= m; ++r) {
            int64_t kept = 0;
            for (int64_t c = 1; c <= n; ++c)
                if (r >= r1 && r <= r2 && c >= c1 && c <= c2) {
                    out.push_back(a[static_cast<size_t>((ch * m + r - 1) * n + c - 1)]);
                    ++kept;
                }
            if (kept) cols = kept, rows += ch == 0;
        }
    return out;
}

template <class T>
ipt::Image crop(const ipt::Image& i, const std::vector<double>& rect) {
    ipt::Call call(context(), "ipt.imcrop");
    call.image("I", i).numbers("rect", rect).run();
    return call.take("J");
}

// MathWorks' note on rect: [20 20 40 30] keeps rows 20..50 and columns 20..60.
TEST(Imcrop, MatlabDocRectIs31By41) {
    std::vector<uint16_t> a(100 * 100);
    for (size_t k = 0; k < a.size(); ++k) a[k] = static_cast<uint16_t>(k);
    ipt::Image j = crop<uint16_t>(image<uint16_t>(100, 100, a), {20, 20, 40, 30});
    ASSERT_EQ(j.rows(), 31);
    ASSERT_EQ(j.cols(), 41);
    EXPECT_EQ(j.dtype(), IPT_UINT16);
    const std::vector<uint16_t> got = j.download<uint16_t>();
    for (int64_t r = 0; r < 31; ++r)
        for (int64_t c = 0; c < 41; ++c) ASSERT_EQ(got[r * 41 + c], (19 + r) * 100 + 19 + c) << r << " " << c;
}

// MathWorks' example crops with [60 40 100 90]: 91 rows and 101 columns.
TEST(Imcrop, MatlabDocExampleSize) {
    ipt::Image j = crop<uint8_t>(image<uint8_t>(280, 272, std::vector<uint8_t>(280 * 272, 7)), {60, 40, 100, 90});
    EXPECT_EQ(j.rows(), 91);
    EXPECT_EQ(j.cols(), 101);
}

TEST(Imcrop, MissGivesEmptyDouble) {
    for (const std::vector<double>& rect : std::vector<std::vector<double>>{{7, 1, 1, 1}, {1, 5.5, 1, 1}, {-5, 1, 5.4, 1}}) {
        ipt::Image j = crop<uint8_t>(image<uint8_t>(5, 6, std::vector<uint8_t>(90, 1), 3), rect);
        EXPECT_EQ(j.rows(), 0);
        EXPECT_EQ(j.cols(), 0);
        EXPECT_EQ(j.channels(), 1);
        EXPECT_EQ(j.dtype(), IPT_DOUBLE);
    }
    ipt::Image e = crop<uint8_t>(context().upload(IPT_UINT8, 0, 4, nullptr), {1, 1, 2, 2});
    EXPECT_EQ(e.rows(), 0);
    EXPECT_EQ(e.dtype(), IPT_DOUBLE);
}

TEST(Imcrop, BadRectNamesRect) {
    ipt::Image i = image<double>(2, 2, {1, 2, 3, 4});
    IPT_EXPECT_ERROR(crop<double>(i, {1, 1, -1, 1}), IPT_ERR_INVALID_ARGUMENT, "rect");
    IPT_EXPECT_ERROR(crop<double>(i, {1, 1, 1, -2}), IPT_ERR_INVALID_ARGUMENT, "rect");
    IPT_EXPECT_ERROR(crop<double>(i, {1, 1, 1}), IPT_ERR_INVALID_ARGUMENT, "rect");
    IPT_EXPECT_ERROR(crop<double>(i, {1, 1, 1, 1, 1}), IPT_ERR_INVALID_ARGUMENT, "rect");
    IPT_EXPECT_ERROR(crop<double>(i, {NAN, 1, 1, 1}), IPT_ERR_INVALID_ARGUMENT, "rect");
    IPT_EXPECT_ERROR(crop<double>(i, {1, 1, INFINITY, 1}), IPT_ERR_INVALID_ARGUMENT, "rect");
}

template <class T>
void against_brute(std::mt19937& rng) {
    using S = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;  // logical as bytes
    std::uniform_real_distribution<double> pos(-4, 14), len(0, 9);
    for (int trial = 0; trial < 60; ++trial) {
        const int64_t m = 1 + rng() % 11, n = 1 + rng() % 11, channels = trial % 3 == 0 ? 3 : 1;
        std::vector<S> a(static_cast<size_t>(m * n * channels));
        for (S& x : a) x = static_cast<S>(rng() % 2);
        for (size_t k = 0; k < a.size() && !std::is_same_v<T, bool>; ++k) a[k] = static_cast<S>(k % 250);
        std::vector<double> rect = {pos(rng), pos(rng), len(rng), len(rng)};
        if (trial % 4 == 0) rect = {std::round(rect[0] * 2) / 2, std::round(rect[1] * 2) / 2, std::round(rect[2] * 2) / 2,
                                    std::round(rect[3] * 2) / 2};  // ties
        int64_t rows = 0, cols = 0;
        const std::vector<S> want = brute(a, m, n, channels, rect, rows, cols);
        ipt::Image img = context().upload(ipt::dtype_of<T>(), m, n, a.data(), channels);
        ipt::Image j = crop<T>(img, rect);
        const std::string what = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(channels) + " rect " +
                                 std::to_string(rect[0]) + " " + std::to_string(rect[1]) + " " + std::to_string(rect[2]) +
                                 " " + std::to_string(rect[3]);
        if (want.empty()) {
            EXPECT_EQ(j.rows() * j.cols(), 0) << what;
            EXPECT_EQ(j.dtype(), IPT_DOUBLE) << what;
            continue;
        }
        ASSERT_EQ(j.rows(), rows) << what;
        ASSERT_EQ(j.cols(), cols) << what;
        ASSERT_EQ(j.channels(), channels) << what;
        ASSERT_EQ(j.dtype(), static_cast<ipt_dtype>(ipt::dtype_of<T>())) << what;
        std::vector<S> got(want.size());
        j.download(got.data());
        EXPECT_TRUE(std::memcmp(got.data(), want.data(), want.size() * sizeof(S)) == 0) << what;
    }
}

TEST(Imcrop, EveryClassAgainstBruteForce) {
    std::mt19937 rng(15);
    against_brute<bool>(rng);
    against_brute<uint8_t>(rng);
    against_brute<uint16_t>(rng);
    against_brute<int16_t>(rng);
    against_brute<int32_t>(rng);
    against_brute<uint32_t>(rng);
    against_brute<float>(rng);
    against_brute<double>(rng);
}

}  // namespace
