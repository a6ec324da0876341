// SPDX-License-Identifier: Apache-2.0
// ipt.entropyfilt against a brute force of MATLAB's definition (the image
// made uint8 with im2uint8's rules, logical kept as two bins; the histogram of
// each symmetrically padded neighbourhood; -sum(p.*log2(p))), for every class
// it accepts, edge shapes, RGB planes, the default 9x9 nhood and bad input.
#include <limits>

#include "localstat_reference.hpp"

namespace {

using localstat_test::Elem;

std::vector<double> run(const ipt::Image& in, const ipt::Image* nh = nullptr) {
    ipt::Call call(ipt_test::context(), "ipt.entropyfilt");
    call.image("I", in);
    if (nh) call.image("nhood", *nh);
    call.run();
    ipt::Image j = call.take("J");
    EXPECT_EQ(j.dtype(), IPT_DOUBLE);
    EXPECT_EQ(j.rows(), in.rows());
    EXPECT_EQ(j.cols(), in.cols());
    EXPECT_EQ(j.channels(), in.channels());
    return j.download<double>();
}

// im2uint8 written from its documentation: floating round(255 x) clamped
// (NaN 0), uint16 round(x/257), int16 round((x+32768)/257).
template <class T>
int bin_of(Elem<T> x) {
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, uint8_t>) {
        return x;
    } else if constexpr (std::is_same_v<T, uint16_t>) {
        return static_cast<int>(std::lround(x / 257.0));
    } else if constexpr (std::is_same_v<T, int16_t>) {
        return static_cast<int>(std::lround((x + 32768.0) / 257.0));
    } else {
        if (std::isnan(x)) return 0;
        const double v = std::round(static_cast<double>(static_cast<T>(255) * x));
        return static_cast<int>(std::clamp(v, 0.0, 255.0));
    }
}

double reference_entropy(const std::vector<int>& w) {
    std::map<int, int> hist;
    for (int b : w) ++hist[b];
    double e = 0;
    for (auto [b, k] : hist) {
        const double p = static_cast<double>(k) / static_cast<double>(w.size());
        e -= p * std::log2(p);
    }
    return e;
}

template <class T>
void check(const std::vector<Elem<T>>& v, int64_t rows, int64_t cols, int64_t channels, int64_t nr, int64_t nc,
           const std::vector<int>& mask, bool pass_nhood = true) {
    const ipt::Image nh = localstat_test::nhood(nr, nc, mask);
    const auto got = run(localstat_test::upload<T>(rows, cols, v, channels), pass_nhood ? &nh : nullptr);
    for (int64_t ch = 0; ch < channels; ++ch) {
        std::vector<int> plane;
        for (int64_t i = ch * rows * cols; i < (ch + 1) * rows * cols; ++i) plane.push_back(bin_of<T>(v[i]));
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < cols; ++c) {
                const double want = reference_entropy(localstat_test::window(plane, rows, cols, r, c, nr, nc, mask));
                ASSERT_NEAR(got[static_cast<size_t>((ch * rows + r) * cols + c)], want, 1e-13)
                    << rows << "x" << cols << "x" << channels << " at " << r << "," << c << "," << ch;
            }
    }
}

template <class T>
class EntropyfiltTyped : public ::testing::Test {};
using Classes = ::testing::Types<bool, uint8_t, uint16_t, int16_t, float, double>;
TYPED_TEST_SUITE(EntropyfiltTyped, Classes);

}  // namespace

TYPED_TEST(EntropyfiltTyped, MatchesBruteForce) {
    using T = TypeParam;
    std::mt19937 rng(41);
    const std::pair<int64_t, int64_t> sizes[] = {{1, 1}, {1, 12}, {10, 1}, {3, 3}, {19, 23}};
    for (auto [rows, cols] : sizes) {
        // Few distinct values (small range) and many.
        for (bool small : {true, false}) {
            const auto v = localstat_test::random_values<T>(static_cast<size_t>(rows * cols), rng, small);
            check<T>(v, rows, cols, 1, 9, 9, std::vector<int>(81, 1), false);  // default true(9)
            check<T>(v, rows, cols, 1, 3, 5, {1, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1, 0, 1, 0, 1});
        }
    }
}

