// SPDX-License-Identifier: Apache-2.0
// ipt.dither against hand-worked cases and a straightforward transcription of
// MATLAB's ditherc definition (docs/matlab-semantics.md#dither): whole-image integer
// accumulators, a full inverse colormap, column-major scan.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

ipt::Image dither_call(const ipt::Image& img, const std::vector<double>* map = nullptr, int qm = 0,
                       int qe = 0) {
    ipt::Call call(context(), "ipt.dither");
    call.image("I", img);
    ipt::Image map_img;
    if (map) {
        map_img = image<double>(static_cast<int64_t>(map->size() / 3), 3, *map);
        call.image("map", map_img);
    }
    if (qm) call.integer("Qm", qm);
    if (qe) call.integer("Qe", qe);
    call.run();
    ipt::Image x = call.take("X");
    EXPECT_EQ(x.rows(), img.rows());
    EXPECT_EQ(x.cols(), img.cols());
    EXPECT_EQ(x.channels(), 1);
    return x;
}

std::vector<uint8_t> dither_gray(const ipt::Image& img) {
    ipt::Image x = dither_call(img);
    EXPECT_EQ(x.dtype(), IPT_LOGICAL);
    return x.download<uint8_t>();
}

// im2uint8 as MATLAB rounds it (half away from zero, saturate).
template <class T>
int to_u8(T v) {
    double x;
    if constexpr (std::is_same_v<T, uint8_t>) return v;
    else if constexpr (std::is_same_v<T, uint16_t>) x = v / 257.0;
    else if constexpr (std::is_same_v<T, float>) x = static_cast<double>(255.0f * v);
    else x = 255.0 * v;
    if (std::isnan(x)) return 0;
    return static_cast<int>(std::clamp(std::floor(x + 0.5), 0.0, 255.0));
}

// The definition. planes: 3 planes of rows*cols values (row-major); map n x 3.
template <class T>
std::vector<int> reference(const std::vector<const T*>& planes, int64_t rows, int64_t cols,
                           const std::vector<double>& map, int qm, int qe) {
    const int bits = std::max(qm, qe);
    const int64_t levels = int64_t(1) << bits, w = int64_t(1) << (bits - qm), cells = int64_t(1) << qm;
    const int64_t n = static_cast<int64_t>(map.size() / 3);
    std::vector<int64_t> mapq(map.size());
    for (size_t i = 0; i < map.size(); ++i) mapq[i] = static_cast<int64_t>(std::floor(map[i] * (levels - 1) + 0.5));
    // Full inverse colormap: nearest colour to each cell centre, first on ties.
    std::vector<int> inverse(cells * cells * cells);
    for (int64_t i = 0; i < cells; ++i)
        for (int64_t j = 0; j < cells; ++j)
            for (int64_t k = 0; k < cells; ++k) {
                const int64_t c[3] = {i * w + w / 2, j * w + w / 2, k * w + w / 2};
                int64_t best = std::numeric_limits<int64_t>::max();
                int best_idx = 0;
                for (int64_t e = 0; e < n; ++e) {
                    int64_t d = 0;
                    for (int ch = 0; ch < 3; ++ch) d += (c[ch] - mapq[3 * e + ch]) * (c[ch] - mapq[3 * e + ch]);
                    if (d < best) {
                        best = d;
                        best_idx = static_cast<int>(e);
                    }
                }
                inverse[(i * cells + j) * cells + k] = best_idx;
            }
    // Accumulators for the whole image, per channel.
    std::vector<int64_t> acc(3 * rows * cols);
    for (int ch = 0; ch < 3; ++ch)
        for (int64_t p = 0; p < rows * cols; ++p)
            acc[ch * rows * cols + p] =
                static_cast<int64_t>(std::floor(to_u8(planes[ch][p]) * double(levels - 1) / 255 + 0.5));
    auto share = [&](int64_t e, int64_t nn) -> int64_t {
        if (e == 0) return 0;  // sign(0) = 0, even when floor(L/32) >= 16
        const int64_t mag = (levels / 32 + nn * std::abs(e)) / 16;
        return e < 0 ? -mag : mag;
    };
    std::vector<int> x(rows * cols);
    for (int64_t c = 0; c < cols; ++c)
        for (int64_t r = 0; r < rows; ++r) {
            int64_t v[3], cell[3];
            for (int ch = 0; ch < 3; ++ch) {
                v[ch] = std::clamp<int64_t>(acc[ch * rows * cols + r * cols + c], 0, levels - 1);
                cell[ch] = v[ch] / w;
            }
            const int idx = inverse[(cell[0] * cells + cell[1]) * cells + cell[2]];
            x[r * cols + c] = idx;
            for (int ch = 0; ch < 3; ++ch) {
                const int64_t e = v[ch] - mapq[3 * idx + ch];
                auto add = [&](int64_t rr, int64_t cc, int64_t nn) {
                    if (rr >= 0 && rr < rows && cc < cols) acc[ch * rows * cols + rr * cols + cc] += share(e, nn);
                };
                add(r + 1, c, 7);
                add(r, c + 1, 5);
                add(r - 1, c + 1, 3);
                add(r + 1, c + 1, 1);
            }
        }
    return x;
}

