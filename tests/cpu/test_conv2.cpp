// SPDX-License-Identifier: Apache-2.0
// ipt.conv2 against MathWorks' documentation examples, hand-computed values
// and an independent brute-force convolution written from the definition
//   full(p, q) = sum_{i,j} A(i, j) * B(p - i, q - j)
// with MATLAB's 'same' and 'valid' crops, for both variants (direct, fft).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "ipt_test.hpp"

namespace {

// Static selection: the variant that runs is decided by priority and
// declines, not by timings, and no tuning cache is written.
const bool kStatic = [] {
    ipt_set_selection(ipt_test::context().get(), IPT_SELECT_STATIC);
    ipt_set_tuning_cache(ipt_test::context().get(), "");
    return true;
}();

using ipt_test::context;
using ipt_test::image;

struct Mat {
    int64_t rows = 0, cols = 0;
    std::vector<double> v;
    double at(int64_t r, int64_t c) const { return v[static_cast<size_t>(r * cols + c)]; }
};

Mat random_mat(std::mt19937& rng, int64_t rows, int64_t cols, double lo = -1, double hi = 1) {
    std::uniform_real_distribution<double> d(lo, hi);
    Mat m{rows, cols, std::vector<double>(static_cast<size_t>(rows * cols))};
    for (auto& x : m.v) x = d(rng);
    return m;
}

// Brute force from the definition; `absolute` sums |A||B| for the error bound.
Mat full_conv(const Mat& A, const Mat& B, bool absolute = false) {
    Mat C;
    C.rows = std::max({A.rows + B.rows - 1, A.rows, B.rows});
    C.cols = std::max({A.cols + B.cols - 1, A.cols, B.cols});
    C.v.assign(static_cast<size_t>(C.rows * C.cols), 0.0);
    for (int64_t i = 0; i < A.rows; ++i)
        for (int64_t j = 0; j < A.cols; ++j)
            for (int64_t k = 0; k < B.rows; ++k)
                for (int64_t l = 0; l < B.cols; ++l) {
                    const double a = A.at(i, j), b = B.at(k, l);
                    C.v[static_cast<size_t>((i + k) * C.cols + (j + l))] += absolute ? std::abs(a * b) : a * b;
                }
    return C;
}

// MATLAB's crops: 'same' starts at floor(size(B)/2), 'valid' at size(B)-1.
Mat crop(const Mat& full, const Mat& A, const Mat& B, const std::string& shape) {
    if (shape == "full") return full;
    Mat C;
    int64_t r0, c0;
    if (shape == "same") {
        C.rows = A.rows;
        C.cols = A.cols;
        r0 = B.rows / 2;
        c0 = B.cols / 2;
    } else {
        C.rows = std::max<int64_t>(A.rows - std::max<int64_t>(0, B.rows - 1), 0);
        C.cols = std::max<int64_t>(A.cols - std::max<int64_t>(0, B.cols - 1), 0);
        r0 = std::max<int64_t>(B.rows - 1, 0);
        c0 = std::max<int64_t>(B.cols - 1, 0);
    }
    for (int64_t r = 0; r < C.rows; ++r)
        for (int64_t c = 0; c < C.cols; ++c) C.v.push_back(full.at(r + r0, c + c0));
    return C;
}

template <class T>
ipt::Image upload(const Mat& m) {
    std::vector<T> data(m.v.begin(), m.v.end());
    return context().upload(ipt::dtype_of<T>(), m.rows, m.cols, data.data());
}

struct Result {
    ipt_dtype dtype;
    int64_t rows, cols;
    std::vector<double> v;
    std::string variant;
};

Result take(ipt::Call& call) {
    ipt::Image c = call.take("C");
    Result r{c.dtype(), c.rows(), c.cols(), {}, context().last_dispatch().variant};
    if (r.dtype == IPT_SINGLE) {
        for (float x : c.download<float>()) r.v.push_back(x);
    } else {
        r.v = c.download<double>();
    }
    return r;
}

template <class TA, class TB>
Result conv2(const Mat& A, const Mat& B, const std::string& shape, const char* variant = nullptr) {
    ipt::Image a = upload<TA>(A), b = upload<TB>(B);
    ipt::Call call(context(), "ipt.conv2");
    call.image("A", a).image("B", b).text("shape", shape);
    if (variant) call.variant(variant);
    call.run();
    return take(call);
}

template <class T>
Result conv2_sep(const Mat& u, const Mat& v, const Mat& A, const std::string& shape,
                 const char* variant = nullptr) {
    ipt::Image ui = upload<T>(u), vi = upload<T>(v), a = upload<T>(A);
    ipt::Call call(context(), "ipt.conv2");
    call.image("u", ui).image("v", vi).image("A", a).text("shape", shape);
    if (variant) call.variant(variant);
    call.run();
    return take(call);
}

// |C - ref| <= tol * eps(class) * (|A|*|B|)(p), plus a floor for the FFT's
// whole-image bound.
void expect_close(const Result& got, const Mat& ref, const Mat& absref, double tol, double floor = 0,
                  const std::string& what = "") {
    ASSERT_EQ(got.rows, ref.rows) << what;
    ASSERT_EQ(got.cols, ref.cols) << what;
    const double eps = got.dtype == IPT_SINGLE ? std::numeric_limits<float>::epsilon()
                                               : std::numeric_limits<double>::epsilon();
    for (size_t i = 0; i < ref.v.size(); ++i)
        ASSERT_LE(std::abs(got.v[i] - ref.v[i]), tol * eps * absref.v[i] + floor)
            << what << " at " << i / ref.cols << "," << i % ref.cols << " got " << got.v[i] << " want " << ref.v[i];
}

// --- MathWorks' documentation -------------------------------------------

TEST(Conv2, SameWithEvenKernelMatchesMatlab) {
    // conv2([1 2 3 4],[1 1],'same') = [3 5 7 4] (docs/matlab-semantics.md#conv2-same)
    auto c = conv2<double, double>({1, 4, {1, 2, 3, 4}}, {1, 2, {1, 1}}, "same");
    EXPECT_EQ(c.v, (std::vector<double>{3, 5, 7, 4}));
    auto f = conv2<double, double>({1, 4, {1, 2, 3, 4}}, {1, 2, {1, 1}}, "full");
    EXPECT_EQ(f.v, (std::vector<double>{1, 3, 5, 7, 4}));
    auto v = conv2<double, double>({1, 4, {1, 2, 3, 4}}, {1, 2, {1, 1}}, "valid");
    EXPECT_EQ(v.v, (std::vector<double>{3, 5, 7}));
}

TEST(Conv2, DocExampleSameIsCentreOfFull) {
    // A = rand(3); B = rand(4); Csame = conv2(A,B,'same') equals Cfull(3:5,3:5).
    std::mt19937 rng(1);
    Mat A = random_mat(rng, 3, 3, 0, 1), B = random_mat(rng, 4, 4, 0, 1);
    auto full = conv2<double, double>(A, B, "full");
    auto same = conv2<double, double>(A, B, "same");
    ASSERT_EQ(full.rows, 6);
    ASSERT_EQ(full.cols, 6);
    ASSERT_EQ(same.rows, 3);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) EXPECT_EQ(same.v[r * 3 + c], full.v[(r + 2) * 6 + (c + 2)]);
    // 'valid' of a 3x3 image with a 4x4 kernel is 0x0.
    auto valid = conv2<double, double>(A, B, "valid");
    EXPECT_EQ(valid.rows, 0);
    EXPECT_EQ(valid.cols, 0);
}

