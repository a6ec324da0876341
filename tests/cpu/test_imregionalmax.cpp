// SPDX-License-Identifier: Apache-2.0
// ipt.imregionalmax against MathWorks' documentation example, hand cases for
// plateaus and connectivity, and an independent brute force (label each
// plateau, test its neighbours) for every class.
#include "morph_reference.hpp"

using morph_test::Mask;
using morph_test::Mat;

namespace {

template <class T>
Mask run_regionalmax(const Mat<T>& a, int conn = 8, bool set_conn = true) {
    ipt::Call call(ipt_test::context(), "ipt.imregionalmax");
    ipt::Image ai = morph_test::upload(a);
    call.image("I", ai);
    if (set_conn) call.integer("conn", conn);
    call.run();
    ipt::Image bw = call.take("BW");
    EXPECT_EQ(bw.dtype(), IPT_LOGICAL);
    return morph_test::download<bool>(bw);
}

template <class T>
class RegionalmaxTyped : public ::testing::Test {};
using Classes = ::testing::Types<bool, uint8_t, uint16_t, int16_t, int32_t, uint32_t, float, double>;
TYPED_TEST_SUITE(RegionalmaxTyped, Classes);

}  // namespace

TEST(Imregionalmax, MathworksExample) {
    // A = 10*ones(10,10); A(2:4,2:4) = 22; A(6:8,6:8) = 33;
    // A(2,7) = 44; A(3,8) = 45; A(4,9) = 44; regmax = imregionalmax(A)
    Mat<double> a(10, 10, 10.0);
    for (int r = 1; r <= 3; ++r)
        for (int c = 1; c <= 3; ++c) a(r, c) = 22;
    for (int r = 5; r <= 7; ++r)
        for (int c = 5; c <= 7; ++c) a(r, c) = 33;
    a(1, 6) = 44;
    a(2, 7) = 45;
    a(3, 8) = 44;
    Mask want(10, 10);
    for (int r = 1; r <= 3; ++r)
        for (int c = 1; c <= 3; ++c) want(r, c) = 1;
    for (int r = 5; r <= 7; ++r)
        for (int c = 5; c <= 7; ++c) want(r, c) = 1;
    want(2, 7) = 1;
    EXPECT_TRUE(morph_test::same(run_regionalmax(a, 8, false), want));  // default conn = 8
    EXPECT_TRUE(morph_test::same(run_regionalmax(Mat<uint8_t>(10, 10, std::vector<uint8_t>(a.v.begin(), a.v.end()))),
                                 want));
}

TEST(Imregionalmax, Plateaus) {
    // Constant images are one plateau with nothing higher: all true.
    EXPECT_TRUE(morph_test::same(run_regionalmax(Mat<int16_t>(3, 4, int16_t{-7})), morph_test::ones(3, 4)));
    EXPECT_TRUE(morph_test::same(run_regionalmax(Mat<float>(1, 1, 2.0f)), morph_test::ones(1, 1)));
    // A long plateau of 5 touching a 6 at its far end is not a maximum anywhere.
    EXPECT_TRUE(morph_test::same(run_regionalmax(Mat<uint8_t>(1, 7, {5, 5, 5, 5, 5, 6, 1})),
                                 morph_test::mask(1, 7, {0, 0, 0, 0, 0, 1, 0})));
    EXPECT_TRUE(morph_test::same(run_regionalmax(Mat<uint8_t>(6, 1, {1, 3, 3, 2, 3, 0})),
                                 morph_test::mask(6, 1, {0, 1, 1, 0, 1, 0})));
    // A ring plateau around a higher centre.
    EXPECT_TRUE(morph_test::same(run_regionalmax(Mat<double>(3, 3, {4, 4, 4, 4, 9, 4, 4, 4, 4})),
                                 morph_test::mask(3, 3, {0, 0, 0, 0, 1, 0, 0, 0, 0})));
}

TEST(Imregionalmax, Connectivity) {
    // Diagonal neighbours: a higher diagonal pixel disqualifies under 8 only.
    const Mat<uint8_t> a(2, 2, {1, 0, 0, 2});
    EXPECT_TRUE(morph_test::same(run_regionalmax(a, 8), morph_test::mask(2, 2, {0, 0, 0, 1})));
    EXPECT_TRUE(morph_test::same(run_regionalmax(a, 4), morph_test::mask(2, 2, {1, 0, 0, 1})));
    // Two 2s joined diagonally form one plateau under 8 (touching the 3), two under 4.
    const Mat<uint8_t> b(2, 3, {2, 0, 0, 0, 2, 3});
    EXPECT_TRUE(morph_test::same(run_regionalmax(b, 8), morph_test::mask(2, 3, {0, 0, 0, 0, 0, 1})));
    EXPECT_TRUE(morph_test::same(run_regionalmax(b, 4), morph_test::mask(2, 3, {1, 0, 0, 0, 0, 1})));
}

TEST(Imregionalmax, NanIsNeverAMaximum) {
    const Mat<double> a(2, 2, {NAN, 1, 0, 0});
    EXPECT_TRUE(morph_test::same(run_regionalmax(a), morph_test::mask(2, 2, {0, 1, 0, 0})));
    const Mat<float> all_nan(2, 3, NAN);
    EXPECT_TRUE(morph_test::same(run_regionalmax(all_nan), Mask(2, 3)));
}

TYPED_TEST(RegionalmaxTyped, MatchesBruteForce) {
    using T = TypeParam;
    std::mt19937 rng(51);
    const std::pair<int64_t, int64_t> sizes[] = {{1, 1}, {1, 20}, {20, 1}, {47, 53}, {200, 190}};
    for (auto [rows, cols] : sizes)
        for (int levels : {3, 6, 40}) {
            const Mat<T> a = morph_test::random_mat<T>(rows, cols, rng, levels);
            for (int conn : {4, 8})
                EXPECT_TRUE(morph_test::same(run_regionalmax(a, conn), morph_test::ref_regionalmax(a, conn)))
                    << rows << "x" << cols << " levels " << levels << " conn " << conn;
        }
}

TEST(Imregionalmax, BadInput) {
    IPT_EXPECT_ERROR(run_regionalmax(Mat<double>(2, 2, 1.0), 6), IPT_ERR_INVALID_ARGUMENT, "'conn'");
}
