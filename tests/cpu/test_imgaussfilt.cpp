// SPDX-License-Identifier: Apache-2.0
// ipt.imgaussfilt against hand computation and a brute-force version of
// MATLAB's two spatial routes written here: imfilter with the 2-D kernel
// (small filters) and conv2(hcol, hrow) of the padded image in single or
// double (large ones).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

struct Options {
    std::vector<double> sigma{0.5};
    std::vector<double> size;  // empty: default
    std::string padding = "replicate";
    double X = 0;
};

template <class T>
std::vector<T> gauss(const ipt::Image& a, const Options& o) {
    ipt::Call call(context(), "ipt.imgaussfilt");
    call.image("A", a).numbers("sigma", o.sigma).text("Padding", o.padding);
    if (!o.size.empty()) call.numbers("FilterSize", o.size);
    if (o.padding == "constant") call.number("X", o.X);
    call.run();
    ipt::Image b = call.take("B");
    EXPECT_EQ(b.dtype(), a.dtype());
    EXPECT_EQ(b.rows(), a.rows());
    EXPECT_EQ(b.cols(), a.cols());
    EXPECT_EQ(b.channels(), a.channels());
    return b.download<T>();
}

// MATLAB's taps written out: exp(-x^2/(2 s^2)), < eps*max dropped, normalised.
std::vector<double> taps(double s, int n) {
    std::vector<double> h(n);
    for (int i = 0; i < n; ++i) h[i] = std::exp(-((i - n / 2) * (i - n / 2)) / (2 * s * s));
    const double mx = *std::max_element(h.begin(), h.end());
    double sum = 0;
    for (double& v : h) sum += (v = v < 2.220446049250313e-16 * mx ? 0 : v);
    for (double& v : h) v /= sum;
    return h;
}

// Index of a padded position (-1: the constant).
int64_t pad_index(const std::string& padding, int64_t i, int64_t n) {
    if (i >= 0 && i < n) return i;
    if (padding == "replicate") return i < 0 ? 0 : n - 1;
    if (padding == "circular") return ((i % n) + n) % n;
    if (padding == "symmetric") {
        const int64_t period = 2 * n;
        int64_t k = ((i % period) + period) % period;
        return k < n ? k : period - 1 - k;
    }
    return -1;
}

double round_half_away(double v) { return v < 0 ? -std::floor(-v + 0.5) : std::floor(v + 0.5); }

template <class T>
double to_class(double v) {
    if constexpr (std::is_floating_point_v<T>) return static_cast<T>(v);
    if (std::isnan(v)) return 0;
    return std::clamp(round_half_away(v), double(std::numeric_limits<T>::lowest()),
                      double(std::numeric_limits<T>::max()));
}

// Direct route: the 2-D kernel, a double sum, one rounding.
template <class T>
std::vector<double> direct(const std::vector<T>& a, int64_t m, int64_t n, double sr, double sc, int kr, int kc,
                           const Options& o) {
    std::vector<double> h(kr * kc);
    double mx = 0, sum = 0;
    for (int i = 0; i < kr; ++i)
        for (int j = 0; j < kc; ++j) {
            const double y = i - kr / 2, x = j - kc / 2;
            h[i * kc + j] = std::exp(-(x * x / (sc * sc) + y * y / (sr * sr)) / 2);
            mx = std::max(mx, h[i * kc + j]);
        }
    for (double& v : h) sum += (v = v < 2.220446049250313e-16 * mx ? 0 : v);
    for (double& v : h) v /= sum;
    const double pad = to_class<T>(o.X);
    std::vector<double> b(m * n);
    for (int64_t r = 0; r < m; ++r)
        for (int64_t c = 0; c < n; ++c) {
            double s = 0;
            for (int i = 0; i < kr; ++i)
                for (int j = 0; j < kc; ++j) {
                    if (h[i * kc + j] == 0) continue;
                    const int64_t rr = pad_index(o.padding, r + i - kr / 2, m);
                    const int64_t cc = pad_index(o.padding, c + j - kc / 2, n);
                    s += h[i * kc + j] * ((rr < 0 || cc < 0) ? pad : double(a[rr * n + cc]));
                }
            b[r * n + c] = s;
        }
    return b;
}