TEST(Conv2, HandComputedSobelOnStep) {
    // conv2 with s = [1 2 1; 0 0 0; -1 -2 -1] on a 4x4 image whose lower
    // half is 1: 'same' rows 1..2 see the step (-4 in the interior).
    Mat A{4, 4, {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1}};
    Mat S{3, 3, {1, 2, 1, 0, 0, 0, -1, -2, -1}};
    auto c = conv2<double, double>(A, S, "same");
    // C(r,c) = sum A(r+1-k, c+1-l) S(k,l) = (row below) - (row above) smoothed.
    const std::vector<double> want = {0, 0, 0, 0, 3, 4, 4, 3, 3, 4, 4, 3, -3, -4, -4, -3};
    EXPECT_EQ(c.v, want);
}

// --- shapes, classes ---------------------------------------------------------

TEST(Conv2, ValidCanBeEmptyWithColumns) {
    Mat A{2, 21, std::vector<double>(42, 1.0)}, B{3, 1, {1, 2, 3}};
    auto c = conv2<double, double>(A, B, "valid");
    EXPECT_EQ(c.rows, 0);
    EXPECT_EQ(c.cols, 21);
    EXPECT_TRUE(c.v.empty());
}

TEST(Conv2, OutputClassIsSingleOnlyWhenEveryInputIsSingle) {
    Mat A{2, 2, {1, 2, 3, 4}}, B{1, 1, {2}};
    EXPECT_EQ((conv2<float, float>(A, B, "full").dtype), IPT_SINGLE);
    EXPECT_EQ((conv2<float, double>(A, B, "full").dtype), IPT_DOUBLE);
    EXPECT_EQ((conv2<double, float>(A, B, "full").dtype), IPT_DOUBLE);
    EXPECT_EQ((conv2<double, double>(A, B, "full").dtype), IPT_DOUBLE);
    auto c = conv2<float, float>(A, B, "same");
    EXPECT_EQ(c.v, (std::vector<double>{2, 4, 6, 8}));
}

