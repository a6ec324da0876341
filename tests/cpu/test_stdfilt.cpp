// SPDX-License-Identifier: Apache-2.0
// ipt.stdfilt against a brute force of MATLAB's definition (the sample
// standard deviation, n-1 normalisation, of each symmetrically padded
// neighbourhood, taken in two passes here), for every class, edge shapes,
// RGB planes, non-finite values and the nhood's rules.
#include "localstat_reference.hpp"

namespace {

using localstat_test::Elem;

std::vector<int> ones(int64_t n) { return std::vector<int>(static_cast<size_t>(n), 1); }

template <class T>
ipt::Image run(const ipt::Image& in, const ipt::Image* nh = nullptr) {
    ipt::Call call(ipt_test::context(), "ipt.stdfilt");
    call.image("I", in);
    if (nh) call.image("nhood", *nh);
    call.run();
    ipt::Image j = call.take("J");
    EXPECT_EQ(j.dtype(), (std::is_same_v<T, float> ? IPT_SINGLE : IPT_DOUBLE));
    EXPECT_EQ(j.rows(), in.rows());
    EXPECT_EQ(j.cols(), in.cols());
    EXPECT_EQ(j.channels(), in.channels());
    return j;
}

// Two-pass sample standard deviation. MATLAB's one-pass formula ends in
// max(., 0), which turns the NaN that any NaN or Inf in the neighbourhood
// produces into 0; one member also gives 0.
double reference_std(const std::vector<double>& w) {
    if (w.size() <= 1) return 0;
    for (double x : w)
        if (!std::isfinite(x)) return 0;
    double mean = 0;
    for (double x : w) mean += x;
    mean /= static_cast<double>(w.size());
    double ss = 0;
    for (double x : w) ss += (x - mean) * (x - mean);
    return std::sqrt(ss / static_cast<double>(w.size() - 1));
}

template <class T>
void check(const std::vector<Elem<T>>& v, int64_t rows, int64_t cols, int64_t channels, int64_t nr, int64_t nc,
           const std::vector<int>& mask, bool pass_nhood = true) {
    const ipt::Image nh = localstat_test::nhood(nr, nc, mask);
    const ipt::Image j = run<T>(localstat_test::upload<T>(rows, cols, v, channels), pass_nhood ? &nh : nullptr);
    std::vector<double> got;
    if constexpr (std::is_same_v<T, float>) {
        for (float x : j.download<float>()) got.push_back(x);
    } else {
        got = j.download<double>();
    }
    const double tol = std::is_same_v<T, float> ? 1e-4 : 1e-9;
    for (int64_t ch = 0; ch < channels; ++ch) {
        std::vector<double> plane(v.begin() + ch * rows * cols, v.begin() + (ch + 1) * rows * cols);
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < cols; ++c) {
                const double want =
                    reference_std(localstat_test::window(plane, rows, cols, r, c, nr, nc, mask));
                const double g = got[static_cast<size_t>((ch * rows + r) * cols + c)];
                ASSERT_NEAR(g, want, tol * std::max(1.0, std::fabs(want)))
                    << rows << "x" << cols << "x" << channels << " at " << r << "," << c << "," << ch;
            }
    }
}

template <class T>
class StdfiltTyped : public ::testing::Test {};
using Classes = ::testing::Types<bool, uint8_t, uint16_t, int16_t, int32_t, uint32_t, float, double>;
TYPED_TEST_SUITE(StdfiltTyped, Classes);

}  // namespace

TYPED_TEST(StdfiltTyped, MatchesBruteForce) {
    using T = TypeParam;
    std::mt19937 rng(21);
    const std::pair<int64_t, int64_t> sizes[] = {{1, 1}, {1, 9}, {8, 1}, {2, 2}, {13, 17}};
    for (auto [rows, cols] : sizes) {
        const auto v = localstat_test::random_values<T>(static_cast<size_t>(rows * cols), rng);
        check<T>(v, rows, cols, 1, 3, 3, ones(9), false);                       // default true(3)
        check<T>(v, rows, cols, 1, 5, 3, {0, 1, 0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 1, 0, 1});  // 5x3 shape
    }
}

TYPED_TEST(StdfiltTyped, RgbPlanesAlike) {
    using T = TypeParam;
    std::mt19937 rng(22);
    const auto v = localstat_test::random_values<T>(6 * 7 * 3, rng);
    check<T>(v, 6, 7, 3, 3, 3, ones(9));
}

