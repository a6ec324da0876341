// SPDX-License-Identifier: Apache-2.0
// ipt.imresize against values computed by hand from the kernel formulas and a
// brute-force resize written here from MATLAB's description: for each output
// index x the input coordinate u = x/scale + 0.5*(1 - 1/scale), weights
// kernel(u - j) (scale*kernel(scale*(u - j)) when shrinking with
// antialiasing) over j = floor(u - width/2) + (0 .. ceil(width) + 1),
// normalised to sum 1, indices outside [1, n] reflected about the edges; the
// dimension with the smaller scale first, each pass rounded to the working
// class; logical as uint8 0/255, thresholded at > 128.
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

using ipt_test::context;
using ipt_test::image;

struct Options {
    std::vector<double> scale;        // or
    std::vector<double> output_size;
    std::string method = "bicubic";
    int antialiasing = -1;            // -1: not given
};

ipt::Image resize(const ipt::Image& a, const Options& o) {
    ipt::Call call(context(), "ipt.imresize");
    call.image("A", a);
    if (!o.scale.empty()) call.numbers("Scale", o.scale);
    if (!o.output_size.empty()) call.numbers("OutputSize", o.output_size);
    call.option("method", o.method);
    if (o.antialiasing >= 0) call.integer("Antialiasing", o.antialiasing);
    call.run();
    ipt::Image b = call.take("B");
    EXPECT_EQ(b.dtype(), a.dtype());
    EXPECT_EQ(b.channels(), a.channels());
    return b;
}

// ---- the brute force --------------------------------------------------------

double kernel(const std::string& m, double x) {
    const double pi = std::acos(-1.0), eps = std::numeric_limits<double>::epsilon();
    const double ax = std::fabs(x);
    if (m == "nearest" || m == "box") return (x >= -0.5 && x < 0.5) ? 1 : 0;
    if (m == "bilinear" || m == "triangle") {
        if (x >= -1 && x < 0) return x + 1;
        if (x >= 0 && x <= 1) return 1 - x;
        return 0;
    }
    if (m == "bicubic" || m == "cubic") {
        if (ax <= 1) return 1.5 * std::pow(ax, 3.0) - 2.5 * std::pow(ax, 2.0) + 1;
        if (ax <= 2) return -0.5 * std::pow(ax, 3.0) + 2.5 * std::pow(ax, 2.0) - 4 * ax + 2;
        return 0;
    }
    const double a = m == "lanczos2" ? 2 : 3;
    if (ax >= a) return 0;
    return (std::sin(pi * x) * std::sin(pi * x / a) + eps) / ((pi * pi) * std::pow(x, 2.0) / a + eps);
}

double width_of(const std::string& m) {
    if (m == "nearest" || m == "box") return 1;
    if (m == "bilinear" || m == "triangle") return 2;
    if (m == "lanczos3") return 6;
    return 4;
}

int64_t reflect(int64_t j, int64_t n) {  // 1-based in, 0-based out
    while (j < 1 || j > n) j = j < 1 ? 1 - j : 2 * n + 1 - j;
    return j - 1;
}

template <class W>
W to_work(double v) {
    if constexpr (std::is_floating_point_v<W>) {
        return static_cast<W>(v);
    } else {
        if (std::isnan(v)) return 0;
        const double r = std::round(v);
        const double lo = static_cast<double>(std::numeric_limits<W>::lowest());
        const double hi = static_cast<double>(std::numeric_limits<W>::max());
        return static_cast<W>(std::min(hi, std::max(lo, r)));
    }
}

