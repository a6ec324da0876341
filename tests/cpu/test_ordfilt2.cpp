// SPDX-License-Identifier: Apache-2.0
// ipt.ordfilt2 against an independent brute force (sort each window, NaN
// last), hand-computed examples and MathWorks' documented filters, for every
// class, full and arbitrary domains of odd and even sizes (every kernel
// route: networks, histograms, the fallback), zero and symmetric padding,
// additive offsets S (double output), and bad input.
#include "morph_reference.hpp"

using morph_test::Mask;
using morph_test::Mat;
using morph_test::Pad;

namespace {

template <class T>
ipt::Image run_ordfilt2_image(const Mat<T>& a, int64_t order, const Mask& dom, Pad pad,
                              const std::vector<double>* s = nullptr) {
    ipt::Call call(ipt_test::context(), "ipt.ordfilt2");
    ipt::Image ai = morph_test::upload(a), di = morph_test::upload(dom), si;
    call.image("A", ai).integer("order", order).image("domain", di);
    if (s) {
        si = ipt_test::context().upload(IPT_DOUBLE, dom.rows, dom.cols, s->data());
        call.image("S", si);
    }
    if (pad == Pad::Symmetric) call.option("padopt", "symmetric");
    call.run();
    return call.take("B");
}

template <class T>
Mat<T> run_ordfilt2(const Mat<T>& a, int64_t order, const Mask& dom, Pad pad = Pad::Zeros) {
    return morph_test::download<T>(run_ordfilt2_image(a, order, dom, pad));
}

int64_t nnz(const Mask& m) {
    int64_t n = 0;
    for (auto b : m.v) n += b != 0;
    return n;
}

template <class T>
class Ordfilt2Typed : public ::testing::Test {};
using Classes = ::testing::Types<bool, uint8_t, uint16_t, int16_t, int32_t, uint32_t, float, double>;
TYPED_TEST_SUITE(Ordfilt2Typed, Classes);

}  // namespace

TYPED_TEST(Ordfilt2Typed, MatchesBruteForce) {
    using T = TypeParam;
    std::mt19937 rng(31);
    struct Case {
        std::string name;
        Mask dom;
        std::vector<int64_t> orders;
    };
    std::vector<Case> cases{
        {"3x3", morph_test::ones(3, 3), {1, 5, 9, 3}},
        {"5x5", morph_test::ones(5, 5), {13, 1, 25, 7}},
        {"7x7", morph_test::ones(7, 7), {25, 40}},
        {"2x3 even", morph_test::ones(2, 3), {4, 1}},
        {"4x4 even", morph_test::ones(4, 4), {9, 16}},
        {"1x5", morph_test::ones(1, 5), {2}},
        {"6x1", morph_test::ones(6, 1), {4}},
        {"1x1", morph_test::ones(1, 1), {1}},
        {"cross", morph_test::mask(3, 3, {0, 1, 0, 1, 0, 1, 0, 1, 0}), {1, 4, 2}},
        {"random 5x5", morph_test::random_mask(5, 5, rng), {1, 3}},
        {"random 8x7", morph_test::random_mask(8, 7, rng, 0.6), {1, 12, 30}},
        {"9x9", morph_test::ones(9, 9), {41, 1, 81}},
    };
    const std::pair<int64_t, int64_t> sizes[] = {{1, 1}, {1, 13}, {13, 1}, {37, 41}};
    for (auto [rows, cols] : sizes) {
        const Mat<T> a = morph_test::random_mat<T>(rows, cols, rng, (rows * cols) % 2 ? 0 : 9);
        for (const Case& c : cases)
            for (int64_t order : c.orders) {
                if (order > nnz(c.dom)) continue;
                for (Pad pad : {Pad::Zeros, Pad::Symmetric})
                    EXPECT_TRUE(morph_test::same(run_ordfilt2(a, order, c.dom, pad),
                                                 morph_test::ref_ordfilt2(a, order, c.dom, pad)))
                        << c.name << " order " << order << " pad " << static_cast<int>(pad) << " on " << rows << "x"
                        << cols;
            }
    }
}

TYPED_TEST(Ordfilt2Typed, LargeWindows) {
    using T = TypeParam;
    std::mt19937 rng(32);
    const Mat<T> a = morph_test::random_mat<T>(61, 70, rng);
    const Mat<T> few = morph_test::random_mat<T>(61, 70, rng, 5);
    const Mask big = morph_test::ones(15, 15);
    const Mask odd = morph_test::random_mask(11, 9, rng, 0.7);
    for (const Mat<T>* img : {&a, &few}) {
        for (int64_t order : {int64_t{1}, int64_t{113}, int64_t{200}, int64_t{225}})
            EXPECT_TRUE(morph_test::same(run_ordfilt2(*img, order, big, Pad::Symmetric),
                                         morph_test::ref_ordfilt2(*img, order, big, Pad::Symmetric)))
                << order;
        const int64_t n = nnz(odd);
        for (int64_t order : {int64_t{1}, n / 2, n})
            EXPECT_TRUE(morph_test::same(run_ordfilt2(*img, order, odd, Pad::Zeros),
                                         morph_test::ref_ordfilt2(*img, order, odd, Pad::Zeros)))
                << order;
    }
}

