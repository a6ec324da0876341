// SPDX-License-Identifier: Apache-2.0
// ipt.edge against hand-computed step images (sobel, prewitt, roberts:
// thresholds, thinning, directions) and independent transcriptions of the
// documented algorithms (docs/matlab-semantics.md#edge) for log, zerocross and
// canny, run in double on images without ties.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
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

struct Options {
    std::string method = "sobel";
    std::vector<double> threshold = {};
    std::string direction = {};
    std::string thinning = {};
    double sigma = NAN;
    const ipt::Image* h = nullptr;
};

struct Edges {
    std::vector<uint8_t> bw;
    std::vector<double> thresh;
};

Edges edge(const ipt::Image& I, const Options& o) {
    ipt::Call call(context(), "ipt.edge");
    call.image("I", I).text("method", o.method).want("thresh");
    if (!o.threshold.empty()) call.numbers("threshold", o.threshold);
    if (!o.direction.empty()) call.text("direction", o.direction);
    if (!o.thinning.empty()) call.text("thinning", o.thinning);
    if (!std::isnan(o.sigma)) call.number("sigma", o.sigma);
    if (o.h) call.image("h", *o.h);
    call.run();
    ipt::Image bw = call.take("BW");
    EXPECT_EQ(bw.dtype(), IPT_LOGICAL);
    Edges e;
    e.bw.resize(static_cast<size_t>(bw.numel()));
    if (!e.bw.empty()) bw.download(e.bw.data());
    ipt::Image t = call.take("thresh");
    EXPECT_EQ(t.dtype(), IPT_DOUBLE);
    EXPECT_EQ(t.rows(), 1);
    e.thresh = t.download<double>();
    return e;
}

// A 16x16 image, 0 left of column 8 and 1 from column 8 on (or the transpose).
std::vector<double> step(bool vertical_edge) {
    std::vector<double> v(256);
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) v[r * 16 + c] = (vertical_edge ? c : r) >= 8 ? 1 : 0;
    return v;
}

std::vector<uint8_t> column_mask(int rows, int cols, std::vector<int> on_cols) {
    std::vector<uint8_t> m(static_cast<size_t>(rows * cols), 0);
    for (int r = 0; r < rows; ++r)
        for (int c : on_cols) m[r * cols + c] = 1;
    return m;
}

// --- sobel, prewitt, roberts: hand computation -----------------------------

TEST(Edge, SobelStepAutomaticThresholdAndThinning) {
    // bx = -1/2 on columns 7 and 8, by = 0: b = 1/4 there, mean(b) = 1/32,
    // cutoff = 4/32, thresh = sqrt(1/8). Thinning keeps column 8: b(7) is not
    // > b(8) (strict), while b(8) > b(9).
    for (std::string method : {"sobel", "prewitt"}) {
        const Edges e = edge(image<double>(16, 16, step(true)), {.method = method});
        ASSERT_EQ(e.thresh.size(), 1u);
        EXPECT_NEAR(e.thresh[0], std::sqrt(0.125), 1e-15) << method;
        EXPECT_EQ(e.bw, column_mask(16, 16, {8})) << method;
        const Edges n = edge(image<double>(16, 16, step(true)), {.method = method, .thinning = "nothinning"});
        EXPECT_EQ(n.bw, column_mask(16, 16, {7, 8})) << method;
    }
}

