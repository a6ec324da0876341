// SPDX-License-Identifier: Apache-2.0
// ipt.normxcorr2: a hand-computed 1x3 case, zero coefficients where A's
// window is constant, the errors that name 'template' or 'A', every class of
// both inputs (signed data shifted), and an independent transcription of
// normxcorr2.m (full correlation, local sums, the tolerance and the [-1, 1]
// backstop) for random images; the FFT way (larger templates) against a
// brute-force transcription on every class, both sides of the switch, flat
// regions and constant images.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
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

// Brute force over each window in long double, two passes (the window's
// mean, then num = sum((t - mean(t)) .* a) and the sum of squared
// deviations), so a window without variance has a denominator of 0 and
// C = 0 there; values already shifted.
std::vector<double> brute_force(const std::vector<double>& T, int m, int n, const std::vector<double>& A, int p,
                                int q) {
    const long double mn = m * n;
    long double sum = 0;
    for (double v : T) sum += v;
    const long double mean = sum / mn;
    long double ss = 0;
    for (double v : T) ss += (v - mean) * (v - mean);
    const long double denom_t = std::sqrt(ss);
    const int R = p + m - 1, Cc = q + n - 1;
    std::vector<long double> num(R * Cc), den(R * Cc);
    std::vector<double> C(R * Cc, 0.0);
    double mx = 0;
    auto at = [&](int y, int x) -> long double { return (y < 0 || y >= p || x < 0 || x >= q) ? 0 : A[y * q + x]; };
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < Cc; ++c) {
            long double x = 0, s1 = 0, s2 = 0;
            for (int i = 0; i < m; ++i)
                for (int j = 0; j < n; ++j) s1 += at(r - m + 1 + i, c - n + 1 + j);
            const long double wmean = s1 / mn;
            for (int i = 0; i < m; ++i)
                for (int j = 0; j < n; ++j) {
                    const long double v = at(r - m + 1 + i, c - n + 1 + j);
                    x += (T[i * n + j] - mean) * v;
                    s2 += (v - wmean) * (v - wmean);
                }
            num[r * Cc + c] = x;
            den[r * Cc + c] = denom_t * std::sqrt(s2);
            mx = std::max(mx, static_cast<double>(den[r * Cc + c]));
        }
    const double tol = std::sqrt(std::nextafter(mx, 1e300) - mx);
    for (size_t i = 0; i < C.size(); ++i) {
        if (den[i] > tol) C[i] = static_cast<double>(num[i] / den[i]);
        if (std::abs(C[i]) - 1 > std::sqrt(std::ldexp(1.0, -52))) C[i] = 0;
    }
    return C;
}

// The kinds of A the FFT cases use.
enum class Fill { Random, FlatBlocks, Constant };

// A's values as doubles (logical: 0 or 1).
template <class T>
std::vector<double> values_for(std::mt19937& rng, int rows, int cols, Fill fill) {
    std::vector<double> v(static_cast<size_t>(rows * cols));
    if constexpr (std::is_same_v<T, bool>) {
        for (double& x : v) x = rng() & 1;
    } else {
        const std::vector<T> r = random_values<T>(rng, rows * cols);
        v.assign(r.begin(), r.end());
    }
    if (fill == Fill::Constant) {
        std::fill(v.begin(), v.end(), v[0]);
    } else if (fill == Fill::FlatBlocks) {
        // The top-left quarter and a band of columns constant: windows there
        // have no variance, next to windows with plenty.
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c)
                if ((r < rows / 2 && c < cols / 2) || (c >= cols * 3 / 4 && c < cols * 3 / 4 + 3)) v[r * cols + c] = v[0];
    }
    return v;
}

template <class T>
ipt::Image upload(int rows, int cols, const std::vector<double>& v) {
    if constexpr (std::is_same_v<T, bool>) return ipt_test::logical(rows, cols, std::vector<int>(v.begin(), v.end()));
    else return image<T>(rows, cols, std::vector<T>(v.begin(), v.end()));
}

template <class T>
std::vector<double> shifted(const std::vector<T>& v, bool is_unsigned) {
    std::vector<double> d(v.begin(), v.end());
    const double lo = *std::min_element(d.begin(), d.end());
    if (!is_unsigned && lo < 0)
        for (double& x : d) x -= lo;
    return d;
}

// Largest |got - want| over the FFT cases, checked per case against the
// schema's bound (2^20 eps(double)).
double fft_worst = 0;