// Resizes planes (channels x rows x cols, row-major) along one dimension.
template <class W>
std::vector<W> brute_pass(const std::vector<W>& in, int64_t rows, int64_t cols, int64_t channels, int dim,
                          int64_t out_len, double scale, const std::string& m, bool aa) {
    const int64_t n = dim == 0 ? rows : cols;
    const int64_t orows = dim == 0 ? out_len : rows, ocols = dim == 0 ? cols : out_len;
    std::vector<W> out(static_cast<size_t>(orows * ocols * channels));
    const bool widen = scale < 1 && aa;
    const double width = widen ? width_of(m) / scale : width_of(m);
    for (int64_t x = 1; x <= out_len; ++x) {
        const double u = x / scale + 0.5 * (1 - 1 / scale);
        const int64_t left = static_cast<int64_t>(std::floor(u - width / 2));
        const int64_t taps = static_cast<int64_t>(std::ceil(width)) + 2;
        std::vector<double> w(taps);
        double total = 0;
        for (int64_t k = 0; k < taps; ++k) {
            const double d = u - static_cast<double>(left + k);
            w[k] = widen ? scale * kernel(m, scale * d) : kernel(m, d);
            total += w[k];
        }
        for (double& v : w) v /= total;
        for (int64_t ch = 0; ch < channels; ++ch)
            for (int64_t o = 0; o < (dim == 0 ? cols : rows); ++o) {
                double s = 0;
                for (int64_t k = 0; k < taps; ++k) {
                    const int64_t j = reflect(left + k, n);
                    const int64_t r = dim == 0 ? j : o, c = dim == 0 ? o : j;
                    s += w[k] * static_cast<double>(in[(ch * rows + r) * cols + c]);
                }
                const int64_t r = dim == 0 ? x - 1 : o, c = dim == 0 ? o : x - 1;
                out[(ch * orows + r) * ocols + c] = to_work<W>(s);
            }
    }
    return out;
}

// The whole resize of class T (logical as uint8 0/255 and > 128).
template <class T>
std::vector<T> brute_resize(const std::vector<T>& a, int64_t rows, int64_t cols, int64_t channels, int64_t out_rows,
                            int64_t out_cols, double sr, double sc, const std::string& m, bool aa) {
    using W = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;
    std::vector<W> work(a.size());
    for (size_t i = 0; i < a.size(); ++i) work[i] = std::is_same_v<T, bool> ? (a[i] ? 255 : 0) : static_cast<W>(a[i]);
    if (sc < sr) {
        work = brute_pass(work, rows, cols, channels, 1, out_cols, sc, m, aa);
        work = brute_pass(work, rows, out_cols, channels, 0, out_rows, sr, m, aa);
    } else {
        work = brute_pass(work, rows, cols, channels, 0, out_rows, sr, m, aa);
        work = brute_pass(work, out_rows, cols, channels, 1, out_cols, sc, m, aa);
    }
    std::vector<T> out(work.size());
    for (size_t i = 0; i < work.size(); ++i) {
        if constexpr (std::is_same_v<T, bool>)
            out[i] = work[i] > 128;
        else
            out[i] = work[i];
    }
    return out;
}

template <class T>
std::vector<T> random_values(size_t n, std::mt19937& rng) {
    std::vector<T> v(n);
    for (size_t i = 0; i < n; ++i) {
        if constexpr (std::is_same_v<T, bool>)
            v[i] = rng() & 1;
        else if constexpr (std::is_floating_point_v<T>)
            v[i] = static_cast<T>(std::uniform_real_distribution<double>(-2, 3)(rng));
        else
            v[i] = static_cast<T>(rng());
    }
    return v;
}

template <class T>
ipt::Image upload(int64_t rows, int64_t cols, const std::vector<T>& v, int64_t channels) {
    if constexpr (std::is_same_v<T, bool>) {
        std::vector<uint8_t> bytes(v.begin(), v.end());
        return context().upload(IPT_LOGICAL, rows, cols, bytes.data(), channels);
    } else {
        return image<T>(rows, cols, v, channels);
    }
}

template <class T>
std::vector<T> download(const ipt::Image& b) {
    if constexpr (std::is_same_v<T, bool>) {
        const std::vector<uint8_t> bytes = b.download<uint8_t>();
        return std::vector<T>(bytes.begin(), bytes.end());
    } else {
        return b.download<T>();
    }
}

// One case against the brute force: scale given, sizes ceil(scale*size).
template <class T>
void check_values(const std::vector<T>& a, int64_t rows, int64_t cols, int64_t channels, double sr, double sc,
                  const std::string& m, int aa) {
    Options o;
    o.scale = {sr, sc};
    o.method = m;
    o.antialiasing = aa;
    const ipt::Image b = resize(upload<T>(rows, cols, a, channels), o);
    const int64_t out_rows = static_cast<int64_t>(std::ceil(sr * rows));
    const int64_t out_cols = static_cast<int64_t>(std::ceil(sc * cols));
    ASSERT_EQ(b.rows(), out_rows);
    ASSERT_EQ(b.cols(), out_cols);
    const bool use_aa = aa < 0 ? m != "nearest" : aa != 0;
    const std::vector<T> want = brute_resize<T>(a, rows, cols, channels, out_rows, out_cols, sr, sc, m, use_aa);
    const std::vector<T> got = download<T>(b);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
        ASSERT_EQ(got[i], want[i]) << m << " " << rows << "x" << cols << "x" << channels << " scale " << sr << ","
                                   << sc << " aa " << aa << " element " << i;
}

