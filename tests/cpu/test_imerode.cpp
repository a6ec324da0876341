// SPDX-License-Identifier: Apache-2.0
// ipt.imerode against an independent brute force of MATLAB's definition
// (docs/matlab-semantics.md#centre and #dilation-reflects: the SE is not reflected, pixels
// outside count as +Inf), for every class, every planning route of the
// kernels, edge shapes, non-flat heights with rounding and saturation, and
// bad input.
#include "morph_reference.hpp"

using morph_test::Mask;
using morph_test::Mat;

namespace {

template <class T>
class ImerodeTyped : public ::testing::Test {};
using Classes = ::testing::Types<bool, uint8_t, uint16_t, int16_t, int32_t, uint32_t, float, double>;
TYPED_TEST_SUITE(ImerodeTyped, Classes);

}  // namespace

TYPED_TEST(ImerodeTyped, FlatMatchesBruteForce) {
    using T = TypeParam;
    std::mt19937 rng(21);
    const auto nhoods = morph_test::standard_nhoods();
    const std::pair<int64_t, int64_t> sizes[] = {{1, 1}, {1, 19}, {21, 1}, {29, 44}};
    for (auto [rows, cols] : sizes) {
        // Mostly-true logical images so that erosion leaves something.
        Mat<T> a = morph_test::random_mat<T>(rows, cols, rng);
        if constexpr (std::is_same_v<T, bool>)
            for (auto& x : a.v) x = (rng() % 8) != 0;
        for (const auto& [name, nh] : nhoods)
            EXPECT_TRUE(morph_test::same(morph_test::run_morph("ipt.imerode", a, nh),
                                         morph_test::ref_morph(a, nh, false)))
                << name << " on " << rows << "x" << cols;
    }
}

TYPED_TEST(ImerodeTyped, LargeImageAcrossBands) {
    using T = TypeParam;
    std::mt19937 rng(22);
    const Mat<T> a = morph_test::random_mat<T>(577, 301, rng, 50);
    for (const auto& nh : {morph_test::ones(15, 15), morph_test::ones(3, 3), morph_test::ones(1, 31),
                           morph_test::strel_nhood("disk", [](ipt::Call& c) { c.integer("r", 7); })})
        EXPECT_TRUE(morph_test::same(morph_test::run_morph("ipt.imerode", a, nh), morph_test::ref_morph(a, nh, false)));
}

TEST(Imerode, BinaryBlock) {
    // The inverse of imdilate's documentation example: eroding BW(3:7,3:8)
    // (1-based) by strel('square',3) leaves BW(4:6,4:7).
    Mask bw(9, 10);
    for (int64_t r = 2; r <= 6; ++r)
        for (int64_t c = 2; c <= 7; ++c) bw(r, c) = 1;
    const Mask out = morph_test::run_morph("ipt.imerode", bw, morph_test::ones(3, 3));
    for (int64_t r = 0; r < 9; ++r)
        for (int64_t c = 0; c < 10; ++c) EXPECT_EQ(out(r, c) != 0, r >= 3 && r <= 5 && c >= 3 && c <= 6) << r << "," << c;
    // Outside counts as true: an all-true image stays all true.
    const Mask full = morph_test::ones(4, 6);
    EXPECT_TRUE(morph_test::same(morph_test::run_morph("ipt.imerode", full, morph_test::ones(5, 5)), full));
}

