// SPDX-License-Identifier: Apache-2.0
// ipt.imwarp against values worked by hand and the independent resampler of
// warp_reference.hpp: the default output view (the transformed limits of A
// at A's pixel size, widened evenly to whole pixels), RB, affine and
// projective matrices, fill values, and a singular T.
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ipt_test.hpp"
#include "warp_reference.hpp"

namespace {

using ipt_test::image;

struct Result {
    ipt::Image B, RB;
};

// smooth: -1 leaves SmoothEdges at its default (0).
Result warp(const ipt::Image& a, std::vector<double> t, const std::string& interp = "",
            std::vector<double> view = {}, std::vector<double> fill = {}, int smooth = -1) {
    ipt::Call call(ipt_test::context(), "ipt.imwarp");
    call.image("A", a).numbers("T", t);
    if (!interp.empty()) call.option("interp", interp);
    if (!view.empty()) call.numbers("OutputView", view);
    if (!fill.empty()) call.numbers("FillValues", fill);
    if (smooth >= 0) call.integer("SmoothEdges", smooth);
    call.want("RB");
    call.run();
    Result r{call.take("B"), call.take("RB")};
    EXPECT_EQ(r.B.dtype(), a.dtype());
    return r;
}

TEST(Imwarp, IntegralShiftCopiesAndMovesRB) {
    const ipt::Image a = image<int16_t>(2, 3, {1, -2, 3, 4, 5, -6});
    for (const char* m : {"nearest", "linear", "cubic"}) {
        Result r = warp(a, {1, 0, 0, 0, 1, 0, 2, -3, 1}, m);
        EXPECT_EQ(r.B.download<int16_t>(), (std::vector<int16_t>{1, -2, 3, 4, 5, -6})) << m;
        EXPECT_EQ(r.RB.download<double>(), (std::vector<double>{2, 3, 2.5, 5.5, -2.5, -0.5})) << m;
    }
}

TEST(Imwarp, ScaleByTwoByHand) {
    // 1 x 2 [10 20] scaled by 2: world x in [1, 5], 4 columns at 1.5 .. 4.5,
    // from u = 0.75, 1.25, 1.75, 2.25; y in [1, 3], 2 rows from v = 0.75, 1.25.
    const ipt::Image a = image<double>(1, 2, {10, 20});
    Result r = warp(a, {2, 0, 0, 0, 2, 0, 0, 0, 1}, "linear", {}, {}, 1);
    EXPECT_EQ(r.B.rows(), 2);
    EXPECT_EQ(r.B.cols(), 4);
    // Row v = 0.75 mixes row 1 with the 0 above it (weight 0.75 on row 1);
    // v = 1.25 with the 0 below it, also 0.75 on row 1.
    const double row[4] = {0.75 * 10, 0.75 * 10 + 0.25 * 20, 0.25 * 10 + 0.75 * 20, 0.75 * 20};
    const auto b = r.B.download<double>();
    for (int j = 0; j < 4; ++j) {
        EXPECT_DOUBLE_EQ(b[j], 0.75 * row[j]) << j;
        EXPECT_DOUBLE_EQ(b[4 + j], 0.75 * row[j]) << j;
    }
    EXPECT_EQ(r.RB.download<double>(), (std::vector<double>{2, 4, 1, 5, 1, 3}));
    // Sharp edges (the default): no sample lies on A's one row of centres
    // (v = 0.75 and 1.25), so every pixel is the fill value.
    EXPECT_EQ(warp(a, {2, 0, 0, 0, 2, 0, 0, 0, 1}, "linear").B.download<double>(), std::vector<double>(8, 0));
}

TEST(Imwarp, OutputViewAndFill) {
    // An identity warp onto a larger grid: A where it lies, the fill elsewhere.
    const ipt::Image a = image<uint8_t>(2, 2, {1, 2, 3, 4});
    Result r = warp(a, {1, 0, 0, 0, 1, 0, 0, 0, 1}, "nearest", {3, 4, -0.5, 3.5, 0.5, 3.5}, {9});
    EXPECT_EQ(r.B.download<uint8_t>(), (std::vector<uint8_t>{9, 1, 2, 9, 9, 3, 4, 9, 9, 9, 9, 9}));
    EXPECT_EQ(r.RB.download<double>(), (std::vector<double>{3, 4, -0.5, 3.5, 0.5, 3.5}));
}

// Half a pixel to the right, on A's own grid: output column j samples
// x = j - 0.5. Sharp edges (the default): x = 0.5 is beyond A's first pixel
// centre, so the fill value; SmoothEdges blends A's first pixel with the
// fill. Keys' cubic reproduces a ramp, and its extrapolated column (3*10 -
// 3*20 + 30 = 0) continues it.
TEST(Imwarp, SharpEdgesByDefaultSmoothOnRequest) {
    const ipt::Image a = image<double>(1, 4, {10, 20, 30, 40});
    const std::vector<double> t = {1, 0, 0, 0, 1, 0, 0.5, 0, 1}, view = {1, 4, 0.5, 4.5, 0.5, 1.5};
    EXPECT_EQ(warp(a, t, "linear", view, {100}).B.download<double>(), (std::vector<double>{100, 15, 25, 35}));
    EXPECT_EQ(warp(a, t, "linear", view, {100}, 0).B.download<double>(), (std::vector<double>{100, 15, 25, 35}));
    EXPECT_EQ(warp(a, t, "linear", view, {100}, 1).B.download<double>(), (std::vector<double>{55, 15, 25, 35}));
    EXPECT_EQ(warp(a, t, "nearest", view, {100}).B.download<double>(), (std::vector<double>{100, 20, 30, 40}));
    EXPECT_EQ(warp(a, t, "nearest", view, {100}, 1).B.download<double>(), (std::vector<double>{10, 20, 30, 40}));
    auto near = [](const std::vector<double>& got, const std::vector<double>& want) {
        ASSERT_EQ(got.size(), want.size());
        for (size_t k = 0; k < got.size(); ++k) EXPECT_NEAR(got[k], want[k], 1e-12) << k;
    };
    near(warp(a, t, "cubic", view, {100}).B.download<double>(), {100, 15, 25, 35});
    // Smooth, the taps beyond A read the fill (Keys' weights at half a pixel:
    // -0.0625, 0.5625, 0.5625, -0.0625), e.g. x = 1.5 reads 100 at x = 0.
    near(warp(a, t, "cubic", view, {100}, 1).B.download<double>(), {54.375, 8.75, 25, 31.875});
    // A quarter pixel short of A's last centre the ramp holds too (3*40 - 3*30 + 20 = 50 beyond it).
    const std::vector<double> t2 = {1, 0, 0, 0, 1, 0, -0.25, 0, 1};
    near(warp(a, t2, "cubic", view, {100}).B.download<double>(), {12.5, 22.5, 32.5, 100});
}

TEST(Imwarp, SingularT) {
    const ipt::Image a = image<uint8_t>(2, 2, {1, 2, 3, 4});
    IPT_EXPECT_ERROR(warp(a, {1, 2, 0, 2, 4, 0, 0, 0, 1}), IPT_ERR_INVALID_ARGUMENT, "'T'");
}

template <class T>
void against_reference(double lo, double hi, double tol, int64_t rows = 11, int64_t cols = 14, int64_t channels = 3) {
    std::vector<T> values;
    const warp_reference::Planes a = warp_reference::random_planes<T>(rows, cols, channels, lo, hi, 5, &values);
    const ipt::Image img = image<T>(a.rows, a.cols, values, a.channels);
    const std::vector<std::vector<double>> tforms = {{0.9, 0.35, 0, -0.2, 1.1, 0, 3.5, -2.25, 1},
                                                     {1, 0, 0.004, 0.1, 1, 0.002, 0.3, 0, 1}};
    for (const int smooth : {-1, 1})
    for (const auto& t : tforms)
        for (const char* m : {"nearest", "linear", "cubic"}) {
            // The inverse by Cramer's rule, applied to [x y 1] with the projective divide.
            const double det = t[0] * (t[4] * t[8] - t[5] * t[7]) - t[1] * (t[3] * t[8] - t[5] * t[6]) +
                               t[2] * (t[3] * t[7] - t[4] * t[6]);
            const double inv[9] = {(t[4] * t[8] - t[5] * t[7]) / det, (t[2] * t[7] - t[1] * t[8]) / det,
                                   (t[1] * t[5] - t[2] * t[4]) / det, (t[5] * t[6] - t[3] * t[8]) / det,
                                   (t[0] * t[8] - t[2] * t[6]) / det, (t[2] * t[3] - t[0] * t[5]) / det,
                                   (t[3] * t[7] - t[4] * t[6]) / det, (t[1] * t[6] - t[0] * t[7]) / det,
                                   (t[0] * t[4] - t[1] * t[3]) / det};
            auto inverse = [&](double x, double y, double* uu, double* vv) {
                const double w = x * inv[2] + y * inv[5] + inv[8];
                *uu = (x * inv[0] + y * inv[3] + inv[6]) / w;
                *vv = (x * inv[1] + y * inv[4] + inv[7]) / w;
            };
            Result r = warp(img, t, m, {}, {2}, smooth);
            const std::vector<double> rb = r.RB.download<double>();
            // The default view: the corners' bounds, widened evenly to whole pixels.
            double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
            for (double x : {0.5, a.cols + 0.5})
                for (double y : {0.5, a.rows + 0.5}) {
                    const double w = x * t[2] + y * t[5] + t[8];
                    const double px = (x * t[0] + y * t[3] + t[6]) / w, py = (x * t[1] + y * t[4] + t[7]) / w;
                    x0 = std::min(x0, px), x1 = std::max(x1, px), y0 = std::min(y0, py), y1 = std::max(y1, py);
                }
            ASSERT_EQ(rb[0], std::ceil(y1 - y0));
            ASSERT_EQ(rb[1], std::ceil(x1 - x0));
            EXPECT_NEAR(rb[2], x0 - (rb[1] - (x1 - x0)) / 2, 1e-9);
            EXPECT_NEAR(rb[4], y0 - (rb[0] - (y1 - y0)) / 2, 1e-9);
            const warp_reference::Planes want = warp_reference::warp(a, rb.data(), inverse, m, {2}, smooth == 1);
            // Nearest at a tie (x or y at k + 0.5 to the last bits) may go
            // either way: the library maps through one composed matrix, the
            // reference through world coordinates. Either neighbour passes.
            const bool nearest = std::string(m) == "nearest";
            auto nudged = [&](double d) {
                if (!nearest) return warp_reference::Planes{};
                return warp_reference::warp(a, rb.data(), [&](double x, double y, double* uu, double* vv) {
                    inverse(x, y, uu, vv);
                    *uu += d;
                    *vv += d;
                }, m, {2}, smooth == 1);
            };
            const warp_reference::Planes below = nudged(-1e-9), above = nudged(1e-9);
            const std::vector<T> got = r.B.download<T>();
            ASSERT_EQ(got.size(), want.v.size());
            for (size_t e = 0; e < got.size(); ++e) {
                if (nearest && (static_cast<double>(got[e]) == warp_reference::in_class<T>(below.v[e]) ||
                                static_cast<double>(got[e]) == warp_reference::in_class<T>(above.v[e])))
                    continue;
                EXPECT_NEAR(static_cast<double>(got[e]), warp_reference::in_class<T>(want.v[e]), tol)
                    << m << " " << e << " SmoothEdges " << smooth;
            }
        }
}

TEST(Imwarp, DoubleAgainstBruteForce) { against_reference<double>(-1, 2, 1e-9); }
TEST(Imwarp, SingleAgainstBruteForce) { against_reference<float>(0, 1, 1e-5); }
TEST(Imwarp, Uint16AgainstBruteForce) { against_reference<uint16_t>(0, 65535, 1); }

// Outputs wider than the resampler's 64-pixel blocks, with a partial last
// block, rows that start and end in the fill region, and integer classes of
// both conversions (16-bit and 32-bit).
TEST(Imwarp, WideRowsAgainstBruteForce) {
    against_reference<double>(-1, 2, 1e-9, 23, 150, 1);
    against_reference<uint8_t>(0, 255, 1, 23, 150, 3);
    against_reference<int32_t>(-100000, 100000, 1, 17, 131, 1);
}

TEST(Imwarp, Logical) {
    const ipt::Image a = ipt_test::logical(2, 2, {1, 0, 0, 1});
    Result r = warp(a, {1, 0, 0, 0, 1, 0, 0.5, 0, 1}, "linear", {2, 2, 0.5, 2.5, 0.5, 2.5}, {}, 1);
    EXPECT_EQ(r.B.dtype(), IPT_LOGICAL);
    // Samples at x = 0.5 (half A's first pixel, half the fill 0) and 1.5 on
    // each row: 0.5 rounds to 1.
    EXPECT_EQ(r.B.download<uint8_t>(), (std::vector<uint8_t>{1, 1, 0, 1}));
    // Sharp edges: x = 0.5 is beyond A's first centre, the fill.
    r = warp(a, {1, 0, 0, 0, 1, 0, 0.5, 0, 1}, "linear", {2, 2, 0.5, 2.5, 0.5, 2.5});
    EXPECT_EQ(r.B.download<uint8_t>(), (std::vector<uint8_t>{0, 1, 0, 1}));
}

}  // namespace
