// SPDX-License-Identifier: Apache-2.0
// ipt.adapthisteq: a hand-computed constant image, the documented checks,
// and an independent transcription of MATLAB's algorithm (padarray
// 'symmetric', imhist per tile, clipHistogram's loops, makeMapping, the
// aLut/grayxform lookups and makeClaheImage's region loop) for random images
// of every class.
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

struct Opts {
    int64_t tr = 8, tc = 8;
    double clip = 0.01;
    int64_t nbins = 256;
    std::string range = "full", dist = "uniform";
    double alpha = 0.4;
};

template <class T>
std::vector<T> clahe(const ipt::Image& img, const Opts& o) {
    ipt::Call call(context(), "ipt.adapthisteq");
    call.image("I", img);
    call.numbers("NumTiles", {double(o.tr), double(o.tc)});
    call.number("ClipLimit", o.clip).integer("NBins", o.nbins).option("Range", o.range);
    call.option("Distribution", o.dist);
    if (o.dist != "uniform") call.number("Alpha", o.alpha);
    call.run();
    ipt::Image J = call.take("J");
    EXPECT_EQ(J.dtype(), img.dtype());
    EXPECT_EQ(J.rows(), img.rows());
    EXPECT_EQ(J.cols(), img.cols());
    return J.download<T>();
}

// ---- the transcription, on a column-major double matrix of I's values ----

struct Mat {
    int64_t r = 0, c = 0;
    std::vector<double> v;  // column-major, as MATLAB stores it
    double& operator()(int64_t i, int64_t j) { return v[j * r + i]; }
};

int64_t mirror(int64_t i, int64_t n) {  // 'symmetric': ... b a | a b ... | z y ...
    while (i < 0 || i >= n) i = i < 0 ? -i - 1 : 2 * n - 1 - i;
    return i;
}

// grayxform(x, lut) for x of class cls (u8/u16: integer, else floating [0,1]);
// the result is in x's class as a double.
double grayxform(double x, const std::vector<double>& lut, const std::string& cls) {
    const int64_t n = int64_t(lut.size());
    if (cls == "uint8" || cls == "uint16") {
        const double top = cls == "uint8" ? 255 : 65535;
        int64_t idx = n == int64_t(top) + 1 ? int64_t(x) : int64_t(x * ((n - 1) / top) + 0.5);
        idx = std::min(idx, n - 1);
        return std::min(top, std::max(0.0, std::floor(top * lut[idx] + 0.5)));
    }
    int64_t idx = 0;
    if (x >= 1) idx = n - 1;
    else if (x > 0) idx = std::min(n - 1, int64_t(x * (n - 1) + 0.5));
    return cls == "single" ? double(float(lut[idx])) : lut[idx];
}

int64_t imhist_bin(double x, int64_t n, const std::string& cls) {
    if (cls == "uint8" || cls == "uint16") {
        const double top = cls == "uint8" ? 255 : 65535;
        if (n == int64_t(top) + 1) return int64_t(x);
        return std::min(n - 1, int64_t(x * ((n - 1) / top) + 0.5));
    }
    if (std::isnan(x)) return 0;
    if (cls == "single") {
        const float f = float(x) * float(n - 1) + 0.5f;
        return f < 0 ? 0 : f > float(n - 1) ? n - 1 : int64_t(f);
    }
    const double f = x * double(n - 1) + 0.5;
    return f < 0 ? 0 : f > double(n - 1) ? n - 1 : int64_t(f);
}