TEST(Conv2, EmptyOperandsFollowMatlabSizes) {
    // size(C) = max([ma+mb-1, ma, mb]) x max([na+nb-1, na, nb]) (conv2 help).
    ipt::Image a = image<double>(3, 3, std::vector<double>(9, 1.0));
    ipt::Image b = context().create(IPT_DOUBLE, 0, 0);
    ipt::Call call(context(), "ipt.conv2");
    call.image("A", a).image("B", b).run();
    Result r = take(call);
    EXPECT_EQ(r.rows, 3);
    EXPECT_EQ(r.cols, 3);
    for (double x : r.v) EXPECT_EQ(x, 0.0);

    ipt::Image e = context().create(IPT_DOUBLE, 0, 5);
    ipt::Image k = image<double>(3, 3, std::vector<double>(9, 1.0));
    ipt::Call call2(context(), "ipt.conv2");
    call2.image("A", e).image("B", k).text("shape", "same").run();
    Result s = take(call2);
    EXPECT_EQ(s.rows, 0);
    EXPECT_EQ(s.cols, 5);
}

// --- brute force over many shapes ---------------------------------------------

struct Case {
    int64_t ma, na, mb, nb;
};
const std::vector<Case> kCases = {
    {1, 1, 1, 1},   {1, 1, 3, 3},   {5, 7, 1, 1},    {1, 17, 1, 4},  {17, 1, 4, 1},  {1, 17, 3, 1},
    {9, 8, 2, 2},   {8, 9, 4, 3},   {10, 10, 5, 5},  {6, 5, 9, 11},  {3, 4, 7, 2},   {33, 70, 3, 3},
    {70, 33, 6, 4}, {129, 67, 7, 9}, {40, 300, 1, 31}, {300, 40, 31, 1}, {64, 64, 16, 16}, {2, 2, 5, 5},
};

template <class T>
void brute_force_all(double tol) {
    std::mt19937 rng(42);
    for (const Case& cs : kCases) {
        Mat A = random_mat(rng, cs.ma, cs.na), B = random_mat(rng, cs.mb, cs.nb);
        // Values of the class, so the reference sees what the call sees.
        for (auto& x : A.v) x = static_cast<T>(x);
        for (auto& x : B.v) x = static_cast<T>(x);
        const Mat full = full_conv(A, B), absfull = full_conv(A, B, true);
        for (std::string shape : {"full", "same", "valid"}) {
            auto got = conv2<T, T>(A, B, shape, "");
            expect_close(got, crop(full, A, B, shape), crop(absfull, A, B, shape), tol, 0,
                         shape + " " + std::to_string(cs.ma) + "x" + std::to_string(cs.na) + " * " +
                             std::to_string(cs.mb) + "x" + std::to_string(cs.nb));
        }
    }
}

