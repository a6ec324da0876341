// SPDX-License-Identifier: Apache-2.0
// ipt.medfilt2 against an independent brute force (sort each window; for an
// even m*n MATLAB's imlincomb(0.5, a, 0.5, b), or a | b for logical), hand
// examples for the even-size rounding, every class, odd and even sizes
// (sorting networks, the 3x3 route, histograms), every padding, and bad input.
#include "morph_reference.hpp"

using morph_test::Mat;
using morph_test::Pad;

namespace {

template <class T>
Mat<T> run_medfilt2(const Mat<T>& a, int64_t m, int64_t n, Pad pad = Pad::Zeros) {
    ipt::Call call(ipt_test::context(), "ipt.medfilt2");
    ipt::Image ai = morph_test::upload(a);
    call.image("A", ai).numbers("size", {static_cast<double>(m), static_cast<double>(n)});
    if (pad == Pad::Symmetric) call.option("padopt", "symmetric");
    if (pad == Pad::Ones) call.option("padopt", "indexed");
    call.run();
    return morph_test::download<T>(call.take("B"));
}

// 'indexed' pads with 1 for double and 0 for every other class.
template <class T>
Pad reference_pad(Pad pad) {
    if (pad == Pad::Ones && !std::is_same_v<T, double>) return Pad::Zeros;
    return pad;
}

template <class T>
class Medfilt2Typed : public ::testing::Test {};
using Classes = ::testing::Types<bool, uint8_t, uint16_t, int16_t, int32_t, uint32_t, float, double>;
TYPED_TEST_SUITE(Medfilt2Typed, Classes);

}  // namespace

TYPED_TEST(Medfilt2Typed, MatchesBruteForce) {
    using T = TypeParam;
    std::mt19937 rng(41);
    const std::pair<int64_t, int64_t> windows[] = {{3, 3}, {5, 5}, {7, 7}, {2, 2}, {4, 4}, {2, 3}, {1, 4},
                                                   {4, 1}, {1, 1}, {3, 5}, {6, 6}, {1, 7}};
    const std::pair<int64_t, int64_t> sizes[] = {{1, 1}, {1, 9}, {9, 1}, {33, 29}};
    for (auto [rows, cols] : sizes) {
        const Mat<T> a = morph_test::random_mat<T>(rows, cols, rng, rows == 33 ? 0 : 7);
        for (auto [m, n] : windows)
            for (Pad pad : {Pad::Zeros, Pad::Symmetric, Pad::Ones})
                EXPECT_TRUE(morph_test::same(run_medfilt2(a, m, n, pad),
                                             morph_test::ref_medfilt2(a, m, n, reference_pad<T>(pad))))
                    << m << "x" << n << " pad " << static_cast<int>(pad) << " on " << rows << "x" << cols;
    }
}

TYPED_TEST(Medfilt2Typed, LargeWindows) {
    using T = TypeParam;
    std::mt19937 rng(42);
    const Mat<T> a = morph_test::random_mat<T>(58, 64, rng);
    for (auto [m, n] : {std::pair<int64_t, int64_t>{15, 15}, {9, 9}, {10, 10}, {11, 3}})
        EXPECT_TRUE(morph_test::same(run_medfilt2(a, m, n, Pad::Symmetric),
                                     morph_test::ref_medfilt2(a, m, n, Pad::Symmetric)))
            << m << "x" << n;
}