// MATLAB's adapthisteq on I (values of class cls; int16 already moved to
// uint16's scale by the caller); returns the unrounded double result.
Mat reference(Mat I, const std::string& cls, const Opts& o) {
    const double top = cls == "uint8" ? 255 : cls == "uint16" ? 65535 : 1;
    const bool integer = top > 1;
    double sel1 = 0, sel2 = top;
    if (o.range == "original") {
        sel1 = std::numeric_limits<double>::infinity(), sel2 = -sel1;
        for (double x : I.v)
            if (!std::isnan(x)) sel1 = std::min(sel1, x), sel2 = std::max(sel2, x);
    }
    const int64_t dimI[2] = {I.r, I.c}, nt[2] = {o.tr, o.tc};
    int64_t pad[2] = {0, 0}, dimTile[2];
    const bool div = I.r % o.tr == 0 && I.c % o.tc == 0;
    const bool even = div && (I.r / o.tr) % 2 == 0 && (I.c / o.tc) % 2 == 0;
    int64_t pre[2] = {0, 0};
    if (!even) {
        for (int d = 0; d < 2; ++d) {
            int64_t tile = dimI[d] / nt[d];
            if (dimI[d] % nt[d] != 0) {
                tile = dimI[d] / nt[d] + 1;
                pad[d] = tile * nt[d] - dimI[d];
            }
            if (tile % 2 != 0) pad[d] += nt[d];
            pre[d] = pad[d] / 2;
        }
    }
    Mat P;
    P.r = I.r + pad[0];
    P.c = I.c + pad[1];
    P.v.resize(size_t(P.r * P.c));
    for (int64_t j = 0; j < P.c; ++j)
        for (int64_t i = 0; i < P.r; ++i) P(i, j) = I(mirror(i - pre[0], I.r), mirror(j - pre[1], I.c));
    dimTile[0] = P.r / o.tr;
    dimTile[1] = P.c / o.tc;
    const double np = double(dimTile[0] * dimTile[1]);
    const double minClip = std::ceil(np / double(o.nbins));
    const int64_t clipLimit = int64_t(minClip + std::round(o.clip * (np - minClip)));
    std::vector<std::vector<double>> maps(size_t(o.tr * o.tc));
    for (int64_t col = 0; col < o.tc; ++col)
        for (int64_t row = 0; row < o.tr; ++row) {
            std::vector<int64_t> h(size_t(o.nbins), 0);
            for (int64_t j = 0; j < dimTile[1]; ++j)
                for (int64_t i = 0; i < dimTile[0]; ++i)
                    ++h[imhist_bin(P(row * dimTile[0] + i, col * dimTile[1] + j), o.nbins, cls)];
            int64_t total = 0;
            for (int64_t x : h) total += std::max<int64_t>(x - clipLimit, 0);
            const int64_t avg = total / o.nbins, upper = clipLimit - avg;
            for (auto& x : h) {
                if (x > clipLimit) x = clipLimit;
                else if (x > upper) total -= clipLimit - x, x = clipLimit;
                else total -= avg, x += avg;
            }
            int64_t k = 1;
            while (total != 0) {
                const int64_t step = std::max<int64_t>(o.nbins / total, 1);
                for (int64_t m = k; m <= o.nbins; m += step)
                    if (h[m - 1] < clipLimit) {
                        ++h[m - 1];
                        if (--total == 0) break;
                    }
                if (++k > o.nbins) k = 1;
            }
            std::vector<double> map(size_t(o.nbins));
            double sum = 0;
            const double spread = sel2 - sel1;
            for (int64_t b = 0; b < o.nbins; ++b) {
                sum += double(h[b]);
                double m;
                if (o.dist == "uniform") {
                    m = std::min(sel1 + sum * (spread / np), sel2);
                } else if (o.dist == "rayleigh") {
                    const double hc = 2 * (o.alpha * o.alpha), vmax = 1 - std::exp(-1 / hc);
                    double val = vmax * (sum / np);
                    if (val >= 1) val = 1 - 0x1p-52;
                    m = std::min(sel1 + std::sqrt(-hc * std::log(1 - val)) * spread, sel2);
                } else {
                    const double vmax = 1 - std::exp(-o.alpha);
                    double val = vmax * sum / np;
                    if (val >= 1) val = 1 - 0x1p-52;
                    m = std::min(sel1 + (-1 / o.alpha) * std::log(1 - val) * spread, sel2);
                }
                map[b] = m / top;
            }
            maps[size_t(row * o.tc + col)] = map;
        }
    std::vector<double> aLut;
    if (integer) {
        aLut.assign(size_t(sel2) + 1, 0.0);
        for (int64_t k = int64_t(sel1); k <= int64_t(sel2); ++k)
            aLut[k] = sel2 > sel1 ? (k - sel1) / (sel2 - sel1) : 0.0;
    } else {
        const double step = 1.0 / double(o.nbins - 1);
        const int64_t start = int64_t(std::ceil(sel1 / step)), stop = int64_t(std::floor(sel2 / step));
        aLut.assign(size_t(stop + 1), 0.0);
        const int64_t len = stop - start + 1;
        for (int64_t k = 0; k < len; ++k) aLut[start + k] = len > 1 ? k * (1.0 / double(len - 1)) : 0.0;
    }
    Mat out = P;
    int64_t imgRow = 0;
    for (int64_t k = 1; k <= o.tr + 1; ++k) {
        const int64_t nr = (k == 1 || k == o.tr + 1) ? dimTile[0] / 2 : dimTile[0];
        const int64_t mr0 = k == 1 ? 0 : k == o.tr + 1 ? o.tr - 1 : k - 2, mr1 = k == 1 ? 0 : k == o.tr + 1 ? o.tr - 1 : k - 1;
        int64_t imgCol = 0;
        for (int64_t l = 1; l <= o.tc + 1; ++l) {
            const int64_t nc = (l == 1 || l == o.tc + 1) ? dimTile[1] / 2 : dimTile[1];
            const int64_t mc0 = l == 1 ? 0 : l == o.tc + 1 ? o.tc - 1 : l - 2,
                          mc1 = l == 1 ? 0 : l == o.tc + 1 ? o.tc - 1 : l - 1;
            const auto& ul = maps[size_t(mr0 * o.tc + mc0)];
            const auto& ur = maps[size_t(mr0 * o.tc + mc1)];
            const auto& bl = maps[size_t(mr1 * o.tc + mc0)];
            const auto& br = maps[size_t(mr1 * o.tc + mc1)];
            for (int64_t i = 0; i < nr; ++i)
                for (int64_t j = 0; j < nc; ++j) {
                    const double px = grayxform(P(imgRow + i, imgCol + j), aLut, cls);
                    const double rowW = double(i), colW = double(j), rowRevW = double(nr - i), colRevW = double(nc - j);
                    out(imgRow + i, imgCol + j) =
                        (rowRevW * (colRevW * grayxform(px, ul, cls) + colW * grayxform(px, ur, cls)) +
                         rowW * (colRevW * grayxform(px, bl, cls) + colW * grayxform(px, br, cls))) /
                        double(nr * nc);
                }
            imgCol += nc;
        }
        imgRow += nr;
    }
    Mat res;
    res.r = I.r;
    res.c = I.c;
    res.v.resize(I.v.size());
    for (int64_t j = 0; j < I.c; ++j)
        for (int64_t i = 0; i < I.r; ++i) res(i, j) = out(i + pre[0], j + pre[1]);
    return res;
}

