// ipt.normxcorr2: a hand-computed 1x3 case, zero coefficients where A's
// window is constant, the errors that name 'template' or 'A', every class of
// both inputs (signed data shifted), and an independent transcription of
// normxcorr2.m (full correlation, local sums, the tolerance and the [-1, 1]
// backstop) for random images.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

std::vector<double> normxcorr2(const ipt::Image& t, const ipt::Image& a) {
    ipt::Call call(context(), "ipt.normxcorr2");
    call.image("template", t);
    call.image("A", a);
    call.run();
    ipt::Image c = call.take("C");
    EXPECT_EQ(c.rows(), a.rows() + t.rows() - 1);
    EXPECT_EQ(c.cols(), a.cols() + t.cols() - 1);
    return c.download<double>();
}

// normxcorr2.m on doubles: C = (x - ls*sum(T)/mn) / (sqrt(mn-1)*std(T) *
// sqrt(max(ls2 - ls.^2/mn, 0))) where that is above the tolerance.
std::vector<double> reference(std::vector<double> T, int m, int n, std::vector<double> A, int p, int q) {
    double tmin = *std::min_element(T.begin(), T.end()), amin = *std::min_element(A.begin(), A.end());
    if (tmin < 0) for (double& v : T) v -= tmin;
    if (amin < 0) for (double& v : A) v -= amin;
    const double mn = m * n;
    double sum = 0;
    for (double v : T) sum += v;
    double ss = 0;
    for (double v : T) ss += (v - sum / mn) * (v - sum / mn);
    const double denom_t = std::sqrt(ss);
    const int R = p + m - 1, Cc = q + n - 1;
    std::vector<double> num(R * Cc), den(R * Cc), C(R * Cc, 0.0);
    double mx = 0;
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < Cc; ++c) {
            double x = 0, s1 = 0, s2 = 0;
            for (int i = 0; i < m; ++i)
                for (int j = 0; j < n; ++j) {
                    const int y = r - m + 1 + i, xx = c - n + 1 + j;
                    const double v = (y >= 0 && y < p && xx >= 0 && xx < q) ? A[y * q + xx] : 0.0;
                    x += T[i * n + j] * v;
                    s1 += v;
                    s2 += v * v;
                }
            num[r * Cc + c] = x - s1 * sum / mn;
            den[r * Cc + c] = denom_t * std::sqrt(std::max(s2 - s1 * s1 / mn, 0.0));
            mx = std::max(mx, den[r * Cc + c]);
        }
    const double tol = std::sqrt(std::nextafter(mx, 1e300) - mx);
    for (size_t i = 0; i < C.size(); ++i) {
        if (den[i] > tol) C[i] = num[i] / den[i];
        if (std::abs(C[i]) - 1 > std::sqrt(std::ldexp(1.0, -52))) C[i] = 0;
    }
    return C;
}

// By hand: T = [1 2], A = [1 2 3]; each two-element window is a rising pair
// (C = 1) except the last, (3, 0), which falls (C = -1).
TEST(Normxcorr2, HandComputedRow) {
    const std::vector<double> C = normxcorr2(image<double>(1, 2, {1, 2}), image<double>(1, 3, {1, 2, 3}));
    ASSERT_EQ(C.size(), 4u);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(C[i], 1, 1e-14) << i;
    EXPECT_NEAR(C[3], -1, 1e-14);
    // The same with uint8 inputs, and with int16 ones shifted by their minimum.
    const std::vector<double> C8 = normxcorr2(image<uint8_t>(1, 2, {1, 2}), image<uint8_t>(1, 3, {1, 2, 3}));
    const std::vector<double> C16 =
        normxcorr2(image<int16_t>(1, 2, {-7, -6}), image<int16_t>(1, 3, {-100, -99, -98}));
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(C8[i], C[i], 1e-14);
    // int16 A is shifted to [0 1 2] before the zero padding: the first
    // window, (0, 0), has no variance.
    const double want16[] = {0, 1, 1, -1};
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(C16[i], want16[i], 1e-14);
}

