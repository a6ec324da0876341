// SPDX-License-Identifier: Apache-2.0
// ipt.radon against MathWorks' documented values and a straightforward
// per-pixel re-implementation of the definition (four sub-pixels at +-0.25,
// a quarter of the value each, split linearly between the two bins around
// r - rFirst).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

struct Result {
    std::vector<double> r;  // bins x angles, row-major
    int64_t bins = 0, angles = 0;
    std::vector<double> xp;
};

Result radon(const ipt::Image& img, const std::vector<double>& theta = {}, bool want_xp = false) {
    ipt::Call call(context(), "ipt.radon");
    call.image("I", img);
    if (!theta.empty()) call.numbers("theta", theta);
    if (want_xp) call.want("xp");
    call.run();
    ipt::Image r = call.take("R");
    EXPECT_EQ(r.dtype(), IPT_DOUBLE);
    Result out{r.download<double>(), r.rows(), r.cols(), {}};
    if (want_xp) {
        ipt::Image xp = call.take("xp");
        EXPECT_EQ(xp.dtype(), IPT_DOUBLE);
        EXPECT_EQ(xp.rows(), r.rows());
        EXPECT_EQ(xp.cols(), 1);
        out.xp = xp.download<double>();
    }
    return out;
}

// The definition, pixel by pixel in row-major order (radonc goes column by
// column through precomputed tables: same terms, other rounding and order).
Result reference(const std::vector<double>& img, int64_t rows, int64_t cols,
                 const std::vector<double>& theta) {
    const int64_t xo = (cols + 1) / 2 - 1, yo = (rows + 1) / 2 - 1;
    const int64_t r_last = static_cast<int64_t>(
                               std::ceil(std::hypot(double(rows - 1 - yo), double(cols - 1 - xo)))) + 1;
    Result out;
    out.bins = 2 * r_last + 1;
    out.angles = static_cast<int64_t>(theta.size());
    out.r.assign(out.bins * out.angles, 0.0);
    for (int64_t k = 0; k < out.angles; ++k) {
        const double a = theta[k] * (3.14159265358979 / 180);
        for (int64_t m = 0; m < rows; ++m)
            for (int64_t n = 0; n < cols; ++n) {
                const double v = img[m * cols + n];
                if (v == 0) continue;
                for (double sx : {-0.25, 0.25})
                    for (double sy : {-0.25, 0.25}) {
                        const double x = double(n - xo) + sx, y = double(yo - m) + sy;
                        const double t = x * std::cos(a) + y * std::sin(a) + double(r_last);
                        const double bin = std::floor(t), delta = t - bin;
                        const int64_t b = static_cast<int64_t>(bin);
                        out.r[b * out.angles + k] += (1 - delta) * v / 4;
                        out.r[(b + 1) * out.angles + k] += delta * v / 4;
                    }
            }
    }
    return out;
}

void expect_close(const Result& got, const Result& want) {
    ASSERT_EQ(got.bins, want.bins);
    ASSERT_EQ(got.angles, want.angles);
    double scale = 1;
    for (double v : want.r) scale = std::max(scale, std::abs(v));
    const double tol = 64 * std::numeric_limits<double>::epsilon() * scale;  // the catalogue's bound
    for (size_t i = 0; i < want.r.size(); ++i)
        ASSERT_NEAR(got.r[i], want.r[i], tol) << "bin " << i / want.angles << " angle " << i % want.angles;
}

// MathWorks: radon(ones(2,2), 30) = [0 0 0.608253 2.103326 1.236538 0.051883 0]'.
TEST(Radon, MatlabDocValues) {
    Result r = radon(image<double>(2, 2, {1, 1, 1, 1}), {30}, true);
    ASSERT_EQ(r.bins, 7);
    ASSERT_EQ(r.angles, 1);
    const double want[] = {0, 0, 0.608253, 2.103326, 1.236538, 0.051883, 0};
    for (int i = 0; i < 7; ++i) EXPECT_NEAR(r.r[i], want[i], 5e-7) << i;
    EXPECT_EQ(r.xp, (std::vector<double>{-3, -2, -1, 0, 1, 2, 3}));
}

TEST(Radon, SinglePixelAtZeroDegrees) {
    Result one = radon(image<double>(1, 1, {1}), {0}, true);
    EXPECT_EQ(one.r, (std::vector<double>{0.125, 0.75, 0.125}));
    EXPECT_EQ(one.xp, (std::vector<double>{-1, 0, 1}));
    // The centre pixel of a 3x3 image (origin (2,2) 1-based) projects to x = 0.
    std::vector<double> img(9, 0);
    img[4] = 2;
    Result centre = radon(image<double>(3, 3, img), {0});
    EXPECT_EQ(centre.r, (std::vector<double>{0, 0, 0.25, 1.5, 0.25, 0, 0}));
    // A pixel one column right of the origin moves one bin up.
    img[4] = 0;
    img[5] = 1;
    Result right = radon(image<double>(3, 3, img), {0});
    EXPECT_EQ(right.r, (std::vector<double>{0, 0, 0, 0.125, 0.75, 0.125, 0}));
    // At 90 degrees the row decides: the top row is at y = +1.
    std::fill(img.begin(), img.end(), 0);
    img[1] = 1;
    Result up = radon(image<double>(3, 3, img), {90});
    const double want[] = {0, 0, 0, 0.125, 0.75, 0.125, 0};
    for (int i = 0; i < 7; ++i) EXPECT_NEAR(up.r[i], want[i], 1e-14) << i;
}

