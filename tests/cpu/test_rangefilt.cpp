// SPDX-License-Identifier: Apache-2.0
// ipt.rangefilt against a brute force of MATLAB's definition (the largest
// minus the smallest value of each neighbourhood; pixels outside the image
// and NaN never count), for every class with its output class (signed
// integers give the unsigned class of their width), edge shapes, RGB planes,
// MathWorks' example and the even-sized nhood of imdilate minus imerode.
#include <limits>

#include "localstat_reference.hpp"

namespace {

using localstat_test::Elem;

template <class T>
using Out = std::conditional_t<std::is_same_v<T, int16_t>, uint16_t,
                               std::conditional_t<std::is_same_v<T, int32_t>, uint32_t, Elem<T>>>;

template <class T>
std::vector<Out<T>> run(const ipt::Image& in, const ipt::Image* nh = nullptr) {
    ipt::Call call(ipt_test::context(), "ipt.rangefilt");
    call.image("I", in);
    if (nh) call.image("nhood", *nh);
    call.run();
    ipt::Image j = call.take("J");
    using O = std::conditional_t<std::is_same_v<T, bool>, bool, Out<T>>;
    EXPECT_EQ(j.dtype(), ipt::dtype_of<O>());
    EXPECT_EQ(j.rows(), in.rows());
    EXPECT_EQ(j.cols(), in.cols());
    EXPECT_EQ(j.channels(), in.channels());
    std::vector<Out<T>> out(static_cast<size_t>(j.rows() * j.cols() * j.channels()));
    if (!out.empty()) j.download(out.data());
    return out;
}

// Max minus min over the members inside the image (odd nhood: both windows
// centred alike), NaN skipped; in double, saturated to the output class.
template <class T>
Out<T> reference_range(const std::vector<Elem<T>>& plane, int64_t rows, int64_t cols, int64_t r, int64_t c,
                       int64_t nr, int64_t nc, const std::vector<int>& mask) {
    double hi = -std::numeric_limits<double>::infinity(), lo = std::numeric_limits<double>::infinity();
    bool any = false;
    for (int64_t i = 0; i < nr; ++i)
        for (int64_t j = 0; j < nc; ++j) {
            const int64_t rr = r + i - (nr - 1) / 2, cc = c + j - (nc - 1) / 2;
            if (!mask[i * nc + j] || rr < 0 || rr >= rows || cc < 0 || cc >= cols) continue;
            const double x = static_cast<double>(plane[rr * cols + cc]);
            if (std::isnan(x)) continue;
            hi = std::max(hi, x);
            lo = std::min(lo, x);
            any = true;
        }
    if constexpr (std::is_floating_point_v<Out<T>>) {
        return static_cast<Out<T>>(any ? hi - lo : -std::numeric_limits<double>::infinity());
    } else {
        return any ? static_cast<Out<T>>(hi - lo) : Out<T>(0);
    }
}

template <class T>
void check(const std::vector<Elem<T>>& v, int64_t rows, int64_t cols, int64_t channels, int64_t nr, int64_t nc,
           const std::vector<int>& mask, bool pass_nhood = true) {
    const ipt::Image nh = localstat_test::nhood(nr, nc, mask);
    const auto got = run<T>(localstat_test::upload<T>(rows, cols, v, channels), pass_nhood ? &nh : nullptr);
    for (int64_t ch = 0; ch < channels; ++ch) {
        const std::vector<Elem<T>> plane(v.begin() + ch * rows * cols, v.begin() + (ch + 1) * rows * cols);
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < cols; ++c) {
                const Out<T> want = reference_range<T>(plane, rows, cols, r, c, nr, nc, mask);
                const Out<T> g = got[static_cast<size_t>((ch * rows + r) * cols + c)];
                if constexpr (std::is_floating_point_v<Out<T>>)
                    if (std::isinf(want) && std::isinf(g) && (want < 0) == (g < 0)) continue;
                ASSERT_EQ(g, want) << rows << "x" << cols << "x" << channels << " at " << r << "," << c << "," << ch;
            }
    }
}