TEST(Conv2, DoubleMatchesBruteForce) { brute_force_all<double>(16); }
TEST(Conv2, SingleMatchesBruteForce) { brute_force_all<float>(16); }

TEST(Conv2, RankOneKernelTakesSeparablePathWithinBound) {
    // An exact outer product (integers) runs separably; results stay exact.
    std::mt19937 rng(7);
    Mat A = random_mat(rng, 50, 61);
    Mat B{5, 4, {}};
    const double u[5] = {1, -2, 3, 0, 5}, v[4] = {2, 1, -1, 4};
    for (double a : u)
        for (double b : v) B.v.push_back(a * b);
    const Mat full = full_conv(A, B), absfull = full_conv(A, B, true);
    for (std::string shape : {"full", "same", "valid"})
        expect_close(conv2<double, double>(A, B, shape), crop(full, A, B, shape), crop(absfull, A, B, shape),
                     16, 0, shape);
}

TEST(Conv2, SeparableFormEqualsOuterProduct) {
    // conv2(u,v,A) == conv2(A, u(:)*v(:).'), u and v given as rows or columns.
    std::mt19937 rng(3);
    for (auto [nu, nv] : {std::pair{1, 1}, {3, 5}, {4, 2}, {1, 7}, {6, 1}, {12, 9}}) {
        Mat A = random_mat(rng, 23, 31);
        Mat u = random_mat(rng, 1, nu), v = random_mat(rng, nv, 1);  // row u, column v
        Mat B{nu, nv, {}};
        for (int i = 0; i < nu; ++i)
            for (int j = 0; j < nv; ++j) B.v.push_back(u.v[i] * v.v[j]);
        const Mat full = full_conv(A, B), absfull = full_conv(A, B, true);
        for (std::string shape : {"full", "same", "valid"}) {
            expect_close(conv2_sep<double>(u, v, A, shape), crop(full, A, B, shape), crop(absfull, A, B, shape),
                         16, 0, "double " + shape);
            Mat Af = A, uf = u, vf = v, Bf{nu, nv, {}};
            for (auto& x : Af.v) x = static_cast<float>(x);
            for (auto& x : uf.v) x = static_cast<float>(x);
            for (auto& x : vf.v) x = static_cast<float>(x);
            for (int i = 0; i < nu; ++i)
                for (int j = 0; j < nv; ++j) Bf.v.push_back(uf.v[i] * vf.v[j]);
            auto got = conv2_sep<float>(uf, vf, Af, shape);
            EXPECT_EQ(got.dtype, IPT_SINGLE);
            expect_close(got, crop(full_conv(Af, Bf), Af, Bf, shape), crop(full_conv(Af, Bf, true), Af, Bf, shape),
                         16, 0, "single " + shape);
        }
    }
}

// --- Inf and NaN: MATLAB multiplies only overlapping terms, all of them ------

TEST(Conv2, InfInKernelDoesNotMeetPadding) {
    // conv2([0 1],[1 Inf]) = [0*1, 0*Inf + 1*1, 1*Inf] = [0 NaN Inf]
    auto c = conv2<double, double>({1, 2, {0, 1}}, {1, 2, {1, INFINITY}}, "full");
    ASSERT_EQ(c.v.size(), 3u);
    EXPECT_EQ(c.v[0], 0.0);
    EXPECT_TRUE(std::isnan(c.v[1]));
    EXPECT_EQ(c.v[2], INFINITY);
}