TEST(Imerode, EvenSeNotReflected) {
    // nhood [1 1]: offsets {0,+1}: B(p) = min(A(p), A(p+1)). Hand computed.
    const Mat<double> a(1, 4, {1, 5, 2, 8});
    EXPECT_TRUE(morph_test::same(morph_test::run_morph("ipt.imerode", a, morph_test::ones(1, 2)),
                                 Mat<double>(1, 4, {1, 2, 2, 8})));
    // nhood [1 0 0]: offset -1: B(p) = A(p-1); outside is +Inf.
    EXPECT_TRUE(morph_test::same(morph_test::run_morph("ipt.imerode", a, morph_test::mask(1, 3, {1, 0, 0})),
                                 Mat<double>(1, 4, {INFINITY, 1, 5, 2})));
    EXPECT_TRUE(morph_test::same(
        morph_test::run_morph("ipt.imerode", Mat<uint8_t>(1, 4, {1, 5, 2, 8}), morph_test::mask(1, 3, {1, 0, 0})),
        Mat<uint8_t>(1, 4, {255, 1, 5, 2})));
    // 2-D: nhood [1 1; 1 1] takes A(r:r+1, c:c+1).
    const Mat<int32_t> m(3, 3, {9, 8, 7, 6, 5, 4, 3, 2, 1});
    EXPECT_TRUE(morph_test::same(morph_test::run_morph("ipt.imerode", m, morph_test::ones(2, 2)),
                                 Mat<int32_t>(3, 3, {5, 4, 4, 2, 1, 1, 2, 1, 1})));
}

TEST(Imerode, NanIsSkipped) {
    const Mat<double> a(1, 5, {1, NAN, 3, NAN, NAN});
    EXPECT_TRUE(morph_test::same(morph_test::run_morph("ipt.imerode", a, morph_test::ones(1, 3)),
                                 Mat<double>(1, 5, {1, 1, 3, 3, INFINITY})));
}

TEST(Imerode, NonFlatRoundsAndSaturates) {
    // B(p) = min over b of A(p+b) - h(b), rounded half away, saturated.
    const std::vector<double> half{0.5};
    EXPECT_TRUE(morph_test::same(
        morph_test::run_morph("ipt.imerode", Mat<int16_t>(1, 3, {3, -2, -32768}), morph_test::ones(1, 1), &half),
        Mat<int16_t>(1, 3, {3, -3, -32768})));
    const std::vector<double> ten{10};
    EXPECT_TRUE(morph_test::same(
        morph_test::run_morph("ipt.imerode", Mat<uint8_t>(1, 2, {5, 200}), morph_test::ones(1, 1), &ten),
        Mat<uint8_t>(1, 2, {0, 190})));
    std::mt19937 rng(4);
    std::vector<double> hr(21);
    for (auto& x : hr) x = std::uniform_real_distribution<double>(-20, 20)(rng);
    const Mask nh = morph_test::random_mask(3, 7, rng, 0.7);
    const Mat<int32_t> i = morph_test::random_mat<int32_t>(17, 23, rng);
    EXPECT_TRUE(morph_test::same(morph_test::run_morph("ipt.imerode", i, nh, &hr), morph_test::ref_morph(i, nh, false, &hr)));
    const Mat<double> d = morph_test::random_mat<double>(17, 23, rng);
    EXPECT_TRUE(morph_test::same(morph_test::run_morph("ipt.imerode", d, nh, &hr), morph_test::ref_morph(d, nh, false, &hr)));
    // Zero heights are a flat SE, so a logical image is fine.
    const std::vector<double> zeros(9, 0.0);
    const Mask bw = morph_test::random_mask(6, 6, rng, 0.8);
    EXPECT_TRUE(morph_test::same(morph_test::run_morph("ipt.imerode", bw, morph_test::ones(3, 3), &zeros),
                                 morph_test::ref_morph(bw, morph_test::ones(3, 3), false)));
}

TEST(Imerode, BadInput) {
    const std::vector<double> h{1, 0, 0, 1};
    IPT_EXPECT_ERROR(morph_test::run_morph("ipt.imerode", morph_test::ones(3, 3), morph_test::ones(2, 2), &h),
                     IPT_ERR_INVALID_ARGUMENT, "'heights'");
    // heights of another size than nhood.
    ipt::Call call(ipt_test::context(), "ipt.imerode");
    ipt::Image a = morph_test::upload(Mat<double>(2, 2, {1, 2, 3, 4}));
    ipt::Image nh = morph_test::upload(morph_test::ones(2, 2));
    ipt::Image hh = morph_test::upload(Mat<double>(1, 3, {0, 0, 0}));
    IPT_EXPECT_ERROR(call.image("A", a).image("nhood", nh).image("heights", hh).run(), IPT_ERR_INVALID_ARGUMENT,
                     "'heights'");
}