// Integer classes: every sum of I and of I.^2 over a window is an integer
// below 2^53, exact in double in any order, so MATLAB's one-pass formula on
// the window's sums gives J to the bit (the backends may sum in integers).
template <class T>
void check_exact(int64_t rows, int64_t cols, int64_t nr, int64_t nc, const std::vector<int>& mask, uint32_t seed) {
    std::mt19937 rng(seed);
    const auto v = localstat_test::random_values<T>(static_cast<size_t>(rows * cols), rng);
    const ipt::Image nh = localstat_test::nhood(nr, nc, mask);
    const std::vector<double> got = run<T>(localstat_test::upload<T>(rows, cols, v, 1), &nh).template download<double>();
    std::vector<double> plane(v.begin(), v.end());
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
            const std::vector<double> w = localstat_test::window(plane, rows, cols, r, c, nr, nc, mask);
            double want = 0;
            if (w.size() > 1) {
                const auto n = static_cast<double>(w.size());
                double s1 = 0, s2 = 0;
                for (double x : w) s1 += x, s2 += x * x;
                const double var = s2 / (n - 1) - s1 * s1 / (n * (n - 1));
                want = std::sqrt(var > 0 ? var : 0.0);
            }
            ASSERT_EQ(got[static_cast<size_t>(r * cols + c)], want) << rows << "x" << cols << " at " << r << "," << c;
        }
}

TEST(Stdfilt, IntegerClassesExactly) {
    std::vector<int> holes(35, 1);
    holes[3] = holes[17] = holes[30] = 0;
    check_exact<uint8_t>(40, 53, 3, 3, ones(9), 31);
    check_exact<uint8_t>(37, 64, 7, 5, holes, 32);
    check_exact<uint8_t>(20, 25, 31, 31, ones(961), 33);  // every window reaches the border
    check_exact<bool>(33, 41, 5, 5, ones(25), 34);
    check_exact<uint16_t>(29, 47, 5, 7, holes, 35);
    check_exact<int16_t>(31, 38, 9, 9, ones(81), 36);
}

TEST(Stdfilt, HandComputed) {
    // [1 2 3] with nhood [1 1 1]: windows (mirrored) {1 1 2}, {1 2 3}, {2 3 3}:
    // std = sqrt(1/3), 1, sqrt(1/3).
    const ipt::Image nh = localstat_test::nhood(1, 3, {1, 1, 1});
    const auto j = run<double>(ipt_test::image<double>(1, 3, {1, 2, 3}), &nh).download<double>();
    EXPECT_NEAR(j[0], std::sqrt(1.0 / 3), 1e-15);
    EXPECT_NEAR(j[1], 1.0, 1e-15);
    EXPECT_NEAR(j[2], std::sqrt(1.0 / 3), 1e-15);
}

TEST(Stdfilt, NonFiniteNeighbourhoodsGiveZero) {
    std::vector<double> v(5 * 6, 1.0);
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i % 4);
    v[7] = std::nan("");
    v[22] = INFINITY;
    check<double>(v, 5, 6, 1, 3, 3, ones(9));
}

TEST(Stdfilt, OneMemberOrNoneGivesZero) {
    const std::vector<double> v = {1, 5, 2, 8, 3, 9};
    check<double>(v, 2, 3, 1, 1, 1, {1});
    check<double>(v, 2, 3, 1, 3, 3, {0, 0, 0, 0, 1, 0, 0, 0, 0});
    check<double>(v, 2, 3, 1, 3, 3, std::vector<int>(9, 0));
}

TEST(Stdfilt, NhoodLargerThanImage) {
    std::mt19937 rng(23);
    const auto v = localstat_test::random_values<double>(2 * 3, rng);
    check<double>(v, 2, 3, 1, 7, 9, ones(63));
}

TEST(Stdfilt, EmptyImage) {
    const ipt::Image j = run<uint8_t>(ipt_test::context().upload(IPT_UINT8, 0, 4, nullptr));
    EXPECT_EQ(j.rows(), 0);
    EXPECT_EQ(j.cols(), 4);
}

TEST(Stdfilt, EvenNhoodRefused) {
    const ipt::Image nh = localstat_test::nhood(2, 3, {1, 1, 1, 1, 1, 1});
    IPT_EXPECT_ERROR(run<double>(ipt_test::image<double>(3, 3, std::vector<double>(9, 1.0)), &nh),
                     IPT_ERR_INVALID_ARGUMENT, "odd");
}
