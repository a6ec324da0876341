// SPDX-License-Identifier: Apache-2.0
// ipt.adaptthresh: the scale factors of the sensitivity and polarity on
// constant images, a hand-computed window mean with replicated borders, the
// default neighbourhood 2*floor(size/16)+1, clipping to [0,1] (NaN gives 1),
// every class's conversion to [0,1], empty images, the refusals, and random
// images against a brute-force window mean; imbinarize's 'adaptive' on a
// hand example and against the same brute force. 'median' and 'gaussian'
// against a direct median with mirrored borders and a direct Gaussian-weighted
// sum with replicated borders (sigma = the neighbourhood size).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

struct Options {
    double sensitivity = 0.5;
    std::vector<double> nhood;
    const char* polarity = nullptr;
    const char* statistic = nullptr;
};

std::vector<double> adaptthresh(const ipt::Image& I, const Options& o = {}) {
    ipt::Call call(context(), "ipt.adaptthresh");
    call.image("I", I);
    call.number("sensitivity", o.sensitivity);
    if (!o.nhood.empty()) call.numbers("NeighborhoodSize", o.nhood);
    if (o.polarity) call.option("ForegroundPolarity", o.polarity);
    if (o.statistic) call.option("Statistic", o.statistic);
    call.run();
    ipt::Image t = call.take("T");
    EXPECT_EQ(t.dtype(), IPT_DOUBLE);
    EXPECT_EQ(t.rows(), I.rows());
    EXPECT_EQ(t.cols(), I.cols());
    return t.download<double>();
}

// MATLAB's rule written out: replicated borders, the plain window sum, the
// factor, the clip (values stored row-major as the test images are).
std::vector<double> brute(const std::vector<double>& unit, int64_t rows, int64_t cols, int64_t nr, int64_t nc,
                          double scale) {
    std::vector<double> t(unit.size());
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
            double s = 0;
            for (int64_t i = -(nr - 1) / 2; i <= (nr - 1) / 2; ++i)
                for (int64_t j = -(nc - 1) / 2; j <= (nc - 1) / 2; ++j) {
                    const int64_t rr = std::min(std::max<int64_t>(r + i, 0), rows - 1);
                    const int64_t cc = std::min(std::max<int64_t>(c + j, 0), cols - 1);
                    s += unit[rr * cols + cc];
                }
            const double v = s * scale / double(nr * nc);
            t[r * cols + c] = std::isnan(v) ? 1 : std::max(std::min(v, 1.0), 0.0);
        }
    return t;
}

void expect_near(const std::vector<double>& got, const std::vector<double>& want, double tol) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << i;
}

// Bright: 0.6 + (1 - s); dark: 0.4 + s (MathWorks: 0.5 gives 1.1 and 0.9).
TEST(Adaptthresh, ScaleFactorsOnConstantImages) {
    const ipt::Image I = image<double>(4, 4, std::vector<double>(16, 0.5));
    expect_near(adaptthresh(I), std::vector<double>(16, 0.55), 1e-15);
    expect_near(adaptthresh(I, {0.0, {}}), std::vector<double>(16, 0.8), 1e-15);
    expect_near(adaptthresh(I, {1.0, {}}), std::vector<double>(16, 0.3), 1e-15);
    expect_near(adaptthresh(I, {0.5, {}, "dark"}), std::vector<double>(16, 0.45), 1e-15);
    expect_near(adaptthresh(I, {1.0, {}, "dark"}), std::vector<double>(16, 0.7), 1e-15);
    // 255 of uint8 is 1: 1.1 is clipped to 1; 0 stays 0.
    EXPECT_EQ(adaptthresh(image<uint8_t>(2, 3, std::vector<uint8_t>(6, 255))), std::vector<double>(6, 1.0));
    EXPECT_EQ(adaptthresh(image<uint8_t>(2, 3, std::vector<uint8_t>(6, 0))), std::vector<double>(6, 0.0));
}