template <class T>
void check_case(int64_t rows, int64_t cols, int64_t channels, double sr, double sc, const std::string& m, int aa,
                uint32_t seed) {
    std::mt19937 rng(seed);
    check_values<T>(random_values<T>(static_cast<size_t>(rows * cols * channels), rng), rows, cols, channels, sr, sc,
                    m, aa);
}

// ---- hand computations --------------------------------------------------------

// 2x bicubic along a row. u = x/2 + 0.25; the cubic (a = -0.5) at the
// distances 0.25, 0.75, 1.25, 1.75 is 0.8671875, 0.2265625, -0.0703125,
// -0.0234375 (they sum to 1). With [0 64 128 192] reflected as
// 64 0 | 0 64 128 192 | 192 128:
//   B(1) = -0.0234375*64 + 0.2265625*0 + 0.8671875*0 - 0.0703125*64 = -6
//   B(2) = -0.0703125*0 + 0.8671875*0 + 0.2265625*64 - 0.0234375*128 = 11.5
//   B(3) = 0.8671875*64 - 0.0703125*128 = 46.5,  B(4) = 80,  B(5) = 112
//   B(6) = -0.0703125*64 + 0.8671875*128 + 0.2265625*192 - 0.0234375*192 = 145.5
//   B(7) = -0.0234375*64 + 0.2265625*128 + 0.8671875*192 - 0.0703125*192 = 180.5
//   B(8) = -0.0703125*128 + 0.8671875*192 + 0.2265625*192 - 0.0234375*128 = 198
TEST(Imresize, BicubicDoublingByHand) {
    Options o;
    o.output_size = {1, 8};
    const auto d = resize(image<double>(1, 4, {0, 64, 128, 192}), o).download<double>();
    EXPECT_EQ(d, (std::vector<double>{-6, 11.5, 46.5, 80, 112, 145.5, 180.5, 198}));
    // uint8: saturated at 0, ties rounded half away from zero.
    const auto u = resize(image<uint8_t>(1, 4, {0, 64, 128, 192}), o).download<uint8_t>();
    EXPECT_EQ(u, (std::vector<uint8_t>{0, 12, 47, 80, 112, 146, 181, 198}));
    const auto s = resize(image<int16_t>(1, 4, {0, 64, 128, 192}), o).download<int16_t>();
    EXPECT_EQ(s, (std::vector<int16_t>{-6, 12, 47, 80, 112, 146, 181, 198}));
    // Scale 2 on a 1x4 row: two equal rows (the single row reflects onto itself).
    Options two;
    two.scale = {2};
    const ipt::Image b = resize(image<double>(1, 4, {0, 64, 128, 192}), two);
    ASSERT_EQ(b.rows(), 2);
    ASSERT_EQ(b.cols(), 8);
    const auto bb = b.download<double>();
    for (int i = 0; i < 8; ++i) EXPECT_EQ(bb[i], bb[8 + i]) << i;
    for (int i = 0; i < 8; ++i) EXPECT_EQ(bb[i], d[i]) << i;
}

