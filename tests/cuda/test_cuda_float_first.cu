// SPDX-License-Identifier: Apache-2.0
// The single-first uint8 sums of the CUDA backend (common/float_first.cuh)
// against MATLAB's rule computed here in double on the host: round half away
// from zero of the double sum w . x + offset, saturated to uint8. Every
// decided output must equal it; the undecided ones (sent to the double path)
// must be few. Over every RGB triple for the colour weights, every pair of
// bytes for weights chosen to be awkward (tiny, large, negative, halves),
// and, in the threshold form, flat, random and step inputs of every output
// of imresize's contribution tables.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "common/device.cuh"
#include "common/float_first.cuh"
#include "../../backends/common/colour.hpp"
#include "../../backends/common/ops/imresize.hpp"

namespace {

using ipt::cuda::FloatFirstSum;
using ipt::cuda::float_first_round_u8;
using ipt::cuda::float_first_sum;

constexpr unsigned kUndecided = 0xffff;

// For t = x0 + 256 x1 (+ 65536 x2): the byte single decided, or kUndecided.
template <int N>
__global__ void decide_all(FloatFirstSum<N> f, uint16_t* decided, int64_t count) {
    for (int64_t t = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; t < count; t += int64_t{blockDim.x} * gridDim.x) {
        unsigned x[N];
        for (int i = 0; i < N; ++i) x[i] = static_cast<unsigned>(t >> (8 * i)) & 255u;
        unsigned r;
        decided[t] = float_first_round_u8(f, x, &r) ? static_cast<uint16_t>(r) : static_cast<uint16_t>(kUndecided);
    }
}

// The threshold form: output t / trials of an axis with `taps` single
// weights a row and a threshold each, over the bytes x[t * taps ...], summed
// by fused multiply-adds in tap order as imresize's uint8 passes sum them.
__global__ void decide_rows(const float* weights, const float* below, int taps, const uint8_t* x, int64_t count,
                            int64_t trials, uint16_t* decided) {
    for (int64_t t = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; t < count; t += int64_t{blockDim.x} * gridDim.x) {
        const int64_t i = t / trials;
        float s = 0;
        for (int k = 0; k < taps; ++k) s = __fmaf_rn(weights[i * taps + k], ipt::cuda::byte_to_float(x[t * taps + k]), s);
        unsigned r;
        decided[t] = ipt::cuda::float_first_round_below(s, below[i], &r) ? static_cast<uint16_t>(r)
                                                                         : static_cast<uint16_t>(kUndecided);
    }
}

bool have_device() {
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

// MATLAB's value: the products and sums in double, left to right, then
// round half away from zero and saturate.
template <int N>
unsigned matlab_byte(const double* w, double offset, const unsigned (&x)[N]) {
    double s = w[0] * static_cast<double>(x[0]);
    for (int i = 1; i < N; ++i) s = s + w[i] * static_cast<double>(x[i]);
    s = s + offset;
    const double r = std::round(s);
    return r <= 0 ? 0u : r >= 255 ? 255u : static_cast<unsigned>(r);
}

template <int N>
void expect_decided_correctly(const double* w, double offset, const char* what, double max_undecided) {
    const FloatFirstSum<N> f = float_first_sum<N>(w, N, offset);
    ASSERT_GT(f.decided_below, 0.0f) << what;
    const int64_t count = int64_t{1} << (8 * N);
    uint16_t* d_decided = nullptr;
    ASSERT_EQ(cudaMalloc(&d_decided, count * sizeof(uint16_t)), cudaSuccess);
    decide_all<N><<<1024, 256>>>(f, d_decided, count);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<uint16_t> decided(count);
    ASSERT_EQ(cudaMemcpy(decided.data(), d_decided, count * sizeof(uint16_t), cudaMemcpyDeviceToHost), cudaSuccess);
    cudaFree(d_decided);
    int64_t wrong = 0, undecided = 0;
    for (int64_t t = 0; t < count; ++t) {
        unsigned x[N];
        for (int i = 0; i < N; ++i) x[i] = static_cast<unsigned>(t >> (8 * i)) & 255u;
        const unsigned want = matlab_byte<N>(w, offset, x);
        undecided += decided[t] == kUndecided;
        if (decided[t] != kUndecided && decided[t] != want && ++wrong <= 10)
            ADD_FAILURE() << what << ": inputs " << x[0] << ' ' << x[1] << (N > 2 ? " ..." : "") << " gave "
                          << decided[t] << " in single; MATLAB's double sum rounds to " << want;
    }
    EXPECT_EQ(wrong, 0) << what;
    EXPECT_LE(static_cast<double>(undecided) / static_cast<double>(count), max_undecided)
        << what << ": " << undecided << " of " << count << " left to double";
}

#define REQUIRE_DEVICE() \
    if (!have_device()) GTEST_SKIP() << "no CUDA device on this machine: the single-first sums are not run"

TEST(CudaFloatFirst, ColourSumsOverEveryRgbTriple) {
    REQUIRE_DEVICE();
    const double gray[3] = {0.298936021293775, 0.587043074451121, 0.114020904255103};
    expect_decided_correctly<3>(gray, 0.0, "rgb2gray", 1e-3);
    const ipt::common::ColourMatrix to_ycbcr = ipt::common::rgb2ycbcr_matrix(IPT_UINT8);
    const ipt::common::ColourMatrix to_rgb = ipt::common::ycbcr2rgb_matrix(IPT_UINT8);
    for (int i = 0; i < 3; ++i) {
        expect_decided_correctly<3>(to_ycbcr.m[i], to_ycbcr.offset[i], "rgb2ycbcr", 1e-3);
        expect_decided_correctly<3>(to_rgb.m[i], to_rgb.offset[i], "ycbcr2rgb", 1e-2);
    }
}

TEST(CudaFloatFirst, AwkwardWeightsOverEveryPair) {
    REQUIRE_DEVICE();
    // Dyadic weights (every output of an average of two images is exact, half
    // of them ties): single decides every one of them.
    const double dyadic[][3] = {{0.5, 0.5, 0.0}, {0.5, 0.5, 3.0}, {0.5, -0.5, 0.5}, {1000.25, -999.75, 0.0},
                                {-1.5, 2.5, 127.5}, {1.0, -1.0, 128.5}};
    for (const auto& c : dyadic) {
        const double w[2] = {c[0], c[1]};
        expect_decided_correctly<2>(w, c[2], "two-image dyadic sum", 0.0);
    }
    // Tiny weights, sums that sit on a half for every input, and weights whose
    // single rounding moves the sum across a half: correctness only.
    const double other[][3] = {{1e-7, 3e-7, 0.49999999}, {0.1, 0.2, 0.3}, {1.0 / 3.0, 2.0 / 3.0, -0.5},
                               {0.299999999, 0.7, 0.0}, {1e-12, 1e-12, 254.5}, {0.5, 0.5, 1e-9}};
    for (const auto& c : other) {
        const double w[2] = {c[0], c[1]};
        expect_decided_correctly<2>(w, c[2], "two-image sum", 1.0);
    }
}

// Every output index of an imresize axis of at most 8 taps: 256 flat rows
// (every tap the same byte), 512 random rows and, per tap, a step from 0 to
// 255 there; each decided output must be MATLAB's rounding of the double sum
// (tap order, products then sums, as the front-end and the double passes).
void expect_axis_decided_correctly(const ipt::frontend::ImresizeAxis& ax, const char* what, double max_undecided) {
    const int taps = ax.taps;
    ASSERT_LE(taps, 8) << what;
    const int64_t n = ax.out_length, trials = 256 + 512 + taps;
    std::vector<float> weights(static_cast<size_t>(n * taps)), below(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        const FloatFirstSum<8> f = float_first_sum<8>(ax.weights.data() + i * taps, taps, 0.0);
        for (int k = 0; k < taps; ++k) weights[i * taps + k] = f.w[k];
        below[i] = ipt::cuda::float_first_threshold(f);
    }
    std::vector<uint8_t> x(static_cast<size_t>(n * trials * taps));
    uint64_t state = 0x9e3779b97f4a7c15ull;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < trials; ++j)
            for (int k = 0; k < taps; ++k) {
                uint8_t& v = x[(i * trials + j) * taps + k];
                if (j < 256) v = static_cast<uint8_t>(j);
                else if (j < 768) v = static_cast<uint8_t>((state = state * 6364136223846793005ull + 1442695040888963407ull) >> 56);
                else v = k < j - 768 ? 0 : 255;
            }
    const int64_t count = n * trials;
    float *d_w = nullptr, *d_below = nullptr;
    uint8_t* d_x = nullptr;
    uint16_t* d_decided = nullptr;
    ASSERT_EQ(cudaMalloc(&d_w, weights.size() * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&d_below, below.size() * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&d_x, x.size()), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&d_decided, count * sizeof(uint16_t)), cudaSuccess);
    cudaMemcpy(d_w, weights.data(), weights.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_below, below.data(), below.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_x, x.data(), x.size(), cudaMemcpyHostToDevice);
    decide_rows<<<1024, 256>>>(d_w, d_below, taps, d_x, count, trials, d_decided);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<uint16_t> decided(static_cast<size_t>(count));
    ASSERT_EQ(cudaMemcpy(decided.data(), d_decided, count * sizeof(uint16_t), cudaMemcpyDeviceToHost), cudaSuccess);
    cudaFree(d_w);
    cudaFree(d_below);
    cudaFree(d_x);
    cudaFree(d_decided);
    int64_t wrong = 0, undecided = 0;
    for (int64_t t = 0; t < count; ++t) {
        const int64_t i = t / trials;
        double sum = 0;
        for (int k = 0; k < taps; ++k) sum = sum + ax.weights[i * taps + k] * static_cast<double>(x[t * taps + k]);
        const double r = std::round(sum);
        const unsigned want = r <= 0 ? 0u : r >= 255 ? 255u : static_cast<unsigned>(r);
        undecided += decided[t] == kUndecided;
        if (decided[t] != kUndecided && decided[t] != want && ++wrong <= 10)
            ADD_FAILURE() << what << ": output " << i << ", trial " << t % trials << " gave " << decided[t]
                          << " in single; MATLAB's double sum " << sum << " rounds to " << want;
    }
    EXPECT_EQ(wrong, 0) << what;
    EXPECT_LE(static_cast<double>(undecided) / static_cast<double>(count), max_undecided)
        << what << ": " << undecided << " of " << count << " left to double";
}