// [0 0 1 0 0] with a 1x3 window, replicated ends, scale 1 (sensitivity 0.6).
TEST(Adaptthresh, WindowMeanWithReplicatedBorders) {
    const ipt::Image I = image<double>(1, 5, {0, 0, 1, 0, 0});
    expect_near(adaptthresh(I, {0.6, {1, 3}}), {0, 1.0 / 3, 1.0 / 3, 1.0 / 3, 0}, 1e-15);
    // A scalar size is square; 3x3 over one row replicates it up and down.
    expect_near(adaptthresh(I, {0.6, {3}}), {0, 1.0 / 3, 1.0 / 3, 1.0 / 3, 0}, 1e-15);
    // The edge value replicated: [1 0 0] -> (1+1+0)/3 at the first element.
    expect_near(adaptthresh(image<double>(1, 3, {1, 0, 0}), {0.6, {1, 3}}), {2.0 / 3, 1.0 / 3, 0}, 1e-15);
}

// 2*floor(size/16)+1: 33x20 takes a 5x3 window.
TEST(Adaptthresh, DefaultNeighbourhood) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<double> v(33 * 20);
    for (double& x : v) x = u(rng);
    expect_near(adaptthresh(image<double>(33, 20, v)), brute(v, 33, 20, 5, 3, 1.1), 1e-13);
}

TEST(Adaptthresh, EveryClassOnTheUnitScale) {
    const Options one{0.6, {1}};  // scale 1, the value itself
    expect_near(adaptthresh(image<uint8_t>(1, 2, {51, 255}), one), {0.2, 1}, 1e-15);
    expect_near(adaptthresh(image<uint16_t>(1, 2, {0, 13107}), one), {0, 0.2}, 1e-15);
    expect_near(adaptthresh(image<int16_t>(1, 3, {-32768, 0, 32767}), one), {0, 32768.0 / 65535, 1}, 1e-15);
    expect_near(adaptthresh(image<uint32_t>(1, 2, {0u, 4294967295u}), one), {0, 1}, 1e-15);
    expect_near(adaptthresh(image<int32_t>(1, 2, {std::numeric_limits<int32_t>::min(), 0}), one),
                {0, 2147483648.0 / 4294967295}, 1e-15);
    expect_near(adaptthresh(image<float>(1, 3, {0.25f, -1.f, 2.f}), one), {0.25, 0, 1}, 1e-15);
    EXPECT_EQ(adaptthresh(image<double>(1, 1, {std::nan("")}), one), std::vector<double>{1.0});
}

TEST(Adaptthresh, EmptyImageAndRefusals) {
    EXPECT_TRUE(adaptthresh(image<uint8_t>(0, 3, {})).empty());
    const ipt::Image I = image<uint8_t>(2, 2, {1, 2, 3, 4});
    IPT_EXPECT_ERROR(adaptthresh(I, {0.5, {2, 3}}), IPT_ERR_INVALID_ARGUMENT, "NeighborhoodSize");
    IPT_EXPECT_ERROR(adaptthresh(I, {0.5, {3, 2}, nullptr, "median"}), IPT_ERR_INVALID_ARGUMENT, "NeighborhoodSize");
    IPT_EXPECT_ERROR(adaptthresh(I, {0.5, {4}, nullptr, "gaussian"}), IPT_ERR_INVALID_ARGUMENT, "NeighborhoodSize");
    EXPECT_TRUE(adaptthresh(image<uint8_t>(0, 3, {}), {0.5, {}, nullptr, "median"}).empty());
    EXPECT_TRUE(adaptthresh(image<double>(4, 0, {}), {0.5, {}, nullptr, "gaussian"}).empty());
}

// padarray's 'symmetric' index: mirrored with the edge repeated, periodic.
int64_t mirror(int64_t i, int64_t n) {
    i %= 2 * n;
    if (i < 0) i += 2 * n;
    return i < n ? i : 2 * n - 1 - i;
}

double clip(double v) { return std::isnan(v) ? 1 : std::max(std::min(v, 1.0), 0.0); }

// scale * medfilt2(U, [nr nc], 'symmetric'), clipped.
std::vector<double> brute_median(const std::vector<double>& unit, int64_t rows, int64_t cols, int64_t nr, int64_t nc,
                                 double scale) {
    std::vector<double> t(unit.size()), w;
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
            w.clear();
            for (int64_t i = -(nr - 1) / 2; i <= (nr - 1) / 2; ++i)
                for (int64_t j = -(nc - 1) / 2; j <= (nc - 1) / 2; ++j)
                    w.push_back(unit[mirror(r + i, rows) * cols + mirror(c + j, cols)]);
            std::sort(w.begin(), w.end());
            t[r * cols + c] = clip(scale * w[w.size() / 2]);
        }
    return t;
}