TEST(Edge, UserThresholdAndDirections) {
    const ipt::Image vstep = image<double>(16, 16, step(true));
    Edges e = edge(vstep, {.threshold = {0.3}});
    EXPECT_EQ(e.thresh, std::vector<double>{0.3});
    EXPECT_EQ(e.bw, column_mask(16, 16, {8}));
    // 0.5^2 = 0.25 is not above 0.25: nothing.
    e = edge(vstep, {.threshold = {0.5}});
    EXPECT_EQ(std::count(e.bw.begin(), e.bw.end(), 1), 0);
    // 'horizontal' only sees by: a vertical edge disappears, a horizontal one
    // is found (row 8); 'vertical' the other way round. With k = 0 for the
    // other direction its clause, |by| >= 0*|bx| - 100 eps, always holds, so
    // along the edge only the strict b(r,c) > b(next) decides: it holds at the
    // image border (a neighbour outside never vetoes), which adds the end
    // pixel of the other ridge line (row 15, column 7).
    e = edge(vstep, {.threshold = {0.3}, .direction = "horizontal"});
    EXPECT_EQ(std::count(e.bw.begin(), e.bw.end(), 1), 0);
    e = edge(vstep, {.threshold = {0.3}, .direction = "vertical"});
    std::vector<uint8_t> want = column_mask(16, 16, {8});
    want[15 * 16 + 7] = 1;
    EXPECT_EQ(e.bw, want);
    e = edge(image<double>(16, 16, step(false)), {.threshold = {0.3}, .direction = "horizontal"});
    std::vector<uint8_t> row8(256, 0);
    for (int c = 0; c < 16; ++c) row8[8 * 16 + c] = 1;
    row8[7 * 16 + 15] = 1;
    EXPECT_EQ(e.bw, row8);
}

TEST(Edge, RobertsStep) {
    // bx = (I(r,c) - I(r+1,c+1))/2 = -1/2 and by = (I(r,c+1) - I(r+1,c))/2 =
    // 1/2 on column 7 only: b = 1/2, mean = 1/32, cutoff = 6/32.
    const Edges e = edge(image<double>(16, 16, step(true)), {.method = "roberts"});
    EXPECT_NEAR(e.thresh[0], std::sqrt(6.0 / 32), 1e-15);
    EXPECT_EQ(e.bw, column_mask(16, 16, {7}));
}

TEST(Edge, IntegerAndLogicalImagesAreIm2single) {
    std::vector<uint8_t> u8;
    std::vector<uint16_t> u16;
    std::vector<int16_t> i16;
    std::vector<int> lg;
    for (double v : step(true)) {
        u8.push_back(v ? 255 : 0);
        u16.push_back(v ? 65535 : 0);
        i16.push_back(v ? 32767 : -32768);
        lg.push_back(v ? 1 : 0);
    }
    const Edges want = edge(image<double>(16, 16, step(true)), {});
    for (const ipt::Image& I : {image<uint8_t>(16, 16, u8), image<uint16_t>(16, 16, u16),
                                image<int16_t>(16, 16, i16), ipt_test::logical(16, 16, lg)}) {
        const Edges e = edge(I, {});
        EXPECT_EQ(e.bw, want.bw);
        EXPECT_NEAR(e.thresh[0], want.thresh[0], 1e-7);
    }
}

// --- independent transcriptions ----------------------------------------------

struct Img {
    int64_t m = 0, n = 0;
    std::vector<double> v;
    double at(int64_t r, int64_t c) const {
        r = std::clamp<int64_t>(r, 0, m - 1);  // 'replicate'
        c = std::clamp<int64_t>(c, 0, n - 1);
        return v[static_cast<size_t>(r * n + c)];
    }
};

// imfilter(I, h, 'replicate'), correlation or convolution, centre floor((k+1)/2).
Img imfilter_rep(const Img& I, const std::vector<double>& h, int64_t kr, int64_t kc, bool conv) {
    Img out{I.m, I.n, {}};
    const int64_t orow = (kr + 1) / 2 - 1, ocol = (kc + 1) / 2 - 1;
    for (int64_t r = 0; r < I.m; ++r)
        for (int64_t c = 0; c < I.n; ++c) {
            double s = 0;
            for (int64_t i = 0; i < kr; ++i)
                for (int64_t j = 0; j < kc; ++j) {
                    const double w = conv ? h[(kr - 1 - i) * kc + (kc - 1 - j)] : h[i * kc + j];
                    s += w * I.at(r + i - orow, c + j - ocol);
                }
            out.v.push_back(s);
        }
    return out;
}