template <class T>
std::vector<int> reference_gray(const std::vector<T>& img, int64_t rows, int64_t cols) {
    return reference<T>({img.data(), img.data(), img.data()}, rows, cols, {0, 0, 0, 1, 1, 1}, 5, 8);
}

std::vector<uint8_t> as_bytes(const std::vector<int>& v) { return std::vector<uint8_t>(v.begin(), v.end()); }

TEST(Dither, GrayThresholdIs128) {
    EXPECT_EQ(dither_gray(image<uint8_t>(1, 1, {127})), std::vector<uint8_t>{0});
    EXPECT_EQ(dither_gray(image<uint8_t>(1, 1, {128})), std::vector<uint8_t>{1});
    EXPECT_EQ(dither_gray(image<double>(1, 1, {0.5})), std::vector<uint8_t>{1});  // 127.5 -> 128
    EXPECT_EQ(dither_gray(image<double>(1, 1, {0.498})), std::vector<uint8_t>{0});
    // NaN converts to uint8 0 (MATLAB's im2uint8), so it stays black and
    // diffuses no error: the pixel below is then 128 -> white.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(dither_gray(image<double>(2, 1, {nan, 128 / 255.0})), (std::vector<uint8_t>{0, 1}));
    EXPECT_EQ(dither_gray(image<float>(1, 1, {0.5f})), std::vector<uint8_t>{1});
    EXPECT_EQ(dither_gray(image<uint16_t>(1, 1, {32896})), std::vector<uint8_t>{1});  // 128*257
    EXPECT_EQ(dither_gray(image<uint16_t>(1, 1, {32639})), std::vector<uint8_t>{0});  // 127*257
}

// Worked by hand: 2x2 of 100, column-major. (1,1) 100 -> black, err 100:
// below +44 -> 144, right +31 -> 131, below-right +6 -> 106. (2,1) 144 -> white,
// err -111: right -35 -> 71, up-right -21 -> 110. (1,2) 110 -> black, err 110:
// below +48 -> 119. (2,2) 119 -> black. (A row-major scan gives [0 1; 0 0].)
TEST(Dither, HandWorkedColumnMajorScan) {
    EXPECT_EQ(dither_gray(image<uint8_t>(2, 2, {100, 100, 100, 100})),
              (std::vector<uint8_t>{0, 0, 1, 0}));
}

TEST(Dither, ConstantImages) {
    EXPECT_EQ(dither_gray(image<uint8_t>(5, 6, std::vector<uint8_t>(30, 0))), std::vector<uint8_t>(30, 0));
    EXPECT_EQ(dither_gray(image<uint8_t>(5, 6, std::vector<uint8_t>(30, 255))), std::vector<uint8_t>(30, 1));
    EXPECT_EQ(dither_gray(image<double>(4, 4, std::vector<double>(16, 2.0))), std::vector<uint8_t>(16, 1));
    EXPECT_EQ(dither_gray(image<double>(4, 4, std::vector<double>(16, -1.0))), std::vector<uint8_t>(16, 0));
    // Mid-gray: about a quarter white for 64, exactly as the definition says.
    const std::vector<uint8_t> gray(64 * 64, 64);
    auto bw = dither_gray(image<uint8_t>(64, 64, gray));
    EXPECT_EQ(bw, as_bytes(reference_gray(gray, 64, 64)));
    const int white = static_cast<int>(std::count(bw.begin(), bw.end(), 1));
    EXPECT_NEAR(white, 64 * 64 / 4, 64 * 64 / 20);
}