template <class T>
void compare_random(int64_t rows, int64_t cols, const Opts& o, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<T> vals(size_t(rows * cols));
    for (auto& x : vals) {
        if constexpr (std::is_floating_point_v<T>) x = T(std::uniform_real_distribution<double>(0.1, 0.7)(rng));
        else x = T(std::uniform_int_distribution<int64_t>(std::numeric_limits<T>::min() / 2 + std::numeric_limits<T>::max() / 4,
                                                          std::numeric_limits<T>::max() / 4 * 3)(rng));
    }
    const std::vector<T> got = clahe<T>(image<T>(rows, cols, vals), o);
    const std::string cls = std::is_same_v<T, uint8_t>    ? "uint8"
                            : std::is_same_v<T, uint16_t> ? "uint16"
                            : std::is_same_v<T, int16_t>  ? "uint16"
                            : std::is_same_v<T, float>    ? "single"
                                                          : "double";
    Mat I;
    I.r = rows;
    I.c = cols;
    I.v.resize(vals.size());
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
            I(i, j) = double(vals[size_t(i * cols + j)]) + (std::is_same_v<T, int16_t> ? 32768.0 : 0.0);
    Mat ref = reference(I, cls, o);
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
            double want = ref(i, j);
            if constexpr (!std::is_floating_point_v<T>) {
                want = std::min(cls == "uint8" ? 255.0 : 65535.0, std::floor(want + 0.5));
                if (std::is_same_v<T, int16_t>) want -= 32768;
                ASSERT_EQ(double(got[size_t(i * cols + j)]), want) << i << "," << j;
            } else {
                ASSERT_EQ(got[size_t(i * cols + j)], T(want)) << i << "," << j;
            }
        }
}

