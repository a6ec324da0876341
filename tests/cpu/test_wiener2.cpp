// SPDX-License-Identifier: Apache-2.0
// ipt.wiener2: hand-computed single pixels and constant images, the noise
// estimate, every class, even and odd windows, 1xN and Nx1 images, NaN and
// Inf, and an independent transcription of wiener2.m (zero-padded window
// sums, mean2 of the variances, MATLAB's NaN-ignoring max) for random images.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

template <class T>
std::pair<std::vector<T>, double> wiener2(const ipt::Image& img, int m = 3, int n = 3, const double* noise = nullptr) {
    ipt::Call call(context(), "ipt.wiener2");
    call.image("I", img);
    call.numbers("size", {double(m), double(n)});
    if (noise) call.number("noise", *noise);
    call.want("noise_out");
    call.run();
    ipt::Image j = call.take("J");
    EXPECT_EQ(j.rows(), img.rows());
    EXPECT_EQ(j.cols(), img.cols());
    ipt::Image nz = call.take("noise_out");
    return {j.download<T>(), nz.download<double>()[0]};
}

double unit(uint8_t v) { return v / 255.0; }
double unit(uint16_t v) { return v / 65535.0; }
double unit(int16_t v) { return (v + 32768.0) / 65535.0; }
double unit(float v) { return v; }
double unit(double v) { return v; }

template <class T>
T back(double f) {
    if constexpr (std::is_floating_point_v<T>) {
        return static_cast<T>(f);
    } else {
        const double top = std::is_same_v<T, uint8_t> ? 255 : 65535;
        double p = std::isnan(f) ? 0 : std::round(f * top);
        p = std::min(std::max(p, 0.0), top);
        if constexpr (std::is_same_v<T, int16_t>) return static_cast<T>(p - 32768);
        else return static_cast<T>(p);
    }
}

double mmax(double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : std::max(a, b); }

// wiener2.m, written out: filter2(ones(m, n), g, 'same') / (m*n) with zero
// padding ('same' centres the window at floor((size+1)/2)).
template <class T>
std::pair<std::vector<T>, double> reference(const std::vector<T>& I, int rows, int cols, int m, int n,
                                            const double* given = nullptr) {
    std::vector<double> mu(I.size()), var(I.size());
    const int top = (m - 1) / 2, left = (n - 1) / 2;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            double s1 = 0, s2 = 0;
            for (int y = r - top; y < r - top + m; ++y)
                for (int x = c - left; x < c - left + n; ++x)
                    if (y >= 0 && y < rows && x >= 0 && x < cols) {
                        const double g = unit(I[y * cols + x]);
                        s1 += g;
                        s2 += g * g;
                    }
            mu[r * cols + c] = s1 / (m * n);
            var[r * cols + c] = s2 / (m * n) - mu[r * cols + c] * mu[r * cols + c];
        }
    double noise;
    if (given) {
        noise = *given;
    } else {
        double total = 0;
        for (int c = 0; c < cols; ++c) {
            double s = 0;
            for (int r = 0; r < rows; ++r) s += var[r * cols + c];
            total += s;
        }
        noise = total / (rows * cols);
    }
    std::vector<T> J(I.size());
    for (size_t i = 0; i < I.size(); ++i) {
        const double f = (unit(I[i]) - mu[i]) / mmax(var[i], noise);
        J[i] = back<T>(f * mmax(var[i] - noise, 0) + mu[i]);
    }
    return {J, noise};
}

// One pixel: the window holds g alone, so mu = g/9, the variance is the
// noise, max(var - noise, 0) = 0 and J = mu.
TEST(Wiener2, SinglePixel) {
    auto [J, noise] = wiener2<double>(image<double>(1, 1, {0.9}));
    EXPECT_DOUBLE_EQ(J[0], 0.1);
    EXPECT_NEAR(noise, 0.08, 1e-15);
    auto [J8, noise8] = wiener2<uint8_t>(image<uint8_t>(1, 1, {255}));
    EXPECT_EQ(J8[0], 28);  // round(255 / 9) = round(28.33)
    EXPECT_NEAR(noise8, 8.0 / 81, 1e-15);
}