TEST(CudaFloatFirst, ThresholdFormOverImresizeTables) {
    REQUIRE_DEVICE();
    using ipt::frontend::ImresizeKernel;
    using ipt::frontend::imresize_contributions;
    // Power-of-two scales: dyadic weights, every sum exact (ties included), all decided.
    expect_axis_decided_correctly(imresize_contributions(2048, 4096, 2, ImresizeKernel::Triangle, 2, true), "x2 bilinear", 0.0);
    expect_axis_decided_correctly(imresize_contributions(2048, 4096, 2, ImresizeKernel::Cubic, 4, true), "x2 bicubic", 0.0);
    expect_axis_decided_correctly(imresize_contributions(2048, 1024, 0.5, ImresizeKernel::Cubic, 4, true), "x0.5 bicubic", 0.0);
    expect_axis_decided_correctly(imresize_contributions(2048, 1024, 0.5, ImresizeKernel::Box, 1, true), "x0.5 box", 0.0);
    // Other scales: weights that single rounds; a few sums go to double.
    expect_axis_decided_correctly(imresize_contributions(2048, 1496, 0.73, ImresizeKernel::Cubic, 4, true), "x0.73 bicubic", 1e-2);
    expect_axis_decided_correctly(imresize_contributions(300, 411, 1.37, ImresizeKernel::Lanczos2, 4, true), "x1.37 lanczos2", 1e-2);
    expect_axis_decided_correctly(imresize_contributions(1000, 810, 0.81, ImresizeKernel::Triangle, 2, true), "x0.81 bilinear", 1e-2);
    expect_axis_decided_correctly(imresize_contributions(97, 311, 311.0 / 97, ImresizeKernel::Cubic, 4, true), "x3.2 bicubic", 1e-2);
}