TEST(Medfilt2, EvenSizeRoundsLikeImlincomb) {
    // MathWorks' example neighbourhood [1 5; 4 8] (uint8): the middle values are
    // 4 and 5. The documentation says the fraction is discarded (4), but
    // medfilt2 computes imlincomb(0.5, b1, 0.5, b2), which rounds 4.5 to 5.
    // A(r:r+1, c:c+1) with zero padding.
    EXPECT_TRUE(morph_test::same(run_medfilt2(Mat<uint8_t>(2, 2, {1, 5, 4, 8}), 2, 2),
                                 Mat<uint8_t>(2, 2, {5, 3, 2, 0})));
    // Ties of both signs, no overflow at the top: (254+255)/2 -> 255; (255+0)/2 -> 128;
    // (-3-2)/2 -> -3; (intmin+intmax)/2 = -0.5 -> -1.
    EXPECT_TRUE(morph_test::same(run_medfilt2(Mat<uint8_t>(1, 2, {254, 255}), 1, 2), Mat<uint8_t>(1, 2, {255, 128})));
    EXPECT_TRUE(morph_test::same(run_medfilt2(Mat<int16_t>(1, 2, {-3, -2}), 1, 2), Mat<int16_t>(1, 2, {-3, -1})));
    EXPECT_TRUE(morph_test::same(run_medfilt2(Mat<int32_t>(1, 2, {-2147483647 - 1, 2147483647}), 1, 2),
                                 Mat<int32_t>(1, 2, {-1, 1073741824})));  // -0.5 -> -1
    EXPECT_TRUE(morph_test::same(run_medfilt2(Mat<double>(1, 2, {1, 2}), 1, 2), Mat<double>(1, 2, {1.5, 1})));
    EXPECT_TRUE(morph_test::same(run_medfilt2(Mat<float>(1, 2, {1, 2}), 1, 2), Mat<float>(1, 2, {1.5f, 1})));
    // logical: b1 | b2.
    EXPECT_TRUE(morph_test::same(run_medfilt2(morph_test::mask(1, 2, {1, 0}), 1, 2), morph_test::mask(1, 2, {1, 0})));
}

TEST(Medfilt2, IndexedPadding) {
    // double: padded with 1, so each corner sees five ones and four zeros.
    EXPECT_TRUE(morph_test::same(run_medfilt2(Mat<double>(3, 3, 0.0), 3, 3, Pad::Ones),
                                 Mat<double>(3, 3, {1, 0, 1, 0, 0, 0, 1, 0, 1})));
    EXPECT_TRUE(morph_test::same(run_medfilt2(Mat<uint8_t>(3, 3, uint8_t{0}), 3, 3, Pad::Ones), Mat<uint8_t>(3, 3, uint8_t{0})));
}

TEST(Medfilt2, Defaults) {
    // medfilt2(A): [3 3] and zero padding.
    std::mt19937 rng(9);
    const Mat<uint8_t> a = morph_test::random_mat<uint8_t>(12, 14, rng);
    ipt::Call call(ipt_test::context(), "ipt.medfilt2");
    ipt::Image ai = morph_test::upload(a);
    call.image("A", ai).run();
    EXPECT_TRUE(morph_test::same(morph_test::download<uint8_t>(call.take("B")),
                                 morph_test::ref_medfilt2(a, 3, 3, Pad::Zeros)));
}

TEST(Medfilt2, NanSortsLast) {
    const Mat<double> a(1, 3, {NAN, 1, 2});
    EXPECT_TRUE(morph_test::same(run_medfilt2(a, 1, 3), Mat<double>(1, 3, {1, 2, 1})));
}

TEST(Medfilt2, LargeUint8Perreault) {
    std::mt19937 rng(10);
    const Mat<uint8_t> a = morph_test::random_mat<uint8_t>(130, 150, rng);
    for (int64_t w : {7, 15, 21})
        EXPECT_TRUE(morph_test::same(run_medfilt2(a, w, w), morph_test::ref_medfilt2(a, w, w, Pad::Zeros))) << w;
}

TEST(Medfilt2, BadInput) {
    const Mat<double> a(2, 2, {1, 2, 3, 4});
    auto run = [&](std::vector<double> size) {
        ipt::Call call(ipt_test::context(), "ipt.medfilt2");
        ipt::Image ai = morph_test::upload(a);
        call.image("A", ai).numbers("size", size).run();
    };
    IPT_EXPECT_ERROR(run({0, 3}), IPT_ERR_INVALID_ARGUMENT, "'size'");
    IPT_EXPECT_ERROR(run({2.5, 3}), IPT_ERR_INVALID_ARGUMENT, "'size'");
    IPT_EXPECT_ERROR(run({3}), IPT_ERR_INVALID_ARGUMENT, "'size'");
}