TEST(Conv2, InfInImageMeetsZeroTaps) {
    // conv2([1 Inf 1],[1 0 1]) = [1 Inf NaN Inf 1]
    auto c = conv2<double, double>({1, 3, {1, INFINITY, 1}}, {1, 3, {1, 0, 1}}, "full");
    ASSERT_EQ(c.v.size(), 5u);
    EXPECT_EQ(c.v[0], 1.0);
    EXPECT_EQ(c.v[1], INFINITY);
    EXPECT_TRUE(std::isnan(c.v[2]));
    EXPECT_EQ(c.v[3], INFINITY);
    EXPECT_EQ(c.v[4], 1.0);
    // NaN spreads to every output it overlaps.
    auto n = conv2<float, float>({3, 3, {0, 0, 0, 0, NAN, 0, 0, 0, 0}}, {2, 2, {1, 1, 1, 1}}, "same");
    // 'same' with an even kernel reads A(r:r+1, c:c+1) (docs/matlab-semantics.md#conv2-same).
    for (int i = 0; i < 9; ++i) EXPECT_EQ(std::isnan(n.v[i]), i == 0 || i == 1 || i == 3 || i == 4) << i;
}

// --- the FFT variant --------------------------------------------------------

double frobenius(const Mat& m) {
    double s = 0;
    for (double x : m.v) s += x * x;
    return std::sqrt(s);
}

// The FFT's bound is on the whole image, not per element:
// |C - exact| <= c u log2(S T) ||A||_F ||B||_F (tiles of at most 512 x 512).
double fft_floor(const Mat& A, const Mat& B) {
    return 2 * std::numeric_limits<double>::epsilon() * 18 * frobenius(A) * frobenius(B);
}

TEST(Conv2, FftVariantMatchesBruteForce) {
    std::mt19937 rng(11);
    for (auto [ma, na, mb, nb] :
         std::vector<Case>{{80, 90, 15, 16}, {100, 64, 16, 16}, {110, 100, 31, 25}, {20, 30, 41, 37}}) {
        Mat A = random_mat(rng, ma, na), B = random_mat(rng, mb, nb);
        const Mat full = full_conv(A, B), absfull = full_conv(A, B, true);
        for (std::string shape : {"full", "same", "valid"}) {
            if (shape == "valid" && (ma < mb || na < nb)) continue;  // empty: the fft variant declines
            auto got = conv2<double, double>(A, B, shape, "fft");
            EXPECT_EQ(got.variant, "fft");
            expect_close(got, crop(full, A, B, shape), crop(absfull, A, B, shape), 16, fft_floor(A, B),
                         "fft " + shape);
            Mat Af = A, Bf = B;
            for (auto& x : Af.v) x = static_cast<float>(x);
            for (auto& x : Bf.v) x = static_cast<float>(x);
            auto gs = conv2<float, float>(Af, Bf, shape, "fft");
            EXPECT_EQ(gs.dtype, IPT_SINGLE);
            expect_close(gs, crop(full_conv(Af, Bf), Af, Bf, shape), crop(full_conv(Af, Bf, true), Af, Bf, shape), 16,
                         fft_floor(Af, Bf), "fft single " + shape);
        }
    }
    // Separable form through the FFT (numel(u) + numel(v) above its crossover).
    Mat A = random_mat(rng, 150, 160), u = random_mat(rng, 101, 1), v = random_mat(rng, 1, 103);
    Mat B{101, 103, {}};
    for (int i = 0; i < 101; ++i)
        for (int j = 0; j < 103; ++j) B.v.push_back(u.v[i] * v.v[j]);
    const Mat full = full_conv(A, B), absfull = full_conv(A, B, true);
    for (std::string shape : {"full", "same"}) {
        auto got = conv2_sep<double>(u, v, A, shape, "fft");
        EXPECT_EQ(got.variant, "fft");
        expect_close(got, crop(full, A, B, shape), crop(absfull, A, B, shape), 16, fft_floor(A, B),
                     "fft separable " + shape);
    }
}