Img smooth_random(int64_t m, int64_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0, 1);
    Img I{m, n, std::vector<double>(static_cast<size_t>(m * n), 0.0)};
    for (int k = 0; k < 6; ++k) {
        const double r0 = u(rng) * m, c0 = u(rng) * n, s = 2 + 4 * u(rng), a = u(rng) - 0.3;
        for (int64_t r = 0; r < m; ++r)
            for (int64_t c = 0; c < n; ++c)
                I.v[r * n + c] += a * std::exp(-((r - r0) * (r - r0) + (c - c0) * (c - c0)) / (2 * s * s));
    }
    for (double& x : I.v) x += 0.02 * u(rng);
    return I;
}

Edges zero_crossing_ref(const Img& b, double t) {
    Edges e;
    e.thresh = {t};
    e.bw.assign(static_cast<size_t>(b.m * b.n), 0);
    for (int64_t r = 1; r < b.m - 1; ++r)
        for (int64_t c = 1; c < b.n - 1; ++c) {
            const double v = b.at(r, c);
            bool on = false;
            if (v < 0) {
                for (double nb : {b.at(r, c + 1), b.at(r, c - 1), b.at(r + 1, c), b.at(r - 1, c)})
                    on |= nb > 0 && std::abs(v - nb) > t;
            } else if (v == 0) {
                const double u = b.at(r - 1, c), d = b.at(r + 1, c), l = b.at(r, c - 1), rt = b.at(r, c + 1);
                on = ((u < 0 && d > 0) || (u > 0 && d < 0)) && std::abs(u - d) > 2 * t;
                on |= ((l < 0 && rt > 0) || (l > 0 && rt < 0)) && std::abs(l - rt) > 2 * t;
            }
            e.bw[r * b.n + c] = on;
        }
    return e;
}

double mean_abs(const Img& b) {
    double s = 0;
    for (double x : b.v) s += std::abs(x);
    return s / static_cast<double>(b.v.size());
}

std::vector<double> log_kernel(int64_t size, double sigma) {
    const double half = (size - 1) / 2.0, eps = std::numeric_limits<double>::epsilon();
    std::vector<double> g, h;
    double gmax = 0;
    for (int64_t r = 0; r < size; ++r)
        for (int64_t c = 0; c < size; ++c) {
            const double x = c - half, y = r - half;
            g.push_back(std::exp(-(x * x + y * y) / (2 * sigma * sigma)));
            gmax = std::max(gmax, g.back());
        }
    double gs = 0;
    for (double& v : g) gs += (v = v < eps * gmax ? 0 : v);
    double hs = 0;
    for (int64_t r = 0; r < size; ++r)
        for (int64_t c = 0; c < size; ++c) {
            const double x = c - half, y = r - half;
            h.push_back(g[r * size + c] / gs * (x * x + y * y - 2 * sigma * sigma) / std::pow(sigma, 4));
            hs += h.back();
        }
    for (double& v : h) v -= hs / static_cast<double>(h.size());
    // edge makes the operator sum to zero once more.
    double s2 = 0;
    for (double v : h) s2 += v;
    for (double& v : h) v -= s2 / static_cast<double>(h.size());
    return h;
}

size_t mismatches(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
    size_t n = 0;
    for (size_t i = 0; i < a.size(); ++i) n += a[i] != b[i];
    return n;
}

TEST(Edge, LogMatchesTheDefinition) {
    for (uint32_t seed : {1u, 2u, 3u}) {
        const Img I = smooth_random(47, 58, seed);
        for (double sigma : {2.0, 1.3}) {
            const int64_t size = static_cast<int64_t>(std::ceil(sigma * 3)) * 2 + 1;
            const Img b = imfilter_rep(I, log_kernel(size, sigma), size, size, false);
            const Edges want = zero_crossing_ref(b, 0.75 * mean_abs(b));
            const Edges got = edge(image<double>(I.m, I.n, I.v), {.method = "log", .sigma = sigma});
            EXPECT_NEAR(got.thresh[0], want.thresh[0], 1e-12 * want.thresh[0]);
            EXPECT_EQ(mismatches(got.bw, want.bw), 0u) << seed << " " << sigma;
            EXPECT_GT(std::count(want.bw.begin(), want.bw.end(), 1), 10);
            const Edges fixed = edge(image<double>(I.m, I.n, I.v), {.method = "log", .threshold = {0.002}, .sigma = sigma});
            EXPECT_EQ(fixed.thresh, std::vector<double>{0.002});
            EXPECT_EQ(mismatches(fixed.bw, zero_crossing_ref(b, 0.002).bw), 0u);
        }
    }
}