TEST(CudaFloatFirst, ExactOnlyForDyadicWeightsThatCannotRound) {
    const double halves[2] = {0.5, 0.5};
    EXPECT_TRUE((float_first_sum<2>(halves, 2, 3.0).exact));
    const double quarters[2] = {1000.25, -999.75};
    EXPECT_TRUE((float_first_sum<2>(quarters, 2, 0.0).exact));
    const double integers[3] = {2.0, -3.0, 1.0};
    EXPECT_TRUE((float_first_sum<3>(integers, 3, 128.0).exact));
    const double tenths[2] = {0.1, 0.2};
    EXPECT_FALSE((float_first_sum<2>(tenths, 2, 0.0).exact));
    EXPECT_FALSE((float_first_sum<2>(halves, 2, 1e-9).exact));  // the offset counts too
    const double fine[2] = {std::ldexp(1.0, -17), 0.5};           // beyond 2^-16
    EXPECT_FALSE((float_first_sum<2>(fine, 2, 0.0).exact));
    const double wide[2] = {std::ldexp(1.0, -10) * 3, 8000.0};  // A 2^10 past 2^24
    EXPECT_FALSE((float_first_sum<2>(wide, 2, 0.0).exact));
}

TEST(CudaFloatFirst, UnusableWhenTheSumCannotBeBounded) {
    const double inf[2] = {INFINITY, 1.0};
    EXPECT_EQ((float_first_sum<2>(inf, 2, 0.0).decided_below), 0.0f);
    const double nan[2] = {NAN, 1.0};
    EXPECT_EQ((float_first_sum<2>(nan, 2, 0.0).decided_below), 0.0f);
    const double huge[2] = {1e5, 1e5};  // sums beyond 2^21
    EXPECT_EQ((float_first_sum<2>(huge, 2, 0.0).decided_below), 0.0f);
}

}  // namespace
