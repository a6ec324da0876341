// SPDX-License-Identifier: Apache-2.0
// ipt.imdilate against an independent brute force of MATLAB's definition
// (docs/matlab-semantics.md#centre and #dilation-reflects: the SE is reflected, pixels outside
// count as -Inf), for every class, every planning route of the kernels, edge
// shapes, non-flat heights with rounding and saturation, and bad input.
#include "morph_reference.hpp"

using morph_test::Mask;
using morph_test::Mat;

namespace {

template <class T>
class ImdilateTyped : public ::testing::Test {};
using Classes = ::testing::Types<bool, uint8_t, uint16_t, int16_t, int32_t, uint32_t, float, double>;
TYPED_TEST_SUITE(ImdilateTyped, Classes);

}  // namespace

TYPED_TEST(ImdilateTyped, FlatMatchesBruteForce) {
    using T = TypeParam;
    std::mt19937 rng(11);
    const auto nhoods = morph_test::standard_nhoods();
    const std::pair<int64_t, int64_t> sizes[] = {{1, 1}, {1, 17}, {23, 1}, {31, 47}};
    for (auto [rows, cols] : sizes) {
        const Mat<T> a = morph_test::random_mat<T>(rows, cols, rng);
        for (const auto& [name, nh] : nhoods)
            EXPECT_TRUE(morph_test::same(morph_test::run_morph("ipt.imdilate", a, nh),
                                         morph_test::ref_morph(a, nh, true)))
                << name << " on " << rows << "x" << cols;
    }
}

TYPED_TEST(ImdilateTyped, LargeImageAcrossBands) {
    using T = TypeParam;
    std::mt19937 rng(12);
    const Mat<T> a = morph_test::random_mat<T>(610, 290, rng, 50);
    for (const auto& nh : {morph_test::ones(15, 15), morph_test::ones(3, 3),
                           morph_test::strel_nhood("disk", [](ipt::Call& c) { c.integer("r", 7); })})
        EXPECT_TRUE(morph_test::same(morph_test::run_morph("ipt.imdilate", a, nh), morph_test::ref_morph(a, nh, true)));
}

TEST(Imdilate, MathworksBinaryExample) {
    // imdilate doc: BW = zeros(9,10); BW(4:6,4:7) = 1; imdilate(BW, strel('square',3))
    // grows the block by one pixel on every side: BW2(3:7,3:8) = 1.
    Mask bw(9, 10);
    for (int64_t r = 3; r <= 5; ++r)
        for (int64_t c = 3; c <= 6; ++c) bw(r, c) = 1;
    const Mask out = morph_test::run_morph("ipt.imdilate", bw, morph_test::ones(3, 3));
    for (int64_t r = 0; r < 9; ++r)
        for (int64_t c = 0; c < 10; ++c) EXPECT_EQ(out(r, c) != 0, r >= 2 && r <= 6 && c >= 2 && c <= 7) << r << "," << c;
}

TEST(Imdilate, EvenSeReflected) {
    // nhood [1 1]: origin is the first element (offsets {0,+1}); dilation
    // reflects it: B(p) = max(A(p), A(p-1)). Hand computed.
    const Mat<double> a(1, 4, {1, 5, 2, 8});
    const Mat<double> b = morph_test::run_morph("ipt.imdilate", a, morph_test::ones(1, 2));
    EXPECT_TRUE(morph_test::same(b, Mat<double>(1, 4, {1, 5, 5, 8})));
    // nhood [1 0 0] (only the left neighbour): B(p) = A(p+1); outside is -Inf.
    const Mat<double> c = morph_test::run_morph("ipt.imdilate", a, morph_test::mask(1, 3, {1, 0, 0}));
    EXPECT_TRUE(morph_test::same(c, Mat<double>(1, 4, {5, 2, 8, -INFINITY})));
    const Mat<uint8_t> u = morph_test::run_morph("ipt.imdilate", Mat<uint8_t>(1, 4, {1, 5, 2, 8}),
                                                 morph_test::mask(1, 3, {1, 0, 0}));
    EXPECT_TRUE(morph_test::same(u, Mat<uint8_t>(1, 4, {5, 2, 8, 0})));
}

TEST(Imdilate, EmptyNeighbourhoodGivesMinusInfinity) {
    const Mat<double> a(2, 2, {1, 2, 3, 4});
    EXPECT_TRUE(morph_test::same(morph_test::run_morph("ipt.imdilate", a, Mask(3, 3)),
                                 Mat<double>(2, 2, {-INFINITY, -INFINITY, -INFINITY, -INFINITY})));
    const Mat<int16_t> i(1, 2, {5, -5});
    EXPECT_TRUE(morph_test::same(morph_test::run_morph("ipt.imdilate", i, Mask(1, 1)), Mat<int16_t>(1, 2, {-32768, -32768})));
}