template <class TT, class TA>
void fft_case(std::mt19937& rng, int m, int n, int p, int q, Fill fill) {
    std::vector<TT> t = random_values<TT>(rng, m * n);
    if (t[0] == t[1]) t[1] = t[0] == TT(0) ? TT(1) : TT(0);
    const std::vector<double> a = values_for<TA>(rng, p, q, fill);
    const std::vector<double> got = normxcorr2(image<TT>(m, n, t), upload<TA>(p, q, a));
    const std::vector<double> want =
        brute_force(shifted(t, std::is_unsigned_v<TT>), m, n, shifted(a, std::is_unsigned_v<TA>), p, q);
    ASSERT_EQ(got.size(), want.size());
    double worst = 0;
    size_t at = 0;
    for (size_t i = 0; i < got.size(); ++i)
        if (std::abs(got[i] - want[i]) > worst) worst = std::abs(got[i] - want[i]), at = i;
    EXPECT_LE(worst, std::ldexp(1.0, 20 - 52)) << m << "x" << n << " over " << p << "x" << q << " at " << at
                                               << ": " << got[at] << " vs " << want[at];
    fft_worst = std::max(fft_worst, worst);
    // Windows wholly inside a constant A have no variance (the padding's
    // zeros give the others some).
    if (fill == Fill::Constant) {
        for (int r = m - 1; r < p; ++r)
            for (int c = n - 1; c < q; ++c) EXPECT_EQ(got[r * (q + n - 1) + c], 0.0) << r << "," << c;
    }
}

// Flat regions of floating or 32-bit values are left to the FFT way
// (templates of 64 elements and more here): the direct way's s2 - s1^2/(m*n), with
// rounded squares, leaves rounding noise there, as normxcorr2.m's does, and
// C is then noise over noise.
template <class TT, class TA>
void fft_cases(std::mt19937& rng, int m, int n, int p, int q) {
    for (Fill f : {Fill::Random, Fill::FlatBlocks, Fill::Constant})
        if (f == Fill::Random || (std::is_integral_v<TA> && sizeof(TA) <= 2) || m * n >= 64)
            fft_case<TT, TA>(rng, m, n, p, q, f);
}

// Templates of fewer than 16 elements take the direct way, larger ones the
// FFT way on images of this size (4x4 on 45x38 still direct, 4x5 FFT); odd
// sizes, rows and columns, templates the size of A.
TEST(Normxcorr2, FftWayEveryClassBothSidesOfTheSwitch) {
    std::mt19937 rng(1515);
    const int shapes[][4] = {{3, 3, 40, 37}, {8, 8, 40, 37},  {9, 13, 41, 30}, {17, 11, 23, 64},
                             {1, 60, 1, 300}, {60, 1, 300, 1}, {1, 7, 1, 50}, {24, 24, 24, 24}, {33, 20, 97, 50}};
    for (const auto& s : shapes) {
        fft_cases<double, double>(rng, s[0], s[1], s[2], s[3]);
        fft_cases<float, float>(rng, s[0], s[1], s[2], s[3]);
        fft_cases<uint8_t, uint8_t>(rng, s[0], s[1], s[2], s[3]);
        fft_cases<uint16_t, uint16_t>(rng, s[0], s[1], s[2], s[3]);
        fft_cases<int16_t, int16_t>(rng, s[0], s[1], s[2], s[3]);
        fft_cases<uint32_t, uint32_t>(rng, s[0], s[1], s[2], s[3]);
        fft_cases<int32_t, int32_t>(rng, s[0], s[1], s[2], s[3]);
        fft_cases<double, bool>(rng, s[0], s[1], s[2], s[3]);
        fft_cases<uint8_t, double>(rng, s[0], s[1], s[2], s[3]);
    }
    // Every square template size around the switch.
    for (int k = 2; k <= 14; ++k) {
        fft_cases<uint8_t, uint8_t>(rng, k, k, 45, 38);
        fft_cases<double, double>(rng, k, k, 45, 38);
        fft_cases<int16_t, uint32_t>(rng, k, k + 1, 45, 38);
    }
    std::printf("worst |C - brute force| over the FFT cases: %.3g\n", fft_worst);
}

TEST(Normxcorr2, LogicalInputs) {
    const std::vector<double> C =
        normxcorr2(ipt_test::logical(1, 2, {0, 1}), ipt_test::logical(1, 3, {0, 1, 1}));
    const std::vector<double> want = reference({0, 1}, 1, 2, {0, 1, 1}, 1, 3);
    for (size_t i = 0; i < C.size(); ++i) EXPECT_NEAR(C[i], want[i], 1e-14);
}

}  // namespace