// Halving with antialiasing widens the triangle to 0.5*tri(x/2): at u = 1.5
// the distances 1.5, 0.5, -0.5, -1.5 weigh 0.125, 0.375, 0.375, 0.125, so
// B(1) = 0.125*A(1) + 0.375*A(1) + 0.375*A(2) + 0.125*A(3) (A(0) reflects to A(1)).
// Without antialiasing, u = 1.5 sits halfway: 0.5*A(1) + 0.5*A(2).
// 'nearest' takes j with -0.5 <= u - j < 0.5: A(2) and A(4).
TEST(Imresize, HalvingByHand) {
    const ipt::Image a = image<double>(4, 1, {8, 16, 32, 64});
    Options o;
    o.scale = {0.5};
    o.method = "bilinear";
    // B(2): u = 3.5, distances 2.5 .. -1.5 over A(2..5), A(5) = A(4):
    // 0.125*16 + 0.375*32 + 0.375*64 + 0.125*64 = 46.
    EXPECT_EQ(resize(a, o).download<double>(), (std::vector<double>{0.5 * 8 + 0.375 * 16 + 0.125 * 32, 46}));
    o.antialiasing = 0;
    EXPECT_EQ(resize(a, o).download<double>(), (std::vector<double>{12, 48}));
    o.method = "nearest";
    o.antialiasing = -1;
    EXPECT_EQ(resize(a, o).download<double>(), (std::vector<double>{16, 64}));
    // nearest with antialiasing: the box widens to two pixels.
    o.antialiasing = 1;
    EXPECT_EQ(resize(a, o).download<double>(), (std::vector<double>{12, 48}));
}

// 'nearest' enlarging by 3: u = x/3 + 1/3 is 2/3, 1, 4/3, 5/3, 2, 7/3, and the
// box picks j with -0.5 <= u - j < 0.5: 1, 1, 1, 2, 2, 2.
TEST(Imresize, NearestEnlarge) {
    Options o;
    o.scale = {1, 3};
    o.method = "nearest";
    const auto d = resize(image<uint16_t>(1, 2, {7, 9}), o).download<uint16_t>();
    EXPECT_EQ(d, (std::vector<uint16_t>{7, 7, 7, 9, 9, 9}));
}

// A 1x1 image stays constant at any size, in every method.
TEST(Imresize, OnePixel) {
    for (const char* m : {"nearest", "bilinear", "bicubic", "box", "triangle", "lanczos2", "lanczos3"}) {
        Options o;
        o.scale = {3};
        o.method = m;
        const ipt::Image b = resize(image<uint8_t>(1, 1, {200}), o);
        EXPECT_EQ(b.rows(), 3);
        EXPECT_EQ(b.download<uint8_t>(), std::vector<uint8_t>(9, 200)) << m;
        const auto f = resize(image<float>(1, 1, {0.25f}), o).download<float>();
        for (float v : f) EXPECT_NEAR(v, 0.25f, 1e-7f) << m;
    }
}

// The sizes of MathWorks' examples: a 384 x 512 x 3 image to [64 NaN] has
// ceil(64*512/384) = 86 columns; 0.5 halves it; 1.1 * 50 is 55.00000000000001
// in double, so ceil gives 56.
TEST(Imresize, Sizes) {
    std::vector<uint8_t> zeros(384 * 512 * 3, 0);
    ipt::Image img = context().upload(IPT_UINT8, 384, 512, zeros.data(), 3);
    Options o;
    o.output_size = {64, NAN};
    ipt::Image b = resize(img, o);
    EXPECT_EQ(b.rows(), 64);
    EXPECT_EQ(b.cols(), 86);
    EXPECT_EQ(b.channels(), 3);
    o.output_size = {NAN, 128};
    b = resize(img, o);
    EXPECT_EQ(b.rows(), 96);
    EXPECT_EQ(b.cols(), 128);
    Options half;
    half.scale = {0.5};
    b = resize(img, half);
    EXPECT_EQ(b.rows(), 192);
    EXPECT_EQ(b.cols(), 256);
    Options eleven_tenths;
    eleven_tenths.scale = {1.1};
    b = resize(image<double>(50, 1, std::vector<double>(50, 1.0)), eleven_tenths);
    EXPECT_EQ(b.rows(), 56);
    EXPECT_EQ(b.cols(), 2);  // ceil(1.1)
}

// Every class against the brute force, shrinking and enlarging, with and
// without antialiasing, non-integer and unequal scales, RGB planes.
template <class T>
void every_method(uint32_t seed) {
    for (const char* m : {"nearest", "bilinear", "bicubic", "box", "lanczos2", "lanczos3"}) {
        check_case<T>(13, 11, 1, 0.5, 0.5, m, -1, seed);
        check_case<T>(7, 9, 1, 2, 2, m, -1, seed + 1);
        check_case<T>(9, 8, 3, 0.37, 1.7, m, -1, seed + 2);
        check_case<T>(9, 8, 1, 1.7, 0.37, m, 0, seed + 3);
        check_case<T>(10, 12, 1, 0.3, 0.45, m, 1, seed + 4);
        check_case<T>(1, 17, 1, 1, 0.6, m, -1, seed + 5);
        check_case<T>(17, 1, 1, 2.5, 1, m, -1, seed + 6);
    }
}