template <class T>
void random_gray(unsigned seed) {
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 8; ++trial) {
        const int64_t rows = 1 + rng() % 40, cols = 1 + rng() % 40;
        std::vector<T> v(rows * cols);
        for (auto& x : v) {
            if constexpr (std::is_floating_point_v<T>) x = static_cast<T>((rng() % 1200) / 1000.0 - 0.1);
            else x = static_cast<T>(rng());
        }
        EXPECT_EQ(dither_gray(image<T>(rows, cols, v)), as_bytes(reference_gray(v, rows, cols)))
            << rows << "x" << cols;
    }
}

TEST(Dither, RandomGrayUint8) { random_gray<uint8_t>(1); }
TEST(Dither, RandomGrayUint16) { random_gray<uint16_t>(2); }
TEST(Dither, RandomGraySingle) { random_gray<float>(3); }
TEST(Dither, RandomGrayDouble) { random_gray<double>(4); }

std::vector<double> random_map(std::mt19937& rng, int n) {
    std::vector<double> map(3 * n);
    for (auto& m : map) m = (rng() % 1001) / 1000.0;
    return map;
}

TEST(Dither, RgbWithMapAgainstDefinition) {
    std::mt19937 rng(5);
    const std::pair<int, int> q[] = {{5, 8}, {4, 8}, {6, 8}, {5, 6}, {3, 4}, {6, 4}, {5, 10}, {1, 1}};
    for (auto [qm, qe] : q) {
        const int64_t rows = 1 + rng() % 25, cols = 1 + rng() % 25;
        std::vector<uint8_t> rgb(3 * rows * cols);
        for (auto& x : rgb) x = static_cast<uint8_t>(rng());
        const auto map = random_map(rng, 2 + rng() % 30);
        ipt::Image x = dither_call(image<uint8_t>(rows, cols, rgb, 3), &map, qm, qe);
        EXPECT_EQ(x.dtype(), IPT_UINT8);
        const uint8_t* p = rgb.data();
        const auto want = reference<uint8_t>({p, p + rows * cols, p + 2 * rows * cols}, rows, cols, map, qm, qe);
        EXPECT_EQ(x.download<uint8_t>(), as_bytes(want)) << "Qm " << qm << " Qe " << qe;
    }
}

TEST(Dither, RgbDoubleWithDefaultQ) {
    std::mt19937 rng(6);
    const int64_t rows = 19, cols = 23;
    std::vector<double> rgb(3 * rows * cols);
    for (auto& x : rgb) x = (rng() % 1000) / 999.0;
    const auto map = random_map(rng, 64);
    ipt::Image x = dither_call(image<double>(rows, cols, rgb, 3), &map);
    const double* p = rgb.data();
    const auto want = reference<double>({p, p + rows * cols, p + 2 * rows * cols}, rows, cols, map, 5, 8);
    EXPECT_EQ(x.download<uint8_t>(), as_bytes(want));
}

TEST(Dither, MoreThan256ColoursGiveUint16) {
    std::mt19937 rng(8);
    const int64_t rows = 12, cols = 9;
    std::vector<uint8_t> rgb(3 * rows * cols);
    for (auto& x : rgb) x = static_cast<uint8_t>(rng());
    const auto map = random_map(rng, 300);
    ipt::Image x = dither_call(image<uint8_t>(rows, cols, rgb, 3), &map);
    EXPECT_EQ(x.dtype(), IPT_UINT16);
    const uint8_t* p = rgb.data();
    const auto want = reference<uint8_t>({p, p + rows * cols, p + 2 * rows * cols}, rows, cols, map, 5, 8);
    const auto got = x.download<uint16_t>();
    EXPECT_EQ(std::vector<int>(got.begin(), got.end()), want);
    // Exactly 256 colours still fit uint8.
    const auto map256 = random_map(rng, 256);
    EXPECT_EQ(dither_call(image<uint8_t>(rows, cols, rgb, 3), &map256).dtype(), IPT_UINT8);
}

TEST(Dither, EqualColoursResolveToTheLowestIndex) {
    const std::vector<double> map = {0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0};
    std::mt19937 rng(9);
    std::vector<uint8_t> rgb(3 * 20 * 20);
    for (auto& x : rgb) x = static_cast<uint8_t>(rng());
    auto x = dither_call(image<uint8_t>(20, 20, rgb, 3), &map).download<uint8_t>();
    for (uint8_t v : x) EXPECT_LE(v, 1);
    EXPECT_NE(std::count(x.begin(), x.end(), 1), 0);
    EXPECT_NE(std::count(x.begin(), x.end(), 0), 0);
}