// Windows wholly inside a constant A have no variance: C = 0 there.
TEST(Normxcorr2, ConstantWindowsGiveZero) {
    const std::vector<double> C =
        normxcorr2(image<double>(2, 2, {1, 2, 3, 4}), image<double>(3, 3, std::vector<double>(9, 5.0)));
    ASSERT_EQ(C.size(), 16u);
    for (int r = 1; r <= 2; ++r)
        for (int c = 1; c <= 2; ++c) EXPECT_EQ(C[r * 4 + c], 0) << r << "," << c;
    for (double v : C) EXPECT_LE(std::abs(v), 1.0);
}

TEST(Normxcorr2, ErrorsNameTheArgument) {
    const ipt::Image a = image<double>(3, 3, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    IPT_EXPECT_ERROR(normxcorr2(image<double>(1, 1, {1}), a), IPT_ERR_INVALID_ARGUMENT, "template");
    IPT_EXPECT_ERROR(normxcorr2(image<double>(4, 1, {1, 2, 3, 4}), a), IPT_ERR_INVALID_ARGUMENT, "template");
    IPT_EXPECT_ERROR(normxcorr2(image<double>(1, 4, {1, 2, 3, 4}), a), IPT_ERR_INVALID_ARGUMENT, "template");
    IPT_EXPECT_ERROR(normxcorr2(image<double>(2, 2, {3, 3, 3, 3}), a), IPT_ERR_INVALID_ARGUMENT, "template");
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    IPT_EXPECT_ERROR(normxcorr2(image<double>(1, 2, {1, nan}), a), IPT_ERR_INVALID_ARGUMENT, "template");
    IPT_EXPECT_ERROR(normxcorr2(image<double>(1, 2, {1, 2}), image<double>(1, 3, {1, inf, 2})),
                     IPT_ERR_INVALID_ARGUMENT, "'A'");
    // A template the size of A is accepted.
    EXPECT_EQ(normxcorr2(a, a).size(), 25u);
}

template <class T>
std::vector<T> random_values(std::mt19937& rng, int count) {
    std::vector<T> v(count);
    for (T& x : v) {
        if constexpr (std::is_same_v<T, bool>) x = rng() & 1;
        else if constexpr (std::is_floating_point_v<T>) x = T(std::uniform_real_distribution<double>(-1, 2)(rng));
        else x = T(std::uniform_int_distribution<int64_t>(std::numeric_limits<T>::min(), std::numeric_limits<T>::max())(rng));
    }
    return v;
}

template <class TT, class TA>
void random_case(std::mt19937& rng, int m, int n, int p, int q) {
    std::vector<TT> t = random_values<TT>(rng, m * n);
    if (t[0] == t[1]) t[1] = t[0] == TT(0) ? TT(1) : TT(0);
    const std::vector<TA> a = random_values<TA>(rng, p * q);
    const std::vector<double> got = normxcorr2(image<TT>(m, n, t), image<TA>(p, q, a));
    const std::vector<double> want =
        reference(std::vector<double>(t.begin(), t.end()), m, n, std::vector<double>(a.begin(), a.end()), p, q);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-9) << i;
}

TEST(Normxcorr2, RandomImagesEveryClass) {
    std::mt19937 rng(15);
    const int shapes[][4] = {{3, 3, 9, 11}, {1, 5, 1, 12}, {4, 1, 13, 1}, {2, 3, 7, 5}, {6, 5, 6, 5}};
    for (const auto& s : shapes) {
        random_case<double, double>(rng, s[0], s[1], s[2], s[3]);
        random_case<float, uint8_t>(rng, s[0], s[1], s[2], s[3]);
        random_case<uint8_t, uint16_t>(rng, s[0], s[1], s[2], s[3]);
        random_case<int16_t, int16_t>(rng, s[0], s[1], s[2], s[3]);
        random_case<int32_t, uint32_t>(rng, s[0], s[1], s[2], s[3]);
        random_case<uint16_t, float>(rng, s[0], s[1], s[2], s[3]);
    }
}

TEST(Normxcorr2, LogicalInputs) {
    const std::vector<double> C =
        normxcorr2(ipt_test::logical(1, 2, {0, 1}), ipt_test::logical(1, 3, {0, 1, 1}));
    const std::vector<double> want = reference({0, 1}, 1, 2, {0, 1, 1}, 1, 3);
    for (size_t i = 0; i < C.size(); ++i) EXPECT_NEAR(C[i], want[i], 1e-14);
}

}  // namespace