// The running histogram across shapes that stress its steps: rows not a
// multiple of the rows slid together, single rows and columns, an nhood
// larger than the image (repeated mirroring), flat and non-square nhoods, and
// holed ones whose members leave and enter all over the window.
TYPED_TEST(EntropyfiltTyped, SlidingWindowShapes) {
    using T = TypeParam;
    std::mt19937 rng(43);
    const std::pair<int64_t, int64_t> sizes[] = {{37, 29}, {1, 40}, {40, 1}, {6, 5}, {13, 2}};
    std::vector<int> holed(5 * 3), sparse(7 * 9);
    for (auto& x : holed) x = static_cast<int>(rng() % 3 != 0);
    for (auto& x : sparse) x = static_cast<int>(rng() % 4 == 0);
    std::vector<int> checker(9 * 9);
    for (size_t i = 0; i < checker.size(); ++i) checker[i] = static_cast<int>(i % 2);
    const struct {
        int64_t nr, nc;
        std::vector<int> mask;
    } nhoods[] = {{5, 3, holed},
                  {7, 9, sparse},
                  {9, 9, checker},
                  {1, 7, std::vector<int>(7, 1)},
                  {7, 1, std::vector<int>(7, 1)},
                  {3, 3, {0, 1, 0, 1, 1, 1, 0, 1, 0}},
                  {11, 13, std::vector<int>(11 * 13, 1)}};
    for (auto [rows, cols] : sizes)
        for (bool small : {true, false}) {
            const auto v = localstat_test::random_values<T>(static_cast<size_t>(rows * cols), rng, small);
            for (const auto& nh : nhoods) check<T>(v, rows, cols, 1, nh.nr, nh.nc, nh.mask);
        }
    const auto rgb = localstat_test::random_values<T>(9 * 7 * 3, rng, false);
    check<T>(rgb, 9, 7, 3, 5, 3, holed);
}

TYPED_TEST(EntropyfiltTyped, RgbPlanesAlike) {
    using T = TypeParam;
    std::mt19937 rng(42);
    const auto v = localstat_test::random_values<T>(7 * 6 * 3, rng, true);
    check<T>(v, 7, 6, 3, 3, 3, std::vector<int>(9, 1));
}

TEST(Entropyfilt, HandComputed) {
    // logical [0 1], nhood [1 1 1]: windows {0 0 1} and {0 1 1} (mirrored):
    // p = 1/3, 2/3 -> log2(3) - 2/3.
    const ipt::Image nh = localstat_test::nhood(1, 3, {1, 1, 1});
    const auto j = run(ipt_test::logical(1, 2, {0, 1}), &nh);
    const double want = std::log2(3.0) - 2.0 / 3.0;
    EXPECT_NEAR(j[0], want, 1e-15);
    EXPECT_NEAR(j[1], want, 1e-15);
    // A constant image has entropy 0.
    for (double x : run(ipt_test::image<uint8_t>(4, 5, std::vector<uint8_t>(20, 77)))) EXPECT_EQ(x, 0.0);
}

TEST(Entropyfilt, FloatingSpecialValuesAndRoundingTies) {
    // 0.5*255 = 127.5 rounds to 128, NaN to bin 0, +-Inf saturate.
    const std::vector<double> v = {0.5, std::nan(""), INFINITY, -INFINITY, 1.5, -0.2,
                                   127.5 / 255, 0.25, 1.0, 0.0, 2.0 / 255, 0.75};
    check<double>(v, 3, 4, 1, 3, 3, std::vector<int>(9, 1));
    std::vector<float> f(v.begin(), v.end());
    check<float>(f, 3, 4, 1, 3, 3, std::vector<int>(9, 1));
}

TEST(Entropyfilt, EmptyNhoodAndEmptyImage) {
    for (double x : run(ipt_test::image<uint8_t>(2, 2, {1, 2, 3, 4}), nullptr)) EXPECT_GE(x, 0.0);
    const ipt::Image none = localstat_test::nhood(3, 3, std::vector<int>(9, 0));
    for (double x : run(ipt_test::image<uint8_t>(2, 2, {1, 2, 3, 4}), &none)) EXPECT_EQ(x, 0.0);
    const auto e = run(ipt_test::context().upload(IPT_DOUBLE, 0, 0, nullptr));
    EXPECT_TRUE(e.empty());
}

TEST(Entropyfilt, RefusedInput) {
    const ipt::Image even = localstat_test::nhood(3, 4, std::vector<int>(12, 1));
    IPT_EXPECT_ERROR(run(ipt_test::image<uint8_t>(2, 2, {1, 2, 3, 4}), &even), IPT_ERR_INVALID_ARGUMENT, "odd");
    IPT_EXPECT_ERROR(run(ipt_test::image<int32_t>(1, 2, {1, 2})), IPT_ERR_INVALID_ARGUMENT, "int32");
    IPT_EXPECT_ERROR(run(ipt_test::image<uint32_t>(1, 2, {1, 2})), IPT_ERR_INVALID_ARGUMENT, "uint32");
}