TEST(Imresize, Uint8AgainstBruteForce) { every_method<uint8_t>(1); }
TEST(Imresize, Uint16AgainstBruteForce) { every_method<uint16_t>(2); }
TEST(Imresize, Int16AgainstBruteForce) { every_method<int16_t>(3); }
TEST(Imresize, Int32AgainstBruteForce) { every_method<int32_t>(4); }
TEST(Imresize, Uint32AgainstBruteForce) { every_method<uint32_t>(5); }
TEST(Imresize, SingleAgainstBruteForce) { every_method<float>(6); }
TEST(Imresize, DoubleAgainstBruteForce) { every_method<double>(7); }
TEST(Imresize, LogicalAgainstBruteForce) { every_method<bool>(8); }

// Sizes that cross the passes' blocks: rows longer than 512 columns, strips
// of 8 rows with a partial last strip, outputs wider than 64 columns with a
// tail, input widths that are not a multiple of 8, and the tap counts of
// every method (the unrolled 2-8 and the general loop).
template <class T>
void block_sizes(uint32_t seed) {
    for (const char* m : {"nearest", "bilinear", "bicubic", "box", "lanczos2", "lanczos3"}) {
        check_case<T>(21, 603, 1, 0.6, 0.6, m, -1, seed);
        check_case<T>(19, 70, 3, 2, 2.1, m, -1, seed + 1);
        check_case<T>(45, 203, 1, 0.3, 0.77, m, -1, seed + 2);
        check_case<T>(9, 130, 1, 1, 0.71, m, 0, seed + 3);
    }
}

TEST(Imresize, BlocksUint8AgainstBruteForce) { block_sizes<uint8_t>(21); }
TEST(Imresize, BlocksInt16AgainstBruteForce) { block_sizes<int16_t>(22); }
TEST(Imresize, BlocksUint32AgainstBruteForce) { block_sizes<uint32_t>(23); }
TEST(Imresize, BlocksSingleAgainstBruteForce) { block_sizes<float>(24); }
TEST(Imresize, BlocksDoubleAgainstBruteForce) { block_sizes<double>(25); }
TEST(Imresize, BlocksLogicalAgainstBruteForce) { block_sizes<bool>(26); }

// uint8 with weights that are multiples of a power of two (scales 2, 4, 1/2
// and 1/4 with the nearest, box, bilinear and bicubic kernels) runs in fixed
// point: along dimension 2 only on a periodic run of outputs (the folded ends
// of each row one by one), both passes row by row when rows go first; other
// scales and kernels (lanczos, 0.3) keep the double pass. Random values, and
// 0/255 stripes whose cubic overshoot saturates at both ends.
TEST(Imresize, Uint8FixedPointAgainstBruteForce) {
    const std::vector<std::vector<int64_t>> sizes = {{1, 41}, {41, 1}, {37, 53}, {64, 96}, {3, 200}, {33, 35}, {5, 301}, {301, 5}};
    const std::vector<std::vector<double>> scales = {{0.5, 0.5}, {2, 2}, {0.25, 0.25}, {4, 4},
                                                     {0.5, 2},   {2, 0.5}, {0.3, 0.5}, {1, 2}};
    uint32_t seed = 40;
    for (const char* m : {"nearest", "box", "bilinear", "bicubic", "lanczos2"})
        for (const auto& sz : sizes)
            for (const auto& sc : scales)
                for (int aa : {-1, 0}) {
                    check_case<uint8_t>(sz[0], sz[1], 1, sc[0], sc[1], m, aa, ++seed);
                    std::vector<uint8_t> stripes(static_cast<size_t>(sz[0] * sz[1]));
                    for (int64_t r = 0; r < sz[0]; ++r)
                        for (int64_t c = 0; c < sz[1]; ++c)
                            stripes[static_cast<size_t>(r * sz[1] + c)] = ((r / 2 + c / 3) % 2) ? 255 : 0;
                    check_values<uint8_t>(stripes, sz[0], sz[1], 1, sc[0], sc[1], m, aa);
                }
    check_case<uint8_t>(19, 70, 3, 0.5, 2, "bilinear", -1, 90);
    check_case<bool>(40, 50, 1, 0.5, 2, "bilinear", -1, 91);
    check_case<bool>(40, 50, 1, 2, 0.5, "bicubic", -1, 92);
}