TEST(Ordfilt2, ManyDistinctValuesLargeWindow) {
    // More than 65536 distinct values: no rank relabelling, the general route.
    std::mt19937 rng(33);
    const Mat<double> a = morph_test::random_mat<double>(300, 260, rng);
    const Mask dom = morph_test::random_mask(11, 11, rng, 0.6);
    EXPECT_TRUE(morph_test::same(run_ordfilt2(a, 30, dom, Pad::Symmetric),
                                 morph_test::ref_ordfilt2(a, 30, dom, Pad::Symmetric)));
    const Mat<int32_t> i = morph_test::random_mat<int32_t>(300, 260, rng);
    EXPECT_TRUE(morph_test::same(run_ordfilt2(i, 61, morph_test::ones(11, 11), Pad::Zeros),
                                 morph_test::ref_ordfilt2(i, 61, morph_test::ones(11, 11), Pad::Zeros)));
}

TEST(Ordfilt2, SignedZeroKeepsItsBits) {
    // A window of -0 only returns -0 (large windows relabel values by rank).
    const Mat<double> a(12, 12, -0.0);
    for (const Mask& dom : {morph_test::ones(11, 11), morph_test::ones(3, 3), morph_test::ones(1, 1)}) {
        const Mat<double> b = run_ordfilt2(a, 1, dom, Pad::Symmetric);
        for (double v : b.v) EXPECT_TRUE(v == 0 && std::signbit(v));
    }
}