// scale * imgaussfilt(U, [nr nc]): a (4nr+1) x (4nc+1) kernel
// exp(-(x^2/nc^2 + y^2/nr^2)/2) divided by its sum, replicated borders.
std::vector<double> brute_gauss(const std::vector<double>& unit, int64_t rows, int64_t cols, int64_t nr, int64_t nc,
                                double scale) {
    const int64_t rr = 2 * nr, rc = 2 * nc;
    auto weight = [&](int64_t i, int64_t j) {
        return std::exp(-(double(j * j) / double(nc * nc) + double(i * i) / double(nr * nr)) / 2);
    };
    double total = 0;
    for (int64_t i = -rr; i <= rr; ++i)
        for (int64_t j = -rc; j <= rc; ++j) total += weight(i, j);
    std::vector<double> t(unit.size());
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
            double s = 0;
            for (int64_t i = -rr; i <= rr; ++i)
                for (int64_t j = -rc; j <= rc; ++j) {
                    const double h = weight(i, j) / total;
                    const int64_t y = std::min(std::max<int64_t>(r + i, 0), rows - 1);
                    const int64_t x = std::min(std::max<int64_t>(c + j, 0), cols - 1);
                    s += h * unit[y * cols + x];
                }
            t[r * cols + c] = clip(scale * s);
        }
    return t;
}

TEST(AdaptthreshMedian, HandExampleWithMirroredBorders) {
    // [0 1 0 0 1] padded symmetric to [0 | 0 1 0 0 1 | 1]: medians of three.
    const Options o{0.6, {1, 3}, nullptr, "median"};
    EXPECT_EQ(adaptthresh(image<double>(1, 5, {0, 1, 0, 0, 1}), o), (std::vector<double>{0, 0, 0, 0, 1}));
    // Scaled then clipped: 0.4 + 0.5 times the median.
    EXPECT_EQ(adaptthresh(image<uint8_t>(3, 1, {0, 255, 255}), {0.5, {3, 1}, "dark", "median"}),
              (std::vector<double>{0.0, 0.9, 0.9}));
    EXPECT_EQ(adaptthresh(image<double>(1, 1, {0.5}), {0.5, {}, nullptr, "median"}), std::vector<double>{0.55});
}

TEST(AdaptthreshMedian, RandomImagesEveryClass) {
    std::mt19937 rng(21);
    std::uniform_int_distribution<int> byte(0, 255);
    const double scale = 0.6 + (1 - 0.3);
    for (auto [rows, cols, nr, nc] :
         {std::array<int64_t, 4>{23, 17, 5, 3}, {1, 9, 3, 5}, {9, 1, 7, 1}, {6, 5, 11, 13}}) {
        std::vector<uint8_t> v(rows * cols);
        std::vector<double> unit(v.size());
        for (size_t i = 0; i < v.size(); ++i) v[i] = uint8_t(byte(rng)), unit[i] = v[i] / 255.0;
        const Options o{0.3, {double(nr), double(nc)}, nullptr, "median"};
        EXPECT_EQ(adaptthresh(image<uint8_t>(rows, cols, v), o), brute_median(unit, rows, cols, nr, nc, scale));
        EXPECT_EQ(adaptthresh(image<double>(rows, cols, unit), o), brute_median(unit, rows, cols, nr, nc, scale));
    }
    // Every class on the unit scale, a 3x3 median of a 3x3 image.
    const Options o{0.6, {3}, nullptr, "median"};
    std::vector<double> u16(9), s16(9), f32(9);
    std::vector<uint16_t> a(9);
    std::vector<int16_t> b(9);
    std::vector<float> f(9);
    for (int i = 0; i < 9; ++i) {
        a[i] = uint16_t(7000 * i), u16[i] = a[i] / 65535.0;
        b[i] = int16_t(7000 * i - 30000), s16[i] = (b[i] + 32768.0) / 65535.0;
        f[i] = float(i) / 4 - 0.5f, f32[i] = f[i];
    }
    EXPECT_EQ(adaptthresh(image<uint16_t>(3, 3, a), o), brute_median(u16, 3, 3, 3, 3, 1.0));
    EXPECT_EQ(adaptthresh(image<int16_t>(3, 3, b), o), brute_median(s16, 3, 3, 3, 3, 1.0));
    EXPECT_EQ(adaptthresh(image<float>(3, 3, f), o), brute_median(f32, 3, 3, 3, 3, 1.0));
    // One row mirrored into three: the first window holds six 0s and three 1s.
    EXPECT_EQ(adaptthresh(image<uint32_t>(1, 3, {0u, 4294967295u, 4294967295u}), o), (std::vector<double>{0, 1, 1}));
    const double half = 2147483648.0 / 4294967295;
    EXPECT_EQ(adaptthresh(image<int32_t>(1, 3, {std::numeric_limits<int32_t>::min(), 0, 0}), o),
              (std::vector<double>{0, half, half}));
}