TEST(Conv2, FftVariantDeclinesSmallKernelsNonFiniteAndHugeValues) {
    Mat A{70, 70, std::vector<double>(4900, 1.0)}, B{3, 3, std::vector<double>(9, 1.0)};
    IPT_EXPECT_ERROR((conv2<double, double>(A, B, "same", "fft")), IPT_ERR_UNSUPPORTED, "crossover");
    // Without a variant pinned the direct one runs.
    EXPECT_EQ((conv2<double, double>(A, B, "same").variant), "");
    Mat big{15, 15, std::vector<double>(225, 1.0)};
    A.v[100] = NAN;
    IPT_EXPECT_ERROR((conv2<double, double>(A, big, "same", "fft")), IPT_ERR_UNSUPPORTED, "NaN");
    auto c = conv2<double, double>(A, big, "same");  // falls back to the direct variant
    EXPECT_EQ(c.variant, "");
    EXPECT_TRUE(std::isnan(c.v[100]));
    EXPECT_FALSE(std::isnan(c.v[4899]));
    // A finite but huge value: the transform's rounding of 1e300 would reach
    // every output, so the fft variant declines and the direct one runs. By
    // hand: with all-ones, (0,0) of 'same' sums the 8x8 corner of A = 64.
    A.v[100] = 1.0;
    A.v[4899] = 1e300;
    IPT_EXPECT_ERROR((conv2<double, double>(A, big, "same", "fft")), IPT_ERR_UNSUPPORTED, "2^448");
    auto h = conv2<double, double>(A, big, "same");
    EXPECT_EQ(h.variant, "");
    EXPECT_EQ(h.v[0], 64.0);
}

TEST(Conv2, LargeKernelPicksFftAndAgreesWithDirect) {
    std::mt19937 rng(5);
    Mat A = random_mat(rng, 200, 180), B = random_mat(rng, 21, 21);
    auto fft = conv2<double, double>(A, B, "same");
    EXPECT_EQ(fft.variant, "fft");
    auto direct = conv2<double, double>(A, B, "same", "");
    EXPECT_EQ(direct.variant, "");
    for (size_t i = 0; i < fft.v.size(); ++i) ASSERT_NEAR(fft.v[i], direct.v[i], 2 * fft_floor(A, B)) << i;
}

// --- bad input ---------------------------------------------------------------

TEST(Conv2, BadInputIsRejectedWithTheParameterNamed) {
    ipt::Image a = image<double>(2, 2, {1, 2, 3, 4});
    ipt::Image b = image<double>(1, 2, {1, 1});
    ipt::Image ai = image<int32_t>(2, 2, {1, 2, 3, 4});
    {
        ipt::Call call(context(), "ipt.conv2");
        call.image("A", ai).image("B", b);
        IPT_EXPECT_ERROR(call.run(), IPT_ERR_INVALID_ARGUMENT, "'A'");
    }
    {
        ipt::Call call(context(), "ipt.conv2");
        call.image("A", a).image("B", b).image("u", b).image("v", b);
        IPT_EXPECT_ERROR(call.run(), IPT_ERR_INVALID_ARGUMENT, "B");
    }
    {
        ipt::Call call(context(), "ipt.conv2");
        call.image("A", a).image("u", b);
        IPT_EXPECT_ERROR(call.run(), IPT_ERR_INVALID_ARGUMENT, "u,v");
    }
    {
        ipt::Call call(context(), "ipt.conv2");
        ipt::Image m = image<double>(2, 2, {1, 2, 3, 4});
        call.image("A", a).image("u", m).image("v", b);
        IPT_EXPECT_ERROR(call.run(), IPT_ERR_INVALID_ARGUMENT, "'u'");
    }
    {
        ipt::Call call(context(), "ipt.conv2");
        ipt::Image rgb = image<double>(1, 1, {1, 2, 3}, 3);
        call.image("A", rgb).image("B", b);
        IPT_EXPECT_ERROR(call.run(), IPT_ERR_INVALID_ARGUMENT, "'A'");
    }
    {
        ipt::Call call(context(), "ipt.conv2");
        call.image("A", a).image("B", b);
        IPT_EXPECT_ERROR(call.text("shape", "middle").run(), IPT_ERR_INVALID_ARGUMENT, "shape");
    }
    {
        // Nothing is produced by a failed call.
        ipt::Call call(context(), "ipt.conv2");
        call.image("A", ai).image("B", b);
        EXPECT_THROW(call.run(), ipt::Error);
        IPT_EXPECT_ERROR(call.take("C"), IPT_ERR_NOT_FOUND, "C");
    }
}

}  // namespace