// A window of [1 1]: mu = g, var = 0 everywhere, noise 0, and 0/0 gives NaN
// (MATLAB's max(0, 0) = 0 divides 0 by 0).
TEST(Wiener2, UnitWindowGivesNaN) {
    auto [J, noise] = wiener2<double>(image<double>(1, 3, {0.25, 0.5, 1}), 1, 1);
    EXPECT_EQ(noise, 0);
    for (double v : J) EXPECT_TRUE(std::isnan(v));
    // uint8: NaN converts to 0.
    auto [J8, n8] = wiener2<uint8_t>(image<uint8_t>(1, 2, {10, 200}), 1, 1);
    EXPECT_EQ(J8, (std::vector<uint8_t>{0, 0}));
}

// A given noise larger than every variance: J is the local mean.
TEST(Wiener2, LargeNoiseGivesLocalMean) {
    const double big = 10;
    auto [J, noise] = wiener2<double>(image<double>(1, 4, {0, 0.3, 0.6, 0.9}), 1, 3, &big);
    EXPECT_EQ(noise, 10);
    EXPECT_DOUBLE_EQ(J[0], 0.1);
    EXPECT_DOUBLE_EQ(J[1], 0.3);
    EXPECT_DOUBLE_EQ(J[2], 0.6);
    EXPECT_DOUBLE_EQ(J[3], 0.5);
}

TEST(Wiener2, EmptyImage) {
    auto [J, noise] = wiener2<double>(context().upload<double>(0, 4, {}));
    EXPECT_TRUE(J.empty());
    EXPECT_TRUE(std::isnan(noise));  // mean2 of nothing
}

template <class T>
void random_case(std::mt19937& rng, int rows, int cols, int m, int n, bool given) {
    std::vector<T> I(size_t(rows) * cols);
    for (T& v : I) {
        if constexpr (std::is_floating_point_v<T>) v = T(std::uniform_real_distribution<double>(-0.2, 1.2)(rng));
        else v = T(std::uniform_int_distribution<int>(std::numeric_limits<T>::min(), std::numeric_limits<T>::max())(rng));
    }
    const double noise_in = 0.01;
    auto got = wiener2<T>(image<T>(rows, cols, I), m, n, given ? &noise_in : nullptr);
    auto want = reference(I, rows, cols, m, n, given ? &noise_in : nullptr);
    EXPECT_DOUBLE_EQ(got.second, want.second);
    for (size_t i = 0; i < I.size(); ++i) {
        if constexpr (std::is_floating_point_v<T>) {
            if (std::isnan(want.first[i])) EXPECT_TRUE(std::isnan(got.first[i]));
            else EXPECT_NEAR(got.first[i], want.first[i], 1e-12) << i;
        } else {
            EXPECT_EQ(int(got.first[i]), int(want.first[i])) << i << " " << rows << "x" << cols;
        }
    }
}

TEST(Wiener2, RandomImagesEveryClassAndWindow) {
    std::mt19937 rng(17);
    const int shapes[][4] = {{7, 9, 3, 3}, {1, 12, 3, 3}, {12, 1, 5, 2}, {6, 5, 2, 4}, {4, 4, 7, 7}, {20, 17, 5, 3}};
    for (const auto& s : shapes)
        for (bool given : {false, true}) {
            random_case<uint8_t>(rng, s[0], s[1], s[2], s[3], given);
            random_case<uint16_t>(rng, s[0], s[1], s[2], s[3], given);
            random_case<int16_t>(rng, s[0], s[1], s[2], s[3], given);
            random_case<float>(rng, s[0], s[1], s[2], s[3], given);
            random_case<double>(rng, s[0], s[1], s[2], s[3], given);
        }
}

// NaN and Inf spread through every window that holds them.
TEST(Wiener2, NaNAndInf) {
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    auto [J, noise] = wiener2<double>(image<double>(1, 5, {0, nan, 0.5, 0.5, inf}), 1, 1);
    EXPECT_TRUE(std::isnan(noise));
    EXPECT_TRUE(std::isnan(J[1]));
    EXPECT_TRUE(std::isnan(J[4]));
    // NaN noise: max ignores it, max(var - NaN, 0) = 0, and J is mu where var > 0.
    auto [K, n2] = wiener2<double>(image<double>(1, 4, {0.2, nan, 0.4, 0.8}), 1, 2);
    EXPECT_TRUE(std::isnan(n2));
    EXPECT_DOUBLE_EQ(K[2], 0.6);  // window {0.4, 0.8}: var = 0.04 > 0, J = mu
}

}  // namespace