TEST(Edge, ZerocrossUsesTheGivenFilterMadeZeroSum) {
    const Img I = smooth_random(40, 44, 7);
    const std::vector<double> h = {0, 1, 0, 1, -4, 1, 0, 1, 0.3};  // not zero-sum on purpose
    std::vector<double> op = h;
    double s = 0;
    for (double v : op) s += v;
    for (double& v : op) v -= s / 9;
    const Img b = imfilter_rep(I, op, 3, 3, false);
    const Edges want = zero_crossing_ref(b, 0.75 * mean_abs(b));
    const ipt::Image hi = image<double>(3, 3, h);
    const Edges got = edge(image<double>(I.m, I.n, I.v), {.method = "zerocross", .h = &hi});
    EXPECT_NEAR(got.thresh[0], want.thresh[0], 1e-12 * want.thresh[0]);
    EXPECT_EQ(mismatches(got.bw, want.bw), 0u);
    // A zero crossing through an exact zero. With h the 3x3 identity, op =
    // h - 1/9 and b = I - mean3x3(I) (replicate): b(2,2) = 0 exactly, its left
    // neighbour 9 - 2 = 7 and its right -7, so [+ 0 -] across columns counts
    // when 14 > 2t.
    const ipt::Image id = image<double>(3, 3, {0, 0, 0, 0, 1, 0, 0, 0, 0});
    const ipt::Image row = image<double>(3, 3, {0, 0, 0, 9, 0, -9, 0, 0, 0});
    const Edges z = edge(row, {.method = "zerocross", .threshold = {6.9}, .h = &id});
    EXPECT_EQ(z.bw, (std::vector<uint8_t>{0, 0, 0, 0, 1, 0, 0, 0, 0}));
    const Edges z2 = edge(row, {.method = "zerocross", .threshold = {7.0}, .h = &id});
    EXPECT_EQ(std::count(z2.bw.begin(), z2.bw.end(), 1), 0);
}