TEST(Ordfilt2, HandComputed) {
    const Mat<double> a(3, 3, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    const Mask box = morph_test::ones(3, 3);
    // Median (order 5), minimum (1), maximum (9) of 3x3 with zero padding.
    EXPECT_TRUE(morph_test::same(run_ordfilt2(a, 5, box), Mat<double>(3, 3, {0, 2, 0, 2, 5, 3, 0, 5, 0})));
    EXPECT_TRUE(morph_test::same(run_ordfilt2(a, 1, box), Mat<double>(3, 3, {0, 0, 0, 0, 1, 0, 0, 0, 0})));
    EXPECT_TRUE(morph_test::same(run_ordfilt2(a, 9, box), Mat<double>(3, 3, {5, 6, 6, 8, 9, 9, 8, 9, 9})));
    // MathWorks: ordfilt2(A,1,[0 1 0;1 0 1;0 1 0]) is the minimum of the N, E, S, W neighbours.
    const Mask cross = morph_test::mask(3, 3, {0, 1, 0, 1, 0, 1, 0, 1, 0});
    EXPECT_TRUE(morph_test::same(run_ordfilt2(a, 1, cross, Pad::Symmetric),
                                 Mat<double>(3, 3, {1, 1, 2, 1, 2, 3, 4, 5, 6})));
    // Even domain: origin floor((2+1)/2) = 1, so ones(2,2) takes A(r:r+1, c:c+1).
    const Mat<uint8_t> b(2, 2, {1, 2, 3, 4});
    EXPECT_TRUE(morph_test::same(run_ordfilt2(b, 1, morph_test::ones(2, 2)), Mat<uint8_t>(2, 2, {1, 0, 0, 0})));
    EXPECT_TRUE(morph_test::same(run_ordfilt2(b, 4, morph_test::ones(2, 2)), Mat<uint8_t>(2, 2, {4, 4, 4, 4})));
}

TEST(Ordfilt2, NanSortsLast) {
    const Mat<double> a(1, 4, {3, NAN, 1, 2});
    const Mask row = morph_test::ones(1, 3);
    EXPECT_TRUE(morph_test::same(run_ordfilt2(a, 3, row), Mat<double>(1, 4, {NAN, NAN, NAN, 2})));
    EXPECT_TRUE(morph_test::same(run_ordfilt2(a, 1, row), Mat<double>(1, 4, {0, 1, 1, 0})));
    std::mt19937 rng(6);
    Mat<float> f = morph_test::random_mat<float>(19, 23, rng);
    for (size_t i = 0; i < f.v.size(); i += 5) f.v[i] = NAN;
    for (int64_t order : {1, 5, 9})
        EXPECT_TRUE(morph_test::same(run_ordfilt2(f, order, morph_test::ones(3, 3)),
                                     morph_test::ref_ordfilt2(f, order, morph_test::ones(3, 3), Pad::Zeros)));
}

TEST(Ordfilt2, AdditiveOffsetsGiveDouble) {
    std::mt19937 rng(8);
    std::vector<double> s(9);
    for (auto& x : s) x = std::uniform_real_distribution<double>(-3, 3)(rng);
    const Mask box = morph_test::ones(3, 3);
    const Mat<uint8_t> a = morph_test::random_mat<uint8_t>(17, 19, rng);
    for (int64_t order : {1, 5, 9})
        for (Pad pad : {Pad::Zeros, Pad::Symmetric}) {
            ipt::Image b = run_ordfilt2_image(a, order, box, pad, &s);
            EXPECT_EQ(b.dtype(), IPT_DOUBLE);
            EXPECT_TRUE(morph_test::same(morph_test::download<double>(b),
                                         morph_test::ref_ordfilt2_offsets(a, order, box, s, pad)));
        }
    // Zero padding still adds S: a 1x1 zero image, order 1 of [0 s1 s2]-shifted values.
    const Mat<double> z(1, 1, {0});
    const std::vector<double> s3{5, -2, 7};
    EXPECT_TRUE(morph_test::same(morph_test::download<double>(run_ordfilt2_image(z, 1, morph_test::ones(1, 3),
                                                                                Pad::Zeros, &s3)),
                                 Mat<double>(1, 1, {-2})));
    // Arbitrary domain, larger window (fallback), logical and int16 input.
    const Mask dom = morph_test::random_mask(9, 9, rng, 0.8);
    std::vector<double> s81(81);
    for (auto& x : s81) x = std::uniform_real_distribution<double>(-50, 50)(rng);
    const Mat<int16_t> i16 = morph_test::random_mat<int16_t>(14, 15, rng, 100);
    EXPECT_TRUE(morph_test::same(morph_test::download<double>(run_ordfilt2_image(i16, 7, dom, Pad::Symmetric, &s81)),
                                 morph_test::ref_ordfilt2_offsets(i16, 7, dom, s81, Pad::Symmetric)));
    const Mask bw = morph_test::random_mask(14, 15, rng);
    EXPECT_TRUE(morph_test::same(morph_test::download<double>(run_ordfilt2_image(bw, 5, box, Pad::Zeros, &s)),
                                 morph_test::ref_ordfilt2_offsets(bw, 5, box, s, Pad::Zeros)));
}

TEST(Ordfilt2, EmptyImage) {
    const Mat<float> a(0, 3);
    const Mat<float> b = run_ordfilt2(a, 1, morph_test::ones(3, 3));
    EXPECT_EQ(b.rows, 0);
    EXPECT_EQ(b.cols, 3);
}

TEST(Ordfilt2, BadInput) {
    const Mat<double> a(2, 2, {1, 2, 3, 4});
    const Mask cross = morph_test::mask(3, 3, {0, 1, 0, 1, 0, 1, 0, 1, 0});
    IPT_EXPECT_ERROR(run_ordfilt2(a, 0, cross), IPT_ERR_INVALID_ARGUMENT, "'order'");
    IPT_EXPECT_ERROR(run_ordfilt2(a, 5, cross), IPT_ERR_INVALID_ARGUMENT, "'order'");  // nnz = 4
    {
        ipt::Call call(ipt_test::context(), "ipt.ordfilt2");
        ipt::Image ai = morph_test::upload(a);
        ipt::Image di = morph_test::upload(Mat<double>(1, 3, {1, 1, 1}));
        IPT_EXPECT_ERROR(call.image("A", ai).integer("order", 1).image("domain", di).run(), IPT_ERR_INVALID_ARGUMENT,
                         "'domain'");
    }
    {
        ipt::Call call(ipt_test::context(), "ipt.ordfilt2");
        ipt::Image ai = morph_test::upload(a);
        ipt::Image di = morph_test::upload(morph_test::ones(1, 3));
        ipt::Image si = morph_test::upload(Mat<double>(1, 2, {1, 1}));
        IPT_EXPECT_ERROR(call.image("A", ai).integer("order", 1).image("domain", di).image("S", si).run(),
                         IPT_ERR_INVALID_ARGUMENT, "'S'");
    }
    {
        ipt::Call call(ipt_test::context(), "ipt.ordfilt2");
        ipt::Image ai = morph_test::upload(a);
        ipt::Image di = morph_test::upload(morph_test::ones(1, 3));
        ipt::Image si = morph_test::upload(Mat<float>(1, 3, {1, 1, 1}));
        IPT_EXPECT_ERROR(call.image("A", ai).integer("order", 1).image("domain", di).image("S", si).run(),
                         IPT_ERR_INVALID_ARGUMENT, "'S'");
    }
}