TEST(Dither, EdgeShapes) {
    std::mt19937 rng(10);
    const auto map = random_map(rng, 8);
    for (auto [rows, cols] : {std::pair<int64_t, int64_t>{1, 1}, {1, 17}, {17, 1}}) {
        std::vector<uint8_t> rgb(3 * rows * cols);
        for (auto& x : rgb) x = static_cast<uint8_t>(rng());
        const uint8_t* p = rgb.data();
        const auto want = reference<uint8_t>({p, p + rows * cols, p + 2 * rows * cols}, rows, cols, map, 5, 8);
        EXPECT_EQ(dither_call(image<uint8_t>(rows, cols, rgb, 3), &map).download<uint8_t>(), as_bytes(want));
        std::vector<uint8_t> g(rgb.begin(), rgb.begin() + rows * cols);
        EXPECT_EQ(dither_gray(image<uint8_t>(rows, cols, g)), as_bytes(reference_gray(g, rows, cols)));
    }
}

TEST(Dither, LargerGrayImage) {
    std::mt19937 rng(12);
    const int64_t rows = 300, cols = 257;
    std::vector<uint8_t> v(rows * cols);
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) v[r * cols + c] = static_cast<uint8_t>((r + c + rng() % 8) % 256);
    EXPECT_EQ(dither_gray(image<uint8_t>(rows, cols, v)), as_bytes(reference_gray(v, rows, cols)));
}

void expect_rejected(const ipt::Image& img, const std::vector<double>* map, const char* name) {
    ipt::Call call(context(), "ipt.dither");
    call.image("I", img);
    ipt::Image map_img;
    if (map) {
        map_img = image<double>(static_cast<int64_t>(map->size() / 3), 3, *map);
        call.image("map", map_img);
    }
    IPT_EXPECT_ERROR(call.run(), IPT_ERR_INVALID_ARGUMENT, name);
    IPT_EXPECT_ERROR(call.take("X"), IPT_ERR_NOT_FOUND, "X");  // no output on failure
}

TEST(Dither, RejectsBadMapAndChannelMismatch) {
    const auto rgb = image<uint8_t>(2, 2, std::vector<uint8_t>(12, 9), 3);
    const std::vector<double> above = {0, 0, 0, 1.5, 1, 1};
    const std::vector<double> below = {0, -0.1, 0, 1, 1, 1};
    const std::vector<double> nan = {0, std::numeric_limits<double>::quiet_NaN(), 0, 1, 1, 1};
    expect_rejected(rgb, &above, "map");
    expect_rejected(rgb, &below, "map");
    expect_rejected(rgb, &nan, "map");
    const std::vector<double> good = {0, 0, 0, 1, 1, 1};
    expect_rejected(image<uint8_t>(2, 2, {1, 2, 3, 4}), &good, "I");  // map needs RGB
    expect_rejected(rgb, nullptr, "I");                                // RGB needs a map
}

// An image without pixels gives an empty X of its size at once, however
// long its other side (nothing is sized by it).
void dither_empty_images() {
    const std::vector<double> map = {0, 0, 0, 1, 1, 1, 1, 0, 0};
    for (auto [rows, cols] : {std::pair<int64_t, int64_t>{int64_t{1} << 30, 0}, {0, int64_t{1} << 30}}) {
        const ipt::Image gray = context().upload(IPT_UINT8, rows, cols, nullptr);
        EXPECT_EQ(dither_call(gray).dtype(), IPT_LOGICAL);
        const ipt::Image rgb = context().upload(IPT_UINT8, rows, cols, nullptr, 3);
        EXPECT_EQ(dither_call(rgb, &map).dtype(), IPT_UINT8);
    }
}

// In a child process that SIGALRM ends after 10 s, so work proportional to
// the long side fails the test instead of hanging it.
TEST(DitherDeathTest, EmptyImagesWithAHugeOtherSideReturnAtOnce) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            ::alarm(10);
            dither_empty_images();
            std::_Exit(::testing::Test::HasFailure() ? 1 : 0);
        },
        ::testing::ExitedWithCode(0), "");
}

}  // namespace