// Canny, transcribed: Gaussian and derivative kernels, separable
// convolutions, normalised magnitude, 64-bin thresholds, NMS, hysteresis.
Edges canny_ref(const Img& I, double sigma, const std::vector<double>& given) {
    const int64_t ext = static_cast<int64_t>(std::ceil(4 * sigma)), len = 2 * ext + 1;
    std::vector<double> g, dg(static_cast<size_t>(len));
    double gs = 0;
    for (int64_t x = -ext; x <= ext; ++x) gs += g.emplace_back(std::exp(-(double(x) * x) / (2 * sigma * sigma)));
    for (double& v : g) v /= gs;
    for (int64_t i = 0; i < len; ++i)
        dg[i] = i == 0 ? g[1] - g[0] : i == len - 1 ? g[i] - g[i - 1] : (g[i + 1] - g[i - 1]) / 2;
    double pos = 0, neg = 0;
    for (double v : dg) {
        if (v > 0) pos += v;
        if (v < 0) neg += v;
    }
    for (double& v : dg) v = v > 0 ? v / pos : (v < 0 ? v / -neg : 0);
    const Img gx = imfilter_rep(imfilter_rep(I, g, len, 1, true), dg, 1, len, true);
    const Img gy = imfilter_rep(imfilter_rep(I, g, 1, len, true), dg, len, 1, true);
    Img mag{I.m, I.n, {}};
    double mx = 0;
    for (size_t i = 0; i < gx.v.size(); ++i) mx = std::max(mx, mag.v.emplace_back(std::hypot(gx.v[i], gy.v[i])));
    for (double& v : mag.v) v /= mx;
    double low, high;
    if (given.empty()) {
        std::vector<int> counts(64, 0);
        for (double v : mag.v) ++counts[static_cast<int>(std::floor(v * 63 + 0.5))];
        int cum = 0, k = 0;
        while ((cum += counts[k]) <= 0.7 * I.m * I.n) ++k;
        high = (k + 1) / 64.0;
        low = 0.4 * high;
    } else {
        high = given.back();
        low = given.size() == 2 ? given[0] : 0.4 * high;
    }
    Edges e;
    e.thresh = {low, high};
    const int64_t m = I.m, n = I.n;
    std::vector<int> weak(static_cast<size_t>(m * n), 0), strong(weak);
    for (int64_t r = 1; r < m - 1; ++r)
        for (int64_t c = 1; c < n - 1; ++c) {
            const double ix = gx.at(r, c), iy = gy.at(r, c), v = mag.at(r, c);
            auto peak = [&](double d, double a1, double b1, double a2, double b2) {
                return v >= a1 * (1 - d) + b1 * d && v >= a2 * (1 - d) + b2 * d;
            };
            bool mx1 = false;
            if ((iy <= 0 && ix > -iy) || (iy >= 0 && ix < -iy))
                mx1 |= peak(std::abs(iy / ix), mag.at(r, c + 1), mag.at(r - 1, c + 1), mag.at(r, c - 1), mag.at(r + 1, c - 1));
            if ((ix > 0 && -iy >= ix) || (ix < 0 && -iy <= ix))
                mx1 |= peak(std::abs(ix / iy), mag.at(r - 1, c), mag.at(r - 1, c + 1), mag.at(r + 1, c), mag.at(r + 1, c - 1));
            if ((ix <= 0 && ix > iy) || (ix >= 0 && ix < iy))
                mx1 |= peak(std::abs(ix / iy), mag.at(r - 1, c), mag.at(r - 1, c - 1), mag.at(r + 1, c), mag.at(r + 1, c + 1));
            if ((iy < 0 && ix <= iy) || (iy > 0 && ix >= iy))
                mx1 |= peak(std::abs(iy / ix), mag.at(r, c - 1), mag.at(r - 1, c - 1), mag.at(r, c + 1), mag.at(r + 1, c + 1));
            if (mx1 && v > low) {
                weak[r * n + c] = 1;
                strong[r * n + c] = v > high;
            }
        }
    // Components of the weak map (8-connected) that contain a strong pixel.
    std::vector<int> label(weak.size(), 0);
    e.bw.assign(weak.size(), 0);
    int next = 0;
    for (size_t s = 0; s < weak.size(); ++s) {
        if (!weak[s] || label[s]) continue;
        std::vector<size_t> comp = {s}, todo = {s};
        label[s] = ++next;
        bool has_strong = false;
        while (!todo.empty()) {
            const size_t p = todo.back();
            todo.pop_back();
            has_strong |= strong[p] != 0;
            const int64_t pr = static_cast<int64_t>(p) / n, pc = static_cast<int64_t>(p) % n;
            for (int64_t dr = -1; dr <= 1; ++dr)
                for (int64_t dc = -1; dc <= 1; ++dc) {
                    const int64_t qr = pr + dr, qc = pc + dc;
                    if (qr < 0 || qr >= m || qc < 0 || qc >= n) continue;
                    const size_t q = static_cast<size_t>(qr * n + qc);
                    if (weak[q] && !label[q]) {
                        label[q] = next;
                        comp.push_back(q);
                        todo.push_back(q);
                    }
                }
        }
        if (has_strong)
            for (size_t p : comp) e.bw[p] = 1;
    }
    return e;
}