TEST(Radon, NumberOfBinsAndOrigin) {
    // 2*ceil(norm(size - floor((size-1)/2) - 1)) + 3 rows.
    for (auto [rows, cols] : {std::pair{1, 1}, {2, 2}, {5, 7}, {1, 10}, {10, 1}, {64, 33}, {4, 4}}) {
        const double ny = rows - std::floor((rows - 1) / 2.0) - 1;
        const double nx = cols - std::floor((cols - 1) / 2.0) - 1;
        const int64_t want = 2 * static_cast<int64_t>(std::ceil(std::hypot(ny, nx))) + 3;
        Result r = radon(image<double>(rows, cols, std::vector<double>(rows * cols, 1)), {0, 45}, true);
        EXPECT_EQ(r.bins, want) << rows << "x" << cols;
        EXPECT_EQ(r.xp.front(), -double(want / 2));
        EXPECT_EQ(r.xp.back(), double(want / 2));
    }
}

TEST(Radon, DefaultThetaIsZeroTo179) {
    std::vector<double> v(25);
    std::mt19937 rng(1);
    for (auto& x : v) x = double(rng() % 5);
    Result r = radon(image<double>(5, 5, v));
    EXPECT_EQ(r.angles, 180);
    std::vector<double> theta(180);
    for (int i = 0; i < 180; ++i) theta[i] = i;
    expect_close(r, reference(v, 5, 5, theta));
}

TEST(Radon, RandomImagesAgainstDefinition) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int trial = 0; trial < 12; ++trial) {
        const int64_t rows = 1 + rng() % 30, cols = 1 + rng() % 30;
        std::vector<double> v(rows * cols);
        for (auto& x : v) x = (rng() % 3 == 0) ? 0.0 : u(rng) * 10;
        std::vector<double> theta = {0, 30, 45, 90, 135, 179.5, -20, 400, 12.345};
        for (int k = 0; k < 20; ++k) theta.push_back(u(rng) * 360);
        expect_close(radon(image<double>(rows, cols, v), theta), reference(v, rows, cols, theta));
    }
}

TEST(Radon, ColumnsConserveTheImageSum) {
    std::mt19937 rng(3);
    std::vector<double> v(40 * 23);
    double total = 0;
    for (auto& x : v) total += (x = double(rng() % 100));
    std::vector<double> theta;
    for (int k = 0; k < 37; ++k) theta.push_back(k * 9.7);
    Result r = radon(image<double>(40, 23, v), theta);
    for (int64_t k = 0; k < r.angles; ++k) {
        double s = 0;
        for (int64_t b = 0; b < r.bins; ++b) s += r.r[b * r.angles + k];
        EXPECT_NEAR(s, total, 1e-9 * total) << k;
    }
}

TEST(Radon, EveryClassUsesItsValues) {
    const std::vector<uint8_t> u8 = {0, 3, 0, 250, 1, 0};
    std::vector<double> d(u8.begin(), u8.end());
    const std::vector<double> theta = {0, 33, 90, 151};
    const Result want = radon(image<double>(2, 3, d), theta);
    EXPECT_EQ(radon(image<uint8_t>(2, 3, u8), theta).r, want.r);
    EXPECT_EQ(radon(image<float>(2, 3, std::vector<float>(d.begin(), d.end())), theta).r, want.r);
    EXPECT_EQ(radon(image<int16_t>(2, 3, std::vector<int16_t>(d.begin(), d.end())), theta).r, want.r);
    const std::vector<double> bits = {0, 1, 0, 1, 1, 0};
    EXPECT_EQ(radon(ipt_test::logical(2, 3, {0, 1, 0, 1, 1, 0}), theta).r,
              radon(image<double>(2, 3, bits), theta).r);
}

TEST(Radon, EdgeShapesAgainstDefinition) {
    const std::vector<double> theta = {0, 45, 90, 120};
    std::vector<double> row = {1, 2, 3, 4, 5, 6, 7};
    expect_close(radon(image<double>(1, 7, row), theta), reference(row, 1, 7, theta));
    expect_close(radon(image<double>(7, 1, row), theta), reference(row, 7, 1, theta));
    std::vector<double> zero(12, 0);
    Result z = radon(image<double>(3, 4, zero), theta);
    for (double x : z.r) EXPECT_EQ(x, 0.0);
}

TEST(Radon, LargerImageIsDeterministicAndMatchesDefinition) {
    std::mt19937 rng(11);
    const int64_t rows = 61, cols = 80;
    std::vector<double> v(rows * cols);
    for (auto& x : v) x = double(rng() % 256);
    std::vector<double> theta;
    for (int k = 0; k < 180; k += 3) theta.push_back(k);
    Result a = radon(image<double>(rows, cols, v), theta);
    Result b = radon(image<double>(rows, cols, v), theta);
    EXPECT_EQ(a.r, b.r);  // bit for bit
    expect_close(a, reference(v, rows, cols, theta));
}

TEST(Radon, NaNPixelSpreadsIntoItsBins) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    Result r = radon(image<double>(1, 1, {nan}), {0});
    for (double x : r.r) EXPECT_TRUE(std::isnan(x));
}

TEST(Radon, RejectsNonFiniteTheta) {
    const ipt::Image img = image<double>(2, 2, {1, 2, 3, 4});
    for (double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
        ipt::Call call(context(), "ipt.radon");
        call.image("I", img).numbers("theta", {0, bad});
        IPT_EXPECT_ERROR(call.run(), IPT_ERR_INVALID_ARGUMENT, "theta");
    }
}

}  // namespace