// Separable route: pad in the working class W, columns then rows, taps in order.
template <class W, class T>
std::vector<double> separable(const std::vector<T>& a, int64_t m, int64_t n, double sr, double sc, int kr, int kc,
                              const Options& o) {
    const std::vector<double> hc = taps(sr, kr), hr = taps(sc, kc);
    const int64_t pr = m + kr - 1, pc = n + kc - 1;
    std::vector<W> padded(pr * pc), mid(m * pc);
    for (int64_t r = 0; r < pr; ++r)
        for (int64_t c = 0; c < pc; ++c) {
            const int64_t rr = pad_index(o.padding, r - kr / 2, m), cc = pad_index(o.padding, c - kc / 2, n);
            padded[r * pc + c] = (rr < 0 || cc < 0) ? static_cast<W>(o.X) : static_cast<W>(a[rr * n + cc]);
        }
    for (int64_t r = 0; r < m; ++r)
        for (int64_t c = 0; c < pc; ++c) {
            W s = 0;
            for (int i = 0; i < kr; ++i)
                if (hc[i] != 0) s = s + static_cast<W>(hc[i]) * padded[(r + i) * pc + c];
            mid[r * pc + c] = s;
        }
    std::vector<double> b(m * n);
    for (int64_t r = 0; r < m; ++r)
        for (int64_t c = 0; c < n; ++c) {
            W s = 0;
            for (int j = 0; j < kc; ++j)
                if (hr[j] != 0) s = s + static_cast<W>(hr[j]) * mid[r * pc + c + j];
            b[r * n + c] = s;
        }
    return b;
}

template <class T>
std::vector<T> random_values(int64_t count, double lo, double hi, uint32_t seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    std::vector<T> v(count);
    for (auto& x : v) x = static_cast<T>(std::is_floating_point_v<T> ? u(gen) : std::round(u(gen)));
    return v;
}

// Compares with the brute force: integers exactly (the direct route away from
// a .5 tie), floating within 32 eps(class) of max(1, max|B|).
template <class T>
void expect_matches(const std::vector<T>& got, const std::vector<double>& ref, bool exact_sum) {
    ASSERT_EQ(got.size(), ref.size());
    double scale = 1;
    for (double v : ref) scale = std::max(scale, std::abs(v));
    const double eps = std::numeric_limits<std::conditional_t<std::is_same_v<T, float>, float, double>>::epsilon();
    for (size_t k = 0; k < got.size(); ++k) {
        if constexpr (std::is_floating_point_v<T>) {
            EXPECT_NEAR(got[k], ref[k], 32 * eps * scale) << k;
        } else {
            const double frac = std::abs(ref[k] - std::trunc(ref[k]));
            if (!exact_sum && std::abs(frac - 0.5) < 1e-9) continue;
            EXPECT_EQ(double(got[k]), to_class<T>(ref[k])) << k << " " << ref[k];
        }
    }
}

template <class T>
void check_case(int64_t m, int64_t n, const Options& o, uint32_t seed, double lo, double hi) {
    const std::vector<T> a = random_values<T>(m * n, lo, hi, seed);
    const double sr = o.sigma[0], sc = o.sigma.size() > 1 ? o.sigma[1] : o.sigma[0];
    int kr = 2 * int(std::ceil(2 * sr)) + 1, kc = 2 * int(std::ceil(2 * sc)) + 1;
    if (!o.size.empty()) {
        kr = int(o.size[0]);
        kc = int(o.size.size() > 1 ? o.size[1] : o.size[0]);
    }
    const int32_t dtype = ipt::dtype_of<T>();
    const bool sep = kr > 1 && kc > 1 && kr * kc >= (dtype == IPT_DOUBLE ? 49 : 289);
    std::vector<double> ref;
    if (!sep)
        ref = direct(a, m, n, sr, sc, kr, kc, o);
    else if (dtype == IPT_DOUBLE || dtype == IPT_INT32 || dtype == IPT_UINT32)
        ref = separable<double>(a, m, n, sr, sc, kr, kc, o);
    else
        ref = separable<float>(a, m, n, sr, sc, kr, kc, o);
    SCOPED_TRACE(::testing::Message() << "class " << dtype << " " << m << "x" << n << " kernel " << kr << "x" << kc
                                      << " " << o.padding << (sep ? " separable" : " direct"));
    expect_matches(gauss<T>(image<T>(m, n, a), o), ref, sep);
}

// A constant image stays constant (the taps sum to 1).
TEST(Imgaussfilt, ConstantImage) {
    auto b = gauss<uint8_t>(image<uint8_t>(4, 5, std::vector<uint8_t>(20, 77)), Options{});
    EXPECT_EQ(b, std::vector<uint8_t>(20, 77));
    Options big;
    big.sigma = {3};
    auto d = gauss<double>(image<double>(6, 7, std::vector<double>(42, 0.25)), big);
    for (double v : d) EXPECT_NEAR(v, 0.25, 1e-15);
}