TEST(Edge, CannyMatchesTheDefinition) {
    for (uint32_t seed : {4u, 5u, 6u}) {
        const Img I = smooth_random(53, 61, seed);
        for (double sigma : {std::sqrt(2.0), 1.0, 2.5}) {
            const Edges want = canny_ref(I, sigma, {});
            const Edges got = edge(image<double>(I.m, I.n, I.v), {.method = "canny", .sigma = sigma});
            EXPECT_EQ(got.thresh, want.thresh) << seed << " " << sigma;
            EXPECT_EQ(mismatches(got.bw, want.bw), 0u) << seed << " " << sigma;
            EXPECT_GT(std::count(want.bw.begin(), want.bw.end(), 1), 20);
        }
        const Edges want = canny_ref(I, std::sqrt(2.0), {0.05, 0.2});
        const Edges got = edge(image<double>(I.m, I.n, I.v), {.method = "canny", .threshold = {0.05, 0.2}});
        EXPECT_EQ(got.thresh, (std::vector<double>{0.05, 0.2}));
        EXPECT_EQ(mismatches(got.bw, want.bw), 0u);
        const Edges one = edge(image<double>(I.m, I.n, I.v), {.method = "canny", .threshold = {0.3}});
        EXPECT_EQ(one.thresh[0], 0.4 * 0.3);
        EXPECT_EQ(one.thresh[1], 0.3);
        EXPECT_EQ(mismatches(one.bw, canny_ref(I, std::sqrt(2.0), {0.3}).bw), 0u);
    }
}

TEST(Edge, CannyOnASquareFindsItsOutlineOnly) {
    // A bright square: every edge pixel lies on the square's border (within one
    // pixel), and every side is found.
    std::vector<double> v(40 * 40, 0.0);
    for (int r = 10; r < 30; ++r)
        for (int c = 12; c < 28; ++c) v[r * 40 + c] = 1;
    const Edges e = edge(image<double>(40, 40, v), {.method = "canny"});
    ASSERT_EQ(e.thresh.size(), 2u);
    EXPECT_NEAR(e.thresh[0], 0.4 * e.thresh[1], 1e-17);
    int left = 0, right = 0, top = 0, bottom = 0;
    for (int r = 0; r < 40; ++r)
        for (int c = 0; c < 40; ++c) {
            if (!e.bw[r * 40 + c]) continue;
            const bool near_v = (c >= 10 && c <= 13) || (c >= 26 && c <= 29);
            const bool near_h = (r >= 8 && r <= 11) || (r >= 28 && r <= 31);
            EXPECT_TRUE((near_v && r >= 8 && r <= 31) || (near_h && c >= 10 && c <= 29)) << r << "," << c;
            left += c <= 13 && r > 12 && r < 27;
            right += c >= 26 && r > 12 && r < 27;
            top += r <= 11 && c > 14 && c < 25;
            bottom += r >= 28 && c > 14 && c < 25;
        }
    EXPECT_GE(left, 14);
    EXPECT_GE(right, 14);
    EXPECT_GE(top, 10);
    EXPECT_GE(bottom, 10);
}

TEST(Edge, TinyAndFlatImages) {
    // All-zero: the magnitude stays 0 (no normalisation), every pixel is in
    // bin 1, so high = 1/64 and nothing is above low.
    const Edges flat = edge(image<double>(5, 5, std::vector<double>(25, 0.0)), {.method = "canny"});
    EXPECT_EQ(std::count(flat.bw.begin(), flat.bw.end(), 1), 0);
    EXPECT_EQ(flat.thresh, (std::vector<double>{0.4 / 64, 1.0 / 64}));
    for (std::string method : {"sobel", "roberts", "log", "canny"}) {
        const Edges one = edge(image<double>(1, 1, {3}), {.method = method});
        EXPECT_EQ(one.bw, std::vector<uint8_t>{0}) << method;
        const Edges row = edge(image<float>(1, 7, {0, 0, 0, 1, 1, 1, 1}), {.method = method});
        EXPECT_EQ(row.bw.size(), 7u) << method;
    }
}