// The fixed-point passes take 32 outputs at a time where a whole block's
// reads lie inside the row, and one at a time elsewhere: widths around the
// block edges, halved along one or both dimensions (both: the passes fused;
// columns only: the pass along dimension 2 reads the image's own rows, the
// last of them at the end of the buffer).
TEST(Imresize, Uint8FixedPointBlockEdges) {
    uint32_t seed = 70;
    for (const char* m : {"nearest", "box", "bilinear"})
        for (int64_t cols : {63, 64, 65, 66, 67, 127, 128, 129, 130, 131, 193, 258})
            for (const auto& sc : std::vector<std::vector<double>>{{0.5, 0.5}, {1, 0.5}, {0.5, 1}})
                for (int aa : {-1, 0}) {
                    check_case<uint8_t>(5, cols, 1, sc[0], sc[1], m, aa, ++seed);
                    check_case<uint8_t>(cols, 3, 1, sc[0], sc[1], m, aa, ++seed);
                }
}

TEST(Imresize, LargerShrinkAgainstBruteForce) {
    check_case<uint8_t>(64, 48, 3, 0.23, 0.31, "bicubic", -1, 11);
    check_case<double>(40, 40, 1, 0.125, 0.125, "lanczos3", -1, 12);
}

// MATLAB resizes the first two dimensions of an N-D array, every plane with
// the same weights: a 2- and a 4-plane image give, plane by plane, the
// results of one-plane calls (the uint8 cases take the fixed-point paths,
// whose jobs span planes).
template <class T>
void planes_alike(uint32_t seed) {
    std::mt19937 rng(seed);
    const int64_t rows = 19, cols = 70, n = rows * cols;
    const std::vector<std::vector<double>> scales = {{0.5, 2}, {2, 0.5}, {0.37, 1.7}, {1.6, 0.45}};
    for (int64_t planes : {2, 4})
        for (const char* m : {"nearest", "bilinear", "bicubic", "lanczos3"})
            for (const auto& sc : scales) {
                Options o;
                o.scale = sc;
                o.method = m;
                const std::vector<T> a = random_values<T>(static_cast<size_t>(n * planes), rng);
                const ipt::Image b = resize(upload<T>(rows, cols, a, planes), o);
                ASSERT_EQ(b.channels(), planes);
                const std::vector<T> all = download<T>(b);
                const size_t out_n = static_cast<size_t>(b.rows() * b.cols());
                ASSERT_EQ(all.size(), out_n * static_cast<size_t>(planes));
                for (int64_t p = 0; p < planes; ++p) {
                    const std::vector<T> plane(a.begin() + p * n, a.begin() + (p + 1) * n);
                    const std::vector<T> one = download<T>(resize(upload<T>(rows, cols, plane, 1), o));
                    ASSERT_EQ(one.size(), out_n);
                    const std::vector<T> got(all.begin() + p * out_n, all.begin() + (p + 1) * out_n);
                    ASSERT_EQ(got, one) << m << " " << planes << " planes, plane " << p << " scale " << sc[0] << ","
                                        << sc[1];
                }
            }
}

TEST(Imresize, PlanesAlikeUint8) { planes_alike<uint8_t>(101); }
TEST(Imresize, PlanesAlikeInt16) { planes_alike<int16_t>(102); }
TEST(Imresize, PlanesAlikeSingle) { planes_alike<float>(103); }
TEST(Imresize, PlanesAlikeDouble) { planes_alike<double>(104); }
TEST(Imresize, PlanesAlikeLogical) { planes_alike<bool>(105); }