// An impulse returns the kernel: sigma 0.5 gives weights 1, e^-2, e^-4 over
// their sum; zero padding keeps the edges.
TEST(Imgaussfilt, ImpulseByHand) {
    std::vector<double> a(25, 0.0);
    a[12] = 1;
    Options o;
    o.padding = "constant";
    auto b = gauss<double>(image<double>(5, 5, a), o);
    const double e2 = std::exp(-2.0), e4 = std::exp(-4.0), s = 1 + 4 * e2 + 4 * e4;
    EXPECT_NEAR(b[12], 1 / s, 4e-16);
    EXPECT_NEAR(b[7], e2 / s, 4e-16);
    EXPECT_NEAR(b[11], e2 / s, 4e-16);
    EXPECT_NEAR(b[6], e4 / s, 4e-16);
    EXPECT_EQ(b[0], 0.0);
    EXPECT_EQ(b[24], 0.0);
}

// uint8 impulse of 255 at the centre of a 3x3 zero image, sigma 0.5:
// 255/s = 157.9..., 255 e^-2/s = 21.37..., 255 e^-4/s = 2.89...
TEST(Imgaussfilt, Uint8ImpulseByHand) {
    std::vector<uint8_t> a(9, 0);
    a[4] = 255;
    Options o;
    o.padding = "constant";
    auto b = gauss<uint8_t>(image<uint8_t>(3, 3, a), o);
    EXPECT_EQ(b, (std::vector<uint8_t>{3, 21, 3, 21, 158, 21, 3, 21, 3}));
}

TEST(Imgaussfilt, DirectRouteEveryClassAndPadding) {
    uint32_t seed = 1;
    for (const char* pad : {"replicate", "circular", "symmetric", "constant"}) {
        Options o;
        o.padding = pad;
        o.X = 3.7;
        o.sigma = {1.2, 0.7};
        check_case<uint8_t>(9, 13, o, seed++, 0, 255);
        check_case<uint16_t>(13, 9, o, seed++, 0, 65535);
        check_case<int16_t>(7, 11, o, seed++, -32768, 32767);
        check_case<int32_t>(7, 11, o, seed++, -1e9, 1e9);
        check_case<uint32_t>(7, 11, o, seed++, 0, 4e9);
        check_case<float>(8, 10, o, seed++, -1, 1);
        check_case<double>(8, 10, o, seed++, -1, 1);
    }
}

TEST(Imgaussfilt, SeparableRouteEveryClassAndPadding) {
    uint32_t seed = 100;
    for (const char* pad : {"replicate", "circular", "symmetric", "constant"}) {
        Options o;
        o.padding = pad;
        o.X = 300.5;  // in the working class: not clamped to uint8
        o.sigma = {3};
        o.size = {17, 19};
        check_case<uint8_t>(20, 23, o, seed++, 0, 255);
        check_case<uint16_t>(21, 19, o, seed++, 0, 65535);
        check_case<int16_t>(19, 21, o, seed++, -32768, 32767);
        check_case<int32_t>(18, 20, o, seed++, -1e9, 1e9);
        check_case<uint32_t>(18, 20, o, seed++, 0, 4e9);
        check_case<float>(18, 20, o, seed++, -1, 1);
        Options d = o;
        d.size = {7, 9};
        check_case<double>(12, 15, d, seed++, -1, 1);
    }
}

// Rank-1 kernels run a column pass over A's own rows and columns, in blocks
// of rows and vectors of columns: images wider than a few vectors and taller
// than a few blocks, odd sizes, every padding.
TEST(Imgaussfilt, LargerImagesEveryPadding) {
    uint32_t seed = 300;
    for (const char* pad : {"replicate", "circular", "symmetric", "constant"}) {
        Options o;
        o.padding = pad;
        o.X = 41.25;
        o.sigma = {2};
        check_case<uint8_t>(77, 101, o, seed++, 0, 255);
        check_case<int16_t>(71, 67, o, seed++, -32768, 32767);
        check_case<float>(69, 45, o, seed++, -1, 1);
        check_case<double>(97, 83, o, seed++, -1, 1);
        Options s = o;
        s.sigma = {4, 3};
        check_case<uint16_t>(85, 70, s, seed++, 0, 65535);
        check_case<uint32_t>(66, 73, s, seed++, 0, 4e9);
    }
}