TEST(AdaptthreshGaussian, ConstantAndHandValues) {
    // A constant image keeps its value (the taps sum to 1): T = scale * v.
    expect_near(adaptthresh(image<double>(4, 4, std::vector<double>(16, 0.5)), {0.5, {}, nullptr, "gaussian"}),
                std::vector<double>(16, 0.55), 1e-15);
    expect_near(adaptthresh(image<uint8_t>(1, 1, {51}), {0.5, {}, "dark", "gaussian"}), {0.18}, 1e-15);
    // 1x1 window on a 1x3 row: sigma 1, 5 taps e^(-x^2/2), the edges replicated.
    const double e1 = std::exp(-0.5), e2 = std::exp(-2.0), sum = 1 + 2 * e1 + 2 * e2;
    expect_near(adaptthresh(image<double>(1, 3, {0, 1, 0}), {0.6, {1}, nullptr, "gaussian"}),
                {e1 / sum, 1 / sum, e1 / sum}, 1e-15);
}

TEST(AdaptthreshGaussian, RandomImagesAgainstBruteForce) {
    std::mt19937 rng(31);
    std::uniform_real_distribution<double> u(-0.1, 1.1);
    // Direct (5x5, 5x9) and separable (13x5 and larger) routes.
    for (auto [rows, cols, nr, nc] :
         {std::array<int64_t, 4>{19, 23, 1, 1}, {1, 17, 1, 3}, {12, 1, 3, 1}, {30, 20, 3, 1}, {25, 31, 5, 3}}) {
        std::vector<double> v(rows * cols);
        for (double& x : v) x = u(rng);
        expect_near(adaptthresh(image<double>(rows, cols, v), {0.2, {double(nr), double(nc)}, nullptr, "gaussian"}),
                    brute_gauss(v, rows, cols, nr, nc, 1.4), 1e-14);
    }
    std::uniform_int_distribution<int> word(0, 65535);
    std::vector<uint16_t> a(40 * 33);
    std::vector<double> unit(a.size());
    for (size_t i = 0; i < a.size(); ++i) a[i] = uint16_t(word(rng)), unit[i] = a[i] / 65535.0;
    // Default window of 40x33: 5x5.
    expect_near(adaptthresh(image<uint16_t>(40, 33, a), {0.7, {}, "dark", "gaussian"}),
                brute_gauss(unit, 40, 33, 5, 5, 0.4 + 0.7), 1e-14);
}

TEST(Adaptthresh, RandomImagesAgainstBruteForce) {
    std::mt19937 rng(11);
    std::uniform_int_distribution<int> byte(0, 255);
    const int64_t rows = 41, cols = 37;
    std::vector<uint8_t> v(rows * cols);
    std::vector<double> unit(v.size());
    for (size_t i = 0; i < v.size(); ++i) v[i] = uint8_t(byte(rng)), unit[i] = v[i] / 255.0;
    const ipt::Image I = image<uint8_t>(rows, cols, v);
    expect_near(adaptthresh(I, {0.3, {7, 9}}), brute(unit, rows, cols, 7, 9, 0.6 + 0.7), 1e-13);
    expect_near(adaptthresh(I, {0.3, {11, 5}, "dark"}), brute(unit, rows, cols, 11, 5, 0.4 + 0.3), 1e-13);
    expect_near(adaptthresh(I, {0.5, {81}}), brute(unit, rows, cols, 81, 81, 1.1), 1e-13);
}