// Several planes against the brute force, which resizes each plane on its own.
TEST(Imresize, PlanesAgainstBruteForce) {
    check_case<uint8_t>(19, 70, 4, 0.5, 2, "bilinear", -1, 111);  // fixed point, both passes
    check_case<uint8_t>(37, 53, 4, 2, 0.5, "bicubic", -1, 112);   // fixed point, columns first
    check_case<double>(13, 11, 4, 0.37, 1.7, "bicubic", -1, 113);
    check_case<float>(9, 8, 2, 1.7, 0.37, "lanczos3", 0, 114);
    check_case<int16_t>(10, 12, 5, 0.3, 0.45, "lanczos2", 1, 115);
    check_case<bool>(40, 50, 4, 0.5, 2, "bilinear", -1, 116);
}

// Logical: true is 255, and the resized value must exceed 128. A 1x2 [1 0]
// resized to 1x4 bilinear: u = 0.75, 1.25, 1.75, 2.25 give 255, 191.25 -> 191,
// 63.75 -> 64, 0 -> [1 1 0 0].
TEST(Imresize, LogicalThreshold) {
    const uint8_t bits[2] = {1, 0};
    ipt::Image bw = context().upload(IPT_LOGICAL, 1, 2, bits);
    Options o;
    o.output_size = {1, 4};
    o.method = "bilinear";
    EXPECT_EQ(resize(bw, o).download<uint8_t>(), (std::vector<uint8_t>{1, 1, 0, 0}));
}

// NaN reaches every output whose taps include it; Inf likewise.
TEST(Imresize, NanAndInf) {
    Options o;
    o.scale = {2};
    const auto d = resize(image<double>(1, 1, {NAN}), o).download<double>();
    for (double v : d) EXPECT_TRUE(std::isnan(v));
    o.method = "nearest";
    const auto e = resize(image<double>(1, 2, {INFINITY, 1}), o).download<double>();
    EXPECT_EQ(e, (std::vector<double>{INFINITY, INFINITY, 1, 1, INFINITY, INFINITY, 1, 1}));
    // uint8 saturation at a step edge: bicubic overshoots both ways.
    o.method = "bicubic";
    o.output_size = {1, 8};
    o.scale.clear();
    const auto u = resize(image<uint8_t>(1, 4, {0, 0, 255, 255}), o).download<uint8_t>();
    EXPECT_EQ(u[2], 0);    // B(3) = -0.0703125*255 < 0
    EXPECT_EQ(u[5], 255);  // B(6) = (0.8671875 + 0.2265625 - 0.0234375)*255 > 255
}

TEST(Imresize, Errors) {
    const ipt::Image a = image<uint8_t>(2, 2, {1, 2, 3, 4});
    auto run = [&](const Options& o) { resize(a, o); };
    Options o;
    o.scale = {0};
    IPT_EXPECT_ERROR(run(o), IPT_ERR_INVALID_ARGUMENT, "Scale");
    o.scale = {-2};
    IPT_EXPECT_ERROR(run(o), IPT_ERR_INVALID_ARGUMENT, "Scale");
    o.scale = {};
    o.output_size = {0, 4};
    IPT_EXPECT_ERROR(run(o), IPT_ERR_INVALID_ARGUMENT, "OutputSize");
    o.output_size = {2.5, 4};
    IPT_EXPECT_ERROR(run(o), IPT_ERR_INVALID_ARGUMENT, "OutputSize");
    o.output_size = {NAN, NAN};
    IPT_EXPECT_ERROR(run(o), IPT_ERR_INVALID_ARGUMENT, "OutputSize");
    o.output_size = {INFINITY, 3};
    IPT_EXPECT_ERROR(run(o), IPT_ERR_INVALID_ARGUMENT, "OutputSize");
    o.output_size = {4, 4};
    o.method = "spline";
    IPT_EXPECT_ERROR(run(o), IPT_ERR_INVALID_ARGUMENT, "method");
    o.method = "bicubic";
    o.scale = {2};
    IPT_EXPECT_ERROR(run(o), IPT_ERR_INVALID_ARGUMENT, "Scale");  // both given
    o.scale = {};
    o.output_size = {};
    IPT_EXPECT_ERROR(run(o), IPT_ERR_INVALID_ARGUMENT, "Scale");  // neither
    Options two;
    two.scale = {2};
    IPT_EXPECT_ERROR(resize(image<uint8_t>(0, 3, {}), two), IPT_ERR_INVALID_ARGUMENT, "'A'");
}

}  // namespace