TEST(Adapthisteq, ConstantImageByHand) {
    // 16x16 of 100, 2x2 tiles of 64: clip 1 + round(0.01*63) = 2. Bin 100's
    // 62 excess counts go one each to bins 0, 4, ..., 248 except the full
    // bin 100, so the cumulative count at bin 100 is 25 + 2 = 27 and every
    // tile maps 100 to round(27*255/64) = round(107.58) = 108.
    Opts o;
    o.tr = o.tc = 2;
    const std::vector<uint8_t> J = clahe<uint8_t>(image<uint8_t>(16, 16, std::vector<uint8_t>(256, 100)), o);
    for (uint8_t v : J) EXPECT_EQ(v, 108);
}

TEST(Adapthisteq, OriginalRangeOfAConstantImageKeepsIt) {
    Opts o;
    o.tr = o.tc = 2;
    o.range = "original";
    for (uint8_t v : clahe<uint8_t>(image<uint8_t>(6, 5, std::vector<uint8_t>(30, 77)), o)) EXPECT_EQ(v, 77);
    for (double v : clahe<double>(image<double>(4, 4, std::vector<double>(16, 0.25)), o)) EXPECT_EQ(v, 0.25);
}

TEST(Adapthisteq, TwoTileRampMatchesTranscription) {
    // A 4x8 ramp over [1 2] tiles would need 2 rows of tiles: use [2 2]; every
    // tile holds distinct values, so each mapping is a staircase.
    Opts o;
    o.tr = 2, o.tc = 2, o.clip = 1;
    std::vector<uint8_t> ramp(32);
    for (int k = 0; k < 32; ++k) ramp[size_t(k)] = uint8_t(8 * k);
    const std::vector<uint8_t> got = clahe<uint8_t>(image<uint8_t>(4, 8, ramp), o);
    // Tiles are 2x4 of 8 pixels, no clipping (ClipLimit 1): top-left tile
    // holds 0,8,16,24 and 64,72,80,88; the top-left pixel (value 0) is in the
    // outer corner, so it takes that tile's mapping: 1 of 8 pixels at or
    // below bin 0, 255/8 = 31.875 -> 32.
    EXPECT_EQ(got[0], 32);
    // The last pixel (248) is the bottom-right tile's largest: 255.
    EXPECT_EQ(got[31], 255);
}

TEST(Adapthisteq, RandomImagesMatchTranscription) {
    uint32_t seed = 1;
    for (int64_t rows : {2, 9, 32})
        for (int64_t cols : {2, 13, 40}) {
            Opts o;
            o.tr = std::min<int64_t>(rows, 2 + seed % 3);
            o.tc = std::min<int64_t>(cols, 2 + seed % 2);
            compare_random<uint8_t>(rows, cols, o, seed++);
            compare_random<uint16_t>(rows, cols, o, seed++);
            compare_random<int16_t>(rows, cols, o, seed++);
            compare_random<float>(rows, cols, o, seed++);
            compare_random<double>(rows, cols, o, seed++);
        }
    for (const char* dist : {"uniform", "rayleigh", "exponential"})
        for (const char* range : {"full", "original"})
            for (int64_t nbins : {2, 37, 256, 1000}) {
                Opts o;
                o.tr = 3, o.tc = 4, o.nbins = nbins, o.range = range, o.dist = dist, o.alpha = 0.7;
                o.clip = (seed % 4) * 0.3;
                compare_random<uint8_t>(23, 31, o, seed++);
                compare_random<uint16_t>(23, 31, o, seed++);
                compare_random<int16_t>(23, 31, o, seed++);
                compare_random<float>(23, 31, o, seed++);
                compare_random<double>(23, 31, o, seed++);
            }
}