// MATLAB: edge of an m x 0 or 0 x n image is an empty logical of that size;
// thresh is the given threshold, else NaN (the mean of no pixels). The other
// side may be huge: nothing loops over it. Run in a child process that
// SIGALRM ends after 10 s, so a loop that never ends fails instead of hanging.
void edge_of_empty_images() {
    const ipt::Image h = image<double>(3, 3, std::vector<double>(9, 1.0));
    for (auto [rows, cols] : {std::pair<int64_t, int64_t>{int64_t{1} << 30, 0}, {0, int64_t{1} << 30},
                              {(int64_t{1} << 31) - 1, 0}, {0, (int64_t{1} << 31) - 1}, {0, 0}})
        for (int32_t dtype : {IPT_UINT8, IPT_DOUBLE})
            for (std::string method : {"sobel", "prewitt", "roberts", "log", "zerocross", "canny"})
                for (bool given : {false, true}) {
                    ipt::Call call(context(), "ipt.edge");
                    const ipt::Image I = context().upload(static_cast<ipt_dtype>(dtype), rows, cols, nullptr);
                    call.image("I", I).text("method", method).want("thresh");
                    if (method == "zerocross") call.image("h", h);
                    if (given) call.numbers("threshold", {0.25});
                    call.run();
                    const ipt::Image bw = call.take("BW");
                    const std::string what = method + " " + std::to_string(rows) + "x" + std::to_string(cols);
                    EXPECT_EQ(bw.dtype(), IPT_LOGICAL) << what;
                    EXPECT_EQ(bw.rows(), rows) << what;
                    EXPECT_EQ(bw.cols(), cols) << what;
                    const std::vector<double> t = call.take("thresh").download<double>();
                    const size_t count = method == "canny" ? 2 : 1;
                    ASSERT_EQ(t.size(), count) << what;
                    if (given && method == "canny") EXPECT_EQ(t, (std::vector<double>{0.1, 0.25})) << what;
                    else if (given) EXPECT_EQ(t, std::vector<double>{0.25}) << what;
                    else
                        for (double v : t) EXPECT_TRUE(std::isnan(v)) << what;
                }
}

TEST(EdgeDeathTest, EmptyImagesWithAHugeOtherSideReturnAtOnce) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            ::alarm(10);
            edge_of_empty_images();
            std::_Exit(::testing::Test::HasFailure() ? 1 : 0);
        },
        ::testing::ExitedWithCode(0), "");
}

TEST(Edge, BadInputIsRejectedWithTheParameterNamed) {
    const ipt::Image I = image<double>(4, 4, std::vector<double>(16, 0));
    const ipt::Image h = image<double>(1, 1, {1});
    auto expect = [&](const ipt::Image& img, const Options& o, const char* needle) {
        IPT_EXPECT_ERROR(edge(img, o), IPT_ERR_INVALID_ARGUMENT, needle);
    };
    expect(I, {.threshold = {0.1, 0.2}}, "threshold");
    expect(I, {.method = "canny", .threshold = {0.5, 0.4}}, "threshold");
    expect(I, {.method = "canny", .threshold = {1.0}}, "threshold");
    expect(I, {.sigma = 1.0}, "sigma");
    // Filters beyond 4095 taps a side: canny's past sigma 511.75, log's past 2047/3.
    expect(I, {.method = "canny", .sigma = 1e8}, "'sigma' must be at most 511.75");
    expect(I, {.method = "canny", .sigma = 1e300}, "'sigma' must be at most 511.75");
    expect(I, {.method = "log", .sigma = 1e300}, "'sigma' must be at most 682.333");
    expect(I, {.method = "zerocross"}, "'h'");
    expect(I, {.h = &h}, "'h'");
    expect(I, {.method = "canny", .direction = "horizontal"}, "direction");
    expect(I, {.method = "log", .thinning = "nothinning"}, "thinning");
    expect(image<double>(2, 2, std::vector<double>(12, 0), 3), {}, "'I'");
    expect(image<int32_t>(2, 2, {1, 2, 3, 4}), {}, "'I'");
}

}  // namespace