TEST(Imdilate, NanIsSkipped) {
    const Mat<double> a(1, 5, {1, NAN, 3, NAN, NAN});
    const Mat<double> b = morph_test::run_morph("ipt.imdilate", a, morph_test::ones(1, 3));
    EXPECT_TRUE(morph_test::same(b, Mat<double>(1, 5, {1, 3, 3, 3, -INFINITY})));
    std::mt19937 rng(5);
    Mat<float> f = morph_test::random_mat<float>(40, 33, rng);
    for (size_t k = 0; k < f.v.size(); k += 7) f.v[k] = NAN;
    for (const auto& nh : {morph_test::ones(5, 5), morph_test::ones(1, 9),
                           morph_test::strel_nhood("disk", [](ipt::Call& c) { c.integer("r", 5); })})
        EXPECT_TRUE(morph_test::same(morph_test::run_morph("ipt.imdilate", f, nh), morph_test::ref_morph(f, nh, true)));
}

TEST(Imdilate, NonFlatRoundsAndSaturates) {
    const Mask nh = morph_test::ones(1, 3);
    const std::vector<double> h{0.5, 10, -0.5};
    // B(p) = max(A(p+1)+0.5, A(p)+10, A(p-1)-0.5) rounded half away, saturated.
    const Mat<uint8_t> a(1, 4, {100, 250, 0, 3});
    const Mat<uint8_t> b = morph_test::run_morph("ipt.imdilate", a, nh, &h);
    EXPECT_TRUE(morph_test::same(b, morph_test::ref_morph(a, nh, true, &h)));
    EXPECT_EQ(b(0, 1), 255);  // 250 + 10 saturates
    EXPECT_EQ(b(0, 3), 13);

    // .5 ties both signs: 2 + 0.5 = 2.5 -> 3; -3 + 0.5 = -2.5 -> -3.
    const std::vector<double> half{0.5};
    EXPECT_TRUE(morph_test::same(morph_test::run_morph("ipt.imdilate", Mat<int16_t>(1, 2, {2, -3}), morph_test::ones(1, 1), &half),
                                 Mat<int16_t>(1, 2, {3, -3})));
    // int16 saturation at the top.
    const std::vector<double> big{1000};
    EXPECT_TRUE(morph_test::same(morph_test::run_morph("ipt.imdilate", Mat<int16_t>(1, 2, {32000, -5}), morph_test::ones(1, 1), &big),
                                 Mat<int16_t>(1, 2, {32767, 995})));

    std::mt19937 rng(3);
    std::vector<double> hr(25);
    for (auto& x : hr) x = std::uniform_real_distribution<double>(-20, 20)(rng);
    const Mask nh5 = morph_test::random_mask(5, 5, rng, 0.6);
    const Mat<double> d = morph_test::random_mat<double>(20, 31, rng);
    EXPECT_TRUE(morph_test::same(morph_test::run_morph("ipt.imdilate", d, nh5, &hr), morph_test::ref_morph(d, nh5, true, &hr)));
    const Mat<uint16_t> u = morph_test::random_mat<uint16_t>(20, 31, rng);
    EXPECT_TRUE(morph_test::same(morph_test::run_morph("ipt.imdilate", u, nh5, &hr), morph_test::ref_morph(u, nh5, true, &hr)));
    const Mat<float> f = morph_test::random_mat<float>(20, 31, rng);
    EXPECT_TRUE(morph_test::same(morph_test::run_morph("ipt.imdilate", f, nh5, &hr), morph_test::ref_morph(f, nh5, true, &hr)));
}

TEST(Imdilate, EmptyImage) {
    const Mat<uint8_t> a(0, 5);
    const Mat<uint8_t> b = morph_test::run_morph("ipt.imdilate", a, morph_test::ones(3, 3));
    EXPECT_EQ(b.rows, 0);
    EXPECT_EQ(b.cols, 5);
}

TEST(Imdilate, BadInput) {
    const Mask bw = morph_test::mask(2, 2, {1, 0, 0, 1});
    const std::vector<double> h{1, 0, 0, 1};
    // A logical image needs a flat SE (MATLAB: images:imdilate:binaryWithNonflatStrel).
    IPT_EXPECT_ERROR(morph_test::run_morph("ipt.imdilate", bw, morph_test::ones(2, 2), &h), IPT_ERR_INVALID_ARGUMENT,
                     "'heights'");
    const std::vector<double> nan_h{1, NAN, 0, 1};
    IPT_EXPECT_ERROR(morph_test::run_morph("ipt.imdilate", Mat<double>(2, 2, {1, 2, 3, 4}), morph_test::ones(2, 2), &nan_h),
                     IPT_ERR_INVALID_ARGUMENT, "'heights'");
    // nhood must be logical.
    ipt::Call call(ipt_test::context(), "ipt.imdilate");
    ipt::Image a = morph_test::upload(Mat<double>(2, 2, {1, 2, 3, 4}));
    ipt::Image nh = morph_test::upload(Mat<double>(1, 1, {1}));
    IPT_EXPECT_ERROR(call.image("A", a).image("nhood", nh).run(), IPT_ERR_INVALID_ARGUMENT, "'nhood'");
}