// The 'mean' route forms its integral image in bands of rows, one per
// thread, and keeps only the rows its windows still need: tall images with
// short windows (rows reused many times), windows taller or wider than the
// image, single rows and columns, and sizes that are no multiple of 4 or 16.
TEST(Adaptthresh, BandsAndWindowsOfEveryShape) {
    std::mt19937 rng(23);
    std::uniform_int_distribution<int> word(0, 65535);
    struct Shape {
        int64_t rows, cols, nr, nc;
    };
    for (const Shape s : {Shape{301, 45, 3, 5}, Shape{203, 1, 5, 1}, Shape{1, 77, 1, 9}, Shape{1, 1, 3, 3},
                          Shape{40, 30, 101, 3}, Shape{17, 9, 33, 33}, Shape{67, 130, 9, 261}, Shape{33, 20, 1, 1},
                          Shape{129, 64, 15, 7}}) {
        std::vector<uint16_t> v(static_cast<size_t>(s.rows * s.cols));
        std::vector<double> unit(v.size());
        for (size_t i = 0; i < v.size(); ++i) v[i] = uint16_t(word(rng)), unit[i] = v[i] / 65535.0;
        const ipt::Image I = image<uint16_t>(s.rows, s.cols, v);
        SCOPED_TRACE(testing::Message() << s.rows << "x" << s.cols << " window " << s.nr << "x" << s.nc);
        // The corners of the integral image hold sums up to the whole
        // image's (thousands here): their rounding reaches about 1e-13.
        expect_near(adaptthresh(I, {0.4, {double(s.nr), double(s.nc)}}), brute(unit, s.rows, s.cols, s.nr, s.nc, 1.2),
                    1e-11);
    }
}

std::vector<uint8_t> binarize_adaptive(const ipt::Image& I, double sensitivity, const char* polarity) {
    ipt::Call call(context(), "ipt.imbinarize");
    call.image("I", I);
    call.option("method", "adaptive");
    call.number("Sensitivity", sensitivity);
    call.option("ForegroundPolarity", polarity);
    call.run();
    return call.take("BW").download<uint8_t>();
}

// Under 16 pixels a side the window is 1x1: T = scale * I, clipped.
TEST(ImbinarizeAdaptive, HandExample) {
    const ipt::Image I = image<double>(1, 5, {0, 0.5, 1, 0.5, 0});
    // Bright, 0.5: T = min(1.1 I, 1): no value exceeds its own threshold.
    EXPECT_EQ(binarize_adaptive(I, 0.5, "bright"), (std::vector<uint8_t>{0, 0, 0, 0, 0}));
    // Dark, 0.5: T = 0.9 I: every positive value is above.
    EXPECT_EQ(binarize_adaptive(I, 0.5, "dark"), (std::vector<uint8_t>{0, 1, 1, 1, 0}));
    EXPECT_EQ(binarize_adaptive(image<uint8_t>(1, 2, {0, 200}), 0.5, "dark"), (std::vector<uint8_t>{0, 1}));
}

TEST(ImbinarizeAdaptive, RandomImageAgainstBruteForce) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u(0, 1);
    const int64_t rows = 70, cols = 52;  // window 9x7
    std::vector<double> v(rows * cols);
    for (double& x : v) x = u(rng);
    const std::vector<double> t = brute(v, rows, cols, 9, 7, 0.4 + 0.35);
    const std::vector<uint8_t> bw = binarize_adaptive(image<double>(rows, cols, v), 0.35, "dark");
    ASSERT_EQ(bw.size(), v.size());
    for (size_t i = 0; i < v.size(); ++i) {
        if (std::abs(v[i] - t[i]) > 1e-12) {
            EXPECT_EQ(bw[i], v[i] > t[i] ? 1 : 0) << i;
        }
    }
}

}  // namespace