template <class T>
class RangefiltTyped : public ::testing::Test {};
using Classes = ::testing::Types<bool, uint8_t, uint16_t, int16_t, int32_t, uint32_t, float, double>;
TYPED_TEST_SUITE(RangefiltTyped, Classes);

}  // namespace

TYPED_TEST(RangefiltTyped, MatchesBruteForce) {
    using T = TypeParam;
    std::mt19937 rng(31);
    const std::pair<int64_t, int64_t> sizes[] = {{1, 1}, {1, 9}, {8, 1}, {2, 2}, {13, 17}, {40, 33}};
    for (auto [rows, cols] : sizes) {
        const auto v = localstat_test::random_values<T>(static_cast<size_t>(rows * cols), rng);
        check<T>(v, rows, cols, 1, 3, 3, std::vector<int>(9, 1), false);  // default true(3)
        check<T>(v, rows, cols, 1, 5, 3, {0, 1, 0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 1, 0, 1});
        check<T>(v, rows, cols, 1, 7, 7, std::vector<int>(49, 1));
    }
}

TYPED_TEST(RangefiltTyped, RgbPlanesAlike) {
    using T = TypeParam;
    std::mt19937 rng(32);
    const auto v = localstat_test::random_values<T>(6 * 7 * 3, rng);
    check<T>(v, 6, 7, 3, 3, 3, std::vector<int>(9, 1));
}

TEST(Rangefilt, SignedClassesUseTheUnsignedClass) {
    // int16 range of -32768 and 32767 is 65535, which only uint16 holds.
    const auto j = run<int16_t>(ipt_test::image<int16_t>(1, 2, {-32768, 32767}));
    EXPECT_EQ(j, (std::vector<uint16_t>{65535, 65535}));
    const auto k = run<int32_t>(ipt_test::image<int32_t>(1, 2, {std::numeric_limits<int32_t>::min(), 5}));
    EXPECT_EQ(k, (std::vector<uint32_t>{2147483653u, 2147483653u}));
}

TEST(Rangefilt, NanAndInf) {
    std::vector<double> v = {1, std::nan(""), 4, INFINITY, 2, 3, -INFINITY, 5, 0};
    check<double>(v, 3, 3, 1, 3, 3, std::vector<int>(9, 1));
    check<double>(std::vector<double>(4, std::nan("")), 2, 2, 1, 3, 3, std::vector<int>(9, 1));
}

TEST(Rangefilt, EmptyNhoodAndEmptyImage) {
    check<uint8_t>({1, 2, 3, 4}, 2, 2, 1, 3, 3, std::vector<int>(9, 0));
    check<double>({1, 2, 3, 4}, 2, 2, 1, 3, 3, std::vector<int>(9, 0));
    ipt::Call call(ipt_test::context(), "ipt.rangefilt");
    call.image("I", ipt_test::context().upload(IPT_UINT16, 3, 0, nullptr)).run();
    const ipt::Image j = call.take("J");
    EXPECT_EQ(j.rows(), 3);
    EXPECT_EQ(j.cols(), 0);
}

TEST(Rangefilt, EvenNhoodIsDilateOfReflectionMinusErode) {
    // nhood [1 1] (centre: the first cell). imerode reads {p, p+1};
    // imdilate of the reflection [1 1] reads {p-1, p}. Hand computed on
    // [1 5 2 8]: max = {1 5 5 8}, min = {1 2 2 8}, J = {0 3 3 0}.
    const ipt::Image nh = localstat_test::nhood(1, 2, {1, 1});
    EXPECT_EQ(run<double>(ipt_test::image<double>(1, 4, {1, 5, 2, 8}), &nh), (std::vector<double>{0, 3, 3, 0}));
}

TEST(Rangefilt, MathworksExampleShape) {
    // rangefilt doc: the default is the 3-by-3 neighbourhood. Hand computed on
    // magic(3) = [8 1 6; 3 5 7; 4 9 2]: every 3x3 window inside the image.
    const auto j = run<uint8_t>(ipt_test::image<uint8_t>(3, 3, {8, 1, 6, 3, 5, 7, 4, 9, 2}));
    EXPECT_EQ(j, (std::vector<uint8_t>{7, 7, 6, 8, 8, 8, 6, 7, 7}));
}
