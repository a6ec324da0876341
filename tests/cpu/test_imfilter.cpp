// SPDX-License-Identifier: Apache-2.0
// ipt.imfilter against MathWorks' documentation examples and an independent
// brute-force filter written from the definition:
//   B(r,c) = sum_{i,j} hh(i,j) * Aext(r + i - o_r, c + j - o_c)
// with hh = h ('corr') or rot90(h,2) ('conv'), o = floor((size(h)+1)/2) - 1
// ('same') or size(h) - 1 ('full'), and Aext the padded image.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "ipt_test.hpp"

namespace {

const bool kStatic = [] {
    ipt_set_selection(ipt_test::context().get(), IPT_SELECT_STATIC);
    ipt_set_tuning_cache(ipt_test::context().get(), "");
    return true;
}();

using ipt_test::context;
using ipt_test::image;

struct Img {
    int64_t rows = 0, cols = 0, channels = 1;
    std::vector<double> v;  // planes one after another
    double at(int64_t r, int64_t c, int64_t ch = 0) const {
        return v[static_cast<size_t>((ch * rows + r) * cols + c)];
    }
};

// MATLAB's conversion to an integer class: round half away, saturate, NaN -> 0.
template <class T>
double to_class_ref(double x) {
    if constexpr (std::is_same_v<T, bool>) {
        return (x != 0 && !std::isnan(x)) ? 1 : 0;
    } else if constexpr (std::is_same_v<T, float>) {
        return static_cast<float>(x);
    } else if constexpr (std::is_same_v<T, double>) {
        return x;
    } else {
        if (std::isnan(x)) return 0;
        const double r = std::round(x);
        return std::clamp(r, static_cast<double>(std::numeric_limits<T>::lowest()),
                          static_cast<double>(std::numeric_limits<T>::max()));
    }
}

int64_t pad_index(const std::string& boundary, int64_t i, int64_t n) {
    if (i >= 0 && i < n) return i;
    if (boundary == "replicate") return i < 0 ? 0 : n - 1;
    if (boundary == "circular") return ((i % n) + n) % n;
    if (boundary == "symmetric") {  // c b a | a b c | c b a
        while (i < 0 || i >= n) i = i < 0 ? -1 - i : 2 * n - 1 - i;
        return i;
    }
    return -1;  // constant
}

struct Ref {
    Img value, bound;  // the exact filter and sum |h||A| (for the error bound)
};

template <class T>
Ref brute_force(const Img& A, const Img& h, const std::string& boundary, double X, const std::string& output,
                const std::string& mode) {
    const int64_t kr = h.rows, kc = h.cols;
    const bool full = output == "full";
    const int64_t orr = full ? kr - 1 : (kr + 1) / 2 - 1, oc = full ? kc - 1 : (kc + 1) / 2 - 1;
    Ref ref;
    for (Img* m : {&ref.value, &ref.bound}) {
        m->rows = full ? A.rows + kr - 1 : A.rows;
        m->cols = full ? A.cols + kc - 1 : A.cols;
        m->channels = A.channels;
    }
    const double pad = to_class_ref<T>(X);
    for (int64_t ch = 0; ch < A.channels; ++ch)
        for (int64_t r = 0; r < ref.value.rows; ++r)
            for (int64_t c = 0; c < ref.value.cols; ++c) {
                double s = 0, b = 0;
                for (int64_t i = 0; i < kr; ++i)
                    for (int64_t j = 0; j < kc; ++j) {
                        const double w = mode == "conv" ? h.at(kr - 1 - i, kc - 1 - j) : h.at(i, j);
                        if (w == 0) continue;  // only the nonzero taps
                        const int64_t ar = pad_index(boundary, r + i - orr, A.rows);
                        const int64_t ac = pad_index(boundary, c + j - oc, A.cols);
                        const double a = (ar < 0 || ac < 0) ? pad : A.at(ar, ac, ch);
                        s += w * a;
                        b += std::abs(w * a);
                    }
                ref.value.v.push_back(s);
                ref.bound.v.push_back(b);
            }
    return ref;
}

template <class T>
ipt::Image upload(const Img& m) {
    if constexpr (std::is_same_v<T, bool>) {
        std::vector<uint8_t> d;
        for (double x : m.v) d.push_back(x != 0);
        return context().upload(IPT_LOGICAL, m.rows, m.cols, d.data(), m.channels);
    } else {
        std::vector<T> d;
        for (double x : m.v) d.push_back(static_cast<T>(x));
        return context().upload(ipt::dtype_of<T>(), m.rows, m.cols, d.data(), m.channels);
    }
}

template <class T>
Img imfilter(const Img& A, const Img& h, const std::string& boundary = "constant", double X = 0,
             const std::string& output = "same", const std::string& mode = "corr", bool h_single = false) {
    ipt::Image a = upload<T>(A);
    ipt::Image hi = h_single ? upload<float>(h) : upload<double>(h);
    ipt::Call call(context(), "ipt.imfilter");
    call.image("A", a).image("h", hi).text("boundary", boundary).number("X", X).text("output", output).text(
        "mode", mode);
    call.run();
    ipt::Image b = call.take("B");
    EXPECT_EQ(b.dtype(), ipt::dtype_of<T>());
    Img out{b.rows(), b.cols(), b.channels(), {}};
    if constexpr (std::is_same_v<T, bool>) {
        std::vector<uint8_t> d(static_cast<size_t>(b.numel()));
        if (!d.empty()) b.download(d.data());
        for (uint8_t x : d) out.v.push_back(x);
    } else {
        for (T x : b.download<T>()) out.v.push_back(static_cast<double>(x));
    }
    return out;
}

// Floating classes: within 16 eps (|A|*|h|)(p). Integer classes and logical:
// exact, except within 1e-9 of a .5 tie, where the last bit of the sum decides.
template <class T>
void expect_matches(const Img& got, const Ref& ref, const std::string& what) {
    ASSERT_EQ(got.rows, ref.value.rows) << what;
    ASSERT_EQ(got.cols, ref.value.cols) << what;
    ASSERT_EQ(got.channels, ref.value.channels) << what;
    for (size_t i = 0; i < ref.value.v.size(); ++i) {
        const double want = ref.value.v[i];
        if constexpr (std::is_floating_point_v<T>) {
            const double eps = std::numeric_limits<T>::epsilon();
            ASSERT_LE(std::abs(got.v[i] - want), 16 * eps * ref.bound.v[i]) << what << " at " << i;
        } else if constexpr (std::is_same_v<T, bool>) {
            if (std::abs(want) > 1e-9) {
                ASSERT_EQ(got.v[i], to_class_ref<T>(want)) << what << " at " << i;
            }
        } else {
            const double frac = want - std::floor(want);
            if (std::abs(frac - 0.5) > 1e-9) {
                ASSERT_EQ(got.v[i], to_class_ref<T>(want)) << what << " at " << i << " value " << want;
            }
        }
    }
}

Img magic5() {
    return {5, 5, 1, {17, 24, 1, 8, 15, 23, 5, 7, 14, 16, 4, 6, 13, 20, 22, 10, 12, 19, 21, 3, 11, 18, 25, 2, 9}};
}

// --- MathWorks' documentation -----------------------------------------------

TEST(Imfilter, DocExampleCorrelationAndConvolution) {
    const Img h{1, 3, 1, {-1, 0, 1}};
    const std::vector<double> corr = {24,  -16, -16, 14,  -8,  5,   -16, 9,   9,   -14, 6,   9,  14,
                                      9,   -20, 12,  9,   9,   -16, -21, 18,  14,  -16, -16, -2};
    EXPECT_EQ(imfilter<double>(magic5(), h).v, corr);
    std::vector<double> conv = corr;
    for (double& x : conv) x = -x;
    EXPECT_EQ(imfilter<double>(magic5(), h, "constant", 0, "same", "conv").v, conv);
}

TEST(Imfilter, DocExampleUint8Saturates) {
    // A = uint8(magic(5)); imfilter(A,h): negative values become 0.
    const std::vector<double> want = {24, 0, 0, 14, 0, 5, 0, 9, 9, 0, 6, 9, 14, 9, 0, 12, 9, 9, 0, 0, 18, 14, 0, 0, 0};
    EXPECT_EQ(imfilter<uint8_t>(magic5(), {1, 3, 1, {-1, 0, 1}}).v, want);
}

// --- every class, boundary, output and mode against the brute force ----------

template <class T>
void all_options(double lo, double hi, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> val(lo, hi), w(-1, 1);
    auto image_of = [&](int64_t r, int64_t c, int64_t ch) {
        Img m{r, c, ch, {}};
        for (int64_t i = 0; i < r * c * ch; ++i) {
            const double x = val(rng);
            m.v.push_back(to_class_ref<T>(x));
        }
        return m;
    };
    auto kernel_of = [&](int64_t r, int64_t c) {
        Img k{r, c, 1, {}};
        for (int64_t i = 0; i < r * c; ++i) k.v.push_back(w(rng));
        return k;
    };
    struct Shape {
        int64_t ar, ac, ch, hr, hc;
    };
    const std::vector<Shape> shapes = {{7, 9, 1, 3, 3}, {6, 5, 1, 2, 4}, {1, 12, 1, 1, 5}, {12, 1, 1, 5, 1},
                                       {5, 6, 3, 1, 1}, {4, 5, 1, 9, 11}, {1, 1, 1, 3, 2}, {8, 7, 3, 4, 4}};
    for (const Shape& s : shapes) {
        const Img A = image_of(s.ar, s.ac, s.ch), h = kernel_of(s.hr, s.hc);
        for (std::string boundary : {"constant", "symmetric", "replicate", "circular"})
            for (std::string output : {"same", "full"})
                for (std::string mode : {"corr", "conv"}) {
                    const double X = boundary == "constant" ? val(rng) : 0;
                    const std::string what = boundary + " " + output + " " + mode + " " + std::to_string(s.ar) + "x" +
                                             std::to_string(s.ac) + "x" + std::to_string(s.ch) + " h " +
                                             std::to_string(s.hr) + "x" + std::to_string(s.hc);
                    expect_matches<T>(imfilter<T>(A, h, boundary, X, output, mode),
                                      brute_force<T>(A, h, boundary, X, output, mode), what);
                }
    }
}

TEST(Imfilter, DoubleAllOptions) { all_options<double>(-10, 10, 1); }
TEST(Imfilter, SingleAllOptions) { all_options<float>(-10, 10, 2); }
TEST(Imfilter, Uint8AllOptions) { all_options<uint8_t>(0, 255, 3); }
TEST(Imfilter, Uint16AllOptions) { all_options<uint16_t>(0, 65535, 4); }
TEST(Imfilter, Int16AllOptions) { all_options<int16_t>(-32768, 32767, 5); }
TEST(Imfilter, Int32AllOptions) { all_options<int32_t>(-3e9, 3e9, 6); }
TEST(Imfilter, Uint32AllOptions) { all_options<uint32_t>(0, 5e9, 7); }
TEST(Imfilter, LogicalAllOptions) { all_options<bool>(-0.2, 1.2, 8); }

TEST(Imfilter, LargeImageAcrossBandsAndThreads) {
    std::mt19937 rng(9);
    std::uniform_real_distribution<double> d(0, 1);
    Img A{301, 283, 1, {}}, h{7, 5, 1, {}};
    for (int i = 0; i < 301 * 283; ++i) A.v.push_back(d(rng));
    for (int i = 0; i < 35; ++i) h.v.push_back(d(rng) - 0.5);
    for (std::string boundary : {"constant", "symmetric", "replicate", "circular"})
        expect_matches<double>(imfilter<double>(A, h, boundary), brute_force<double>(A, h, boundary, 0, "same", "corr"),
                               boundary);
}

// --- rounding, saturation, ties -----------------------------------------------

TEST(Imfilter, IntegerTiesRoundHalfAwayFromZero) {
    const Img h{1, 2, 1, {0.5, 0.5}};  // B(c) = (A(c) + A(c+1)) / 2, exact in double
    EXPECT_EQ(imfilter<uint8_t>({1, 4, 1, {1, 2, 5, 6}}, h).v, (std::vector<double>{2, 4, 6, 3}));
    EXPECT_EQ(imfilter<int16_t>({1, 4, 1, {-1, -2, -5, 6}}, h).v, (std::vector<double>{-2, -4, 1, 3}));
    EXPECT_EQ(imfilter<int32_t>({1, 3, 1, {-3, 0, 7}}, h).v, (std::vector<double>{-2, 4, 4}));
}

TEST(Imfilter, ManyTiesOnALargeImageMatchTheDoubleSum) {
    // ones(2)/4 on integers: every output is a multiple of 1/4, a quarter of
    // them exact .5 ties (single precision cannot decide those; double can).
    std::mt19937 rng(21);
    std::uniform_int_distribution<int> d(0, 255);
    Img A{203, 301, 1, {}};
    for (int i = 0; i < 203 * 301; ++i) A.v.push_back(d(rng));
    const Img h{2, 2, 1, {0.25, 0.25, 0.25, 0.25}};
    for (std::string b : {"constant", "replicate"}) {
        const Img got = imfilter<uint8_t>(A, h, b, 0, "full");
        const Ref ref = brute_force<uint8_t>(A, h, b, 0, "full", "corr");
        ASSERT_EQ(got.v.size(), ref.value.v.size());
        for (size_t i = 0; i < got.v.size(); ++i) ASSERT_EQ(got.v[i], to_class_ref<uint8_t>(ref.value.v[i])) << i;
    }
    // int16 around zero: -0.5 rounds to -1, 0.5 to 1.
    Img B{50, 60, 1, {}};
    std::uniform_int_distribution<int> s(-3, 3);
    for (int i = 0; i < 3000; ++i) B.v.push_back(s(rng));
    const Img gb = imfilter<int16_t>(B, h, "symmetric");
    const Ref rb = brute_force<int16_t>(B, h, "symmetric", 0, "same", "corr");
    for (size_t i = 0; i < gb.v.size(); ++i) ASSERT_EQ(gb.v[i], to_class_ref<int16_t>(rb.value.v[i])) << i;
}

TEST(Imfilter, LogicalDecidedByTheDoubleSum) {
    // 0.1 + 0.2 - 0.3 is 5.55e-17 in double: nonzero, so true.
    const Img B = imfilter<bool>({1, 3, 1, {1, 1, 1}}, {1, 3, 1, {0.1, 0.2, -0.3}});
    EXPECT_EQ(B.v[1], 1);
    const Img C = imfilter<bool>({1, 3, 1, {1, 1, 1}}, {1, 3, 1, {0.5, 0.25, -0.75}});
    EXPECT_EQ(C.v[1], 0);
}

TEST(Imfilter, IntegerSaturationAndNaN) {
    EXPECT_EQ(imfilter<uint8_t>({1, 3, 1, {100, 200, 255}}, {1, 1, 1, {2}}).v, (std::vector<double>{200, 255, 255}));
    EXPECT_EQ(imfilter<int16_t>({1, 2, 1, {-30000, 30000}}, {1, 1, 1, {2}}).v, (std::vector<double>{-32768, 32767}));
    EXPECT_EQ(imfilter<uint16_t>({1, 2, 1, {1, 2}}, {1, 1, 1, {-1}}).v, (std::vector<double>{0, 0}));
    // A NaN in h makes every output NaN, which is 0 in an integer class.
    EXPECT_EQ(imfilter<uint8_t>({1, 3, 1, {1, 2, 3}}, {1, 1, 1, {NAN}}).v, (std::vector<double>{0, 0, 0}));
}

TEST(Imfilter, PadValueIsConvertedToTheClassFirst) {
    // h = [1 0 0] (corr, centre 2): B(c) = A(c-1), so B(1) is the pad value.
    const Img h{1, 3, 1, {1, 0, 0}};
    EXPECT_EQ(imfilter<uint8_t>({1, 2, 1, {7, 8}}, h, "constant", 300).v[0], 255);
    EXPECT_EQ(imfilter<uint8_t>({1, 2, 1, {7, 8}}, h, "constant", 2.5).v[0], 3);
    EXPECT_EQ(imfilter<uint8_t>({1, 2, 1, {7, 8}}, h, "constant", -1).v[0], 0);
    EXPECT_EQ(imfilter<int16_t>({1, 2, 1, {7, 8}}, h, "constant", -2.5).v[0], -3);
    EXPECT_EQ(imfilter<double>({1, 2, 1, {7, 8}}, h, "constant", 2.5).v[0], 2.5);
    EXPECT_EQ(imfilter<bool>({1, 2, 1, {0, 0}}, h, "constant", 0.2).v[0], 1);
}

TEST(Imfilter, LogicalResultIsNonzero) {
    // 0.3 is true (logical() of a nonzero value); 1 - 1 is false.
    EXPECT_EQ(imfilter<bool>({1, 4, 1, {1, 0, 0, 1}}, {1, 2, 1, {0.3, 0.3}}).v, (std::vector<double>{1, 0, 1, 1}));
    EXPECT_EQ(imfilter<bool>({1, 3, 1, {1, 1, 0}}, {1, 2, 1, {1, -1}}).v, (std::vector<double>{0, 1, 0}));
}

// --- even kernels, origin, RGB, separable, non-finite ------------------------------

TEST(Imfilter, EvenKernelOriginIsUpperLeftOfCentre) {
    // 2x2 ones, corr: B(r,c) = sum A(r:r+1, c:c+1) (docs/matlab-semantics.md#centre); conv of the same
    // kernel equals conv2(A,h,'same').
    const Img A{3, 3, 1, {1, 2, 3, 4, 5, 6, 7, 8, 9}};
    const Img h{2, 2, 1, {1, 1, 1, 1}};
    EXPECT_EQ(imfilter<double>(A, h).v, (std::vector<double>{12, 16, 9, 24, 28, 15, 15, 17, 9}));
    const Img h2{1, 2, 1, {1, 2}};  // conv: B(c) = A(c)*2 + A(c+1)*1 ... conv2([1 2 3 4],[1 2],'same')
    EXPECT_EQ(imfilter<double>({1, 4, 1, {1, 2, 3, 4}}, h2, "constant", 0, "same", "conv").v,
              (std::vector<double>{4, 7, 10, 8}));
}

TEST(Imfilter, RgbChannelsAreFilteredIndependently) {
    std::mt19937 rng(12);
    std::uniform_int_distribution<int> d(0, 255);
    Img A{6, 7, 3, {}};
    for (int i = 0; i < 6 * 7 * 3; ++i) A.v.push_back(d(rng));
    const Img h{3, 3, 1, {0.1, 0.2, 0.1, 0.0, 0.3, 0.0, -0.1, 0.2, 0.2}};
    const Img B = imfilter<uint8_t>(A, h, "replicate");
    for (int ch = 0; ch < 3; ++ch) {
        Img plane{6, 7, 1, {A.v.begin() + ch * 42, A.v.begin() + (ch + 1) * 42}};
        const Img one = imfilter<uint8_t>(plane, h, "replicate");
        EXPECT_TRUE(std::equal(one.v.begin(), one.v.end(), B.v.begin() + ch * 42)) << ch;
    }
}

TEST(Imfilter, RankOneKernelsStayWithinTheBound) {
    std::mt19937 rng(13);
    std::uniform_real_distribution<double> d(0, 1);
    Img A{40, 37, 1, {}};
    for (int i = 0; i < 40 * 37; ++i) A.v.push_back(d(rng));
    // A Gaussian is rank 1 only to rounding (exp(a+b) vs exp(a)exp(b)).
    Img g{7, 7, 1, {}};
    double s = 0;
    for (int i = -3; i <= 3; ++i)
        for (int j = -3; j <= 3; ++j) g.v.push_back(std::exp(-(i * i + j * j) / 4.5)), s += g.v.back();
    for (double& x : g.v) x /= s;
    for (std::string b : {"constant", "symmetric"}) {
        expect_matches<double>(imfilter<double>(A, g, b), brute_force<double>(A, g, b, 0, "same", "corr"), b);
        expect_matches<float>(imfilter<float>(A, g, b), brute_force<float>(A, g, b, 0, "same", "corr"), b);
    }
    // An exact outer product on uint8: [1;2;1]*[1 0 -1] / 4, 4x5 with zeros.
    Img A8{40, 37, 1, {}};
    for (double x : A.v) A8.v.push_back(std::round(x * 255));
    Img k{3, 5, 1, {}};
    for (double u : {1.0, 2.0, 1.0})
        for (double v : {1.0, 0.0, -1.0, 0.5, 2.0}) k.v.push_back(u * v / 4);
    expect_matches<uint8_t>(imfilter<uint8_t>(A8, k, "replicate", 0, "full"),
                            brute_force<uint8_t>(A8, k, "replicate", 0, "full", "corr"), "uint8 separable");
}

TEST(Imfilter, InfOnlyReachesNonzeroTaps) {
    // h = [0 1 0] shifts nothing: an Inf stays where it is, no NaN around it.
    const Img A{1, 5, 1, {1, 2, INFINITY, 4, 5}};
    const Img B = imfilter<double>(A, {1, 3, 1, {0, 1, 0}});
    EXPECT_EQ(B.v, A.v);
    const Img C = imfilter<double>(A, {3, 3, 1, {0, 0, 0, 1, 0, 1, 0, 0, 0}});
    EXPECT_EQ(C.v, (std::vector<double>{2, 1 + INFINITY, 6, INFINITY, 4}));
}

TEST(Imfilter, SingleKernelClassIsAccepted) {
    const Img A{2, 3, 1, {1, 2, 3, 4, 5, 6}};
    const Img h{1, 2, 1, {0.5, 0.25}};
    EXPECT_EQ((imfilter<double>(A, h, "constant", 0, "same", "corr", true).v),
              (std::vector<double>{1, 1.75, 1.5, 3.25, 4, 3}));
}

TEST(Imfilter, EmptyImage) {
    const Img empty{0, 5, 1, {}};
    const Img h{3, 3, 1, std::vector<double>(9, 1.0)};
    const Img same = imfilter<double>(empty, h);
    EXPECT_EQ(same.rows, 0);
    EXPECT_EQ(same.cols, 5);
    const Img full = imfilter<uint8_t>(empty, h, "replicate", 0, "full");
    EXPECT_EQ(full.rows, 2);
    EXPECT_EQ(full.cols, 7);
    for (double x : full.v) EXPECT_EQ(x, 0);
}

// --- bad input -----------------------------------------------------------------

TEST(Imfilter, BadInputIsRejectedWithTheParameterNamed) {
    ipt::Image a = image<double>(2, 2, {1, 2, 3, 4});
    ipt::Image h = image<double>(1, 2, {1, 1});
    auto expect = [&](auto&& setup, const char* needle) {
        ipt::Call call(context(), "ipt.imfilter");
        try {
            setup(call);
            call.run();
            ADD_FAILURE() << "expected an error naming " << needle;
        } catch (const ipt::Error& e) {
            EXPECT_EQ(e.status(), IPT_ERR_INVALID_ARGUMENT) << e.what();
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
        }
        IPT_EXPECT_ERROR(call.take("B"), IPT_ERR_NOT_FOUND, "B");
    };
    ipt::Image empty = context().create(IPT_DOUBLE, 0, 3);
    ipt::Image hint = image<int16_t>(1, 2, {1, 1});
    ipt::Image two = image<double>(1, 1, {1, 2}, 2);
    expect([&](ipt::Call& c) { c.image("A", a).image("h", empty); }, "'h'");
    expect([&](ipt::Call& c) { c.image("A", a).image("h", hint); }, "'h'");
    expect([&](ipt::Call& c) { c.image("A", two).image("h", h); }, "'A'");
    expect([&](ipt::Call& c) { c.image("h", h); }, "'A'");
    expect([&](ipt::Call& c) { c.image("A", a).image("h", h).text("boundary", "mirror"); }, "boundary");
    expect([&](ipt::Call& c) { c.image("A", a).image("h", h).text("output", "valid"); }, "output");
}

}  // namespace