TEST(Adapthisteq, DefaultsOnALargerImage) {
    // The documented defaults: 8x8 tiles, ClipLimit 0.01, 256 bins.
    compare_random<uint8_t>(100, 75, Opts{}, 99);
    compare_random<double>(64, 64, Opts{}, 98);
}

// From 4 pixels per value of the class up, 8- and 16-bit images find their
// mapping bins through a table of every value (smaller ones per pixel).
TEST(Adapthisteq, SixteenBitImagesLargeEnoughForTheValueTable) {
    Opts o;
    o.tr = 3, o.tc = 5, o.nbins = 300;
    compare_random<uint16_t>(521, 509, o, 77);
    compare_random<int16_t>(512, 515, o, 78);
}

// uint8 images with at least 256 pixels per table pair blend eight pixels at
// a time, the ends of each tile column's run one at a time; smaller ones
// (above) pixel by pixel.
TEST(Adapthisteq, EightBitImagesLargeEnoughForTheTilePairTables) {
    uint32_t seed = 500;
    const int64_t shapes[][4] = {{67, 1031, 2, 3},  {161, 90, 3, 2},  {256, 256, 8, 8}, {130, 203, 4, 7},
                                 {3000, 3, 2, 2},   {2, 3000, 2, 2},  {45, 900, 2, 25}, {99, 17, 2, 2}};
    for (const auto& s : shapes) {
        Opts o;
        o.tr = s[2], o.tc = s[3];
        compare_random<uint8_t>(s[0], s[1], o, seed++);
    }
    for (const char* dist : {"uniform", "rayleigh", "exponential"})
        for (const char* range : {"full", "original"})
            for (int64_t nbins : {2, 100, 256, 1000}) {
                Opts o;
                o.tr = 3, o.tc = 5, o.nbins = nbins, o.range = range, o.dist = dist, o.alpha = 0.5;
                o.clip = (seed % 4) * 0.3;
                compare_random<uint8_t>(75, 133, o, seed++);
            }
}

TEST(Adapthisteq, Errors) {
    ipt::Call small(context(), "ipt.adapthisteq");
    small.image("I", image<uint8_t>(1, 5, {1, 2, 3, 4, 5}));
    IPT_EXPECT_ERROR(small.run(), IPT_ERR_INVALID_ARGUMENT, "at least");
    ipt::Call tiles(context(), "ipt.adapthisteq");
    tiles.image("I", image<uint8_t>(4, 4, std::vector<uint8_t>(16, 1)));
    IPT_EXPECT_ERROR(tiles.run(), IPT_ERR_INVALID_ARGUMENT, "too small");
    ipt::Call one(context(), "ipt.adapthisteq");
    one.image("I", image<uint8_t>(4, 4, std::vector<uint8_t>(16, 1))).numbers("NumTiles", {1, 2});
    IPT_EXPECT_ERROR(one.run(), IPT_ERR_INVALID_ARGUMENT, "NumTiles");
    ipt::Call bins(context(), "ipt.adapthisteq");
    bins.image("I", image<uint8_t>(4, 4, std::vector<uint8_t>(16, 1))).numbers("NumTiles", {2, 2}).integer("NBins", 1);
    IPT_EXPECT_ERROR(bins.run(), IPT_ERR_INVALID_ARGUMENT, "NBins");
    ipt::Call neg(context(), "ipt.adapthisteq");
    neg.image("I", image<double>(2, 2, {-0.5, 0, 0.5, 1})).numbers("NumTiles", {2, 2}).option("Range", "original");
    IPT_EXPECT_ERROR(neg.run(), IPT_ERR_INVALID_ARGUMENT, "original");
}

}  // namespace