// Integer classes run the rank-1 plan in strips of 256 columns and blocks of
// 128 rows, several output rows at a time: images wider and taller than
// those, row counts off the multiple, 1xN and Nx1 strips, taps dropped at the
// kernel's ends (a small sigma in a large FilterSize), every padding.
TEST(Imgaussfilt, IntegerStripsAndBlocks) {
    uint32_t seed = 500;
    for (const char* pad : {"replicate", "circular", "symmetric", "constant"}) {
        Options o;
        o.padding = pad;
        o.X = 17.6;
        o.sigma = {2};
        check_case<uint8_t>(262, 531, o, seed++, 0, 255);
        check_case<int16_t>(131, 259, o, seed++, -32768, 32767);
        check_case<uint8_t>(1, 600, o, seed++, 0, 255);
        check_case<uint8_t>(600, 1, o, seed++, 0, 255);
        check_case<uint8_t>(3, 257, o, seed++, 0, 255);
        Options t = o;
        t.sigma = {0.5};
        t.size = {15};  // taps below eps * max dropped
        check_case<uint16_t>(141, 263, t, seed++, 0, 65535);
        Options s = o;
        s.sigma = {3};
        s.size = {17};  // MATLAB's separable route: single for 8- and 16-bit
        check_case<uint8_t>(133, 270, s, seed++, 0, 255);
        check_case<int32_t>(130, 261, s, seed++, -1e9, 1e9);
        Options d = o;
        d.sigma = {1.5, 2.5};
        check_case<uint32_t>(135, 300, d, seed++, 0, 4e9);
    }
}

TEST(Imgaussfilt, EdgeShapes) {
    Options o;
    o.sigma = {1};
    check_case<uint8_t>(1, 1, o, 7, 0, 255);
    check_case<uint8_t>(1, 17, o, 8, 0, 255);
    check_case<uint8_t>(17, 1, o, 9, 0, 255);
    o.size = {1, 9};
    check_case<double>(5, 12, o, 10, -1, 1);
    o.size = {17};
    check_case<uint8_t>(2, 3, o, 11, 0, 255);  // kernel larger than the image
    auto e = gauss<float>(context().upload<float>(0, 4, {}), Options{});
    EXPECT_TRUE(e.empty());
}

// RGB: each plane filtered alike.
TEST(Imgaussfilt, PlanesFilteredAlike) {
    std::vector<uint8_t> one = random_values<uint8_t>(30, 0, 255, 42);
    std::vector<uint8_t> rgb;
    for (int c = 0; c < 3; ++c) rgb.insert(rgb.end(), one.begin(), one.end());
    Options o;
    o.sigma = {1.5};
    auto plane = gauss<uint8_t>(image<uint8_t>(5, 6, one), o);
    auto all = gauss<uint8_t>(image<uint8_t>(5, 6, rgb, 3), o);
    for (int c = 0; c < 3; ++c)
        EXPECT_EQ(std::vector<uint8_t>(all.begin() + c * 30, all.begin() + (c + 1) * 30), plane);
}

// Saturation: the constant -1e6 becomes intmin in A's class (direct route),
// and the sums of intmin round and saturate to intmin. NaN reaches only the
// outputs whose tap on it is nonzero.
TEST(Imgaussfilt, SaturatesAndKeepsNaNLocal) {
    Options o;
    o.padding = "constant";
    o.X = -1e6;
    auto b = gauss<int16_t>(image<int16_t>(3, 3, std::vector<int16_t>(9, -32768)), o);
    for (int16_t v : b) EXPECT_EQ(v, -32768);
    std::vector<double> a(49, 1.0);
    a[0] = std::numeric_limits<double>::quiet_NaN();
    auto d = gauss<double>(image<double>(7, 7, a), Options{});
    EXPECT_TRUE(std::isnan(d[0]));
    EXPECT_TRUE(std::isnan(d[8]));
    EXPECT_NEAR(d[48], 1.0, 1e-15);  // three taps away: untouched
}

TEST(Imgaussfilt, RejectsEvenFilterSize) {
    ipt::Call call(context(), "ipt.imgaussfilt");
    call.image("A", image<double>(2, 2, {1, 2, 3, 4})).numbers("FilterSize", {4});
    IPT_EXPECT_ERROR(call.run(), IPT_ERR_INVALID_ARGUMENT, "FilterSize");
}

}  // namespace
