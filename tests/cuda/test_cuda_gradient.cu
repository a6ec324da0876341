// SPDX-License-Identifier: Apache-2.0
// The single-precision angle of the CUDA imgradient (common/gradient.cuh,
// gradient_atan2_single) must be the front-end's rule, atan2 in double
// rounded once to single, to the bit: checked against the host's double
// atan2 rounded to single, and against CUDA's own double atan2 on the
// device, over every pair of integer gradients a uint8 image's sobel and
// prewitt give, the same pairs as im2single scales them, random singles of
// every magnitude, and the special values. And its degrees
// (gradient_degrees_single) against the single division on the host.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "common/gradient.cuh"

namespace {

__global__ void angles(const float* y, const float* x, float* fast, float* through_double, int64_t n) {
    for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n; i += int64_t{blockDim.x} * gridDim.x) {
        fast[i] = ipt::cuda::gradient_atan2_single(y[i], x[i]);
        through_double[i] = ipt::frontend::gradient_atan2<float>(y[i], x[i]);
    }
}

bool have_device() {
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

uint32_t bits(float v) {
    uint32_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

bool same(float a, float b) { return (std::isnan(a) && std::isnan(b)) || bits(a) == bits(b); }

// Runs the pairs on the device; every angle must equal CUDA's double atan2
// rounded to single bit for bit, and the host's (an independent double
// atan2) within one unit in the last place (the two double atan2s may round
// a value next to a midpoint of singles apart).
void expect_angles(const std::vector<float>& y, const std::vector<float>& x, const char* what) {
    const int64_t n = static_cast<int64_t>(y.size());
    float *dy = nullptr, *dx = nullptr, *dfast = nullptr, *dref = nullptr;
    ASSERT_EQ(cudaMalloc(&dy, n * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&dx, n * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&dfast, n * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&dref, n * sizeof(float)), cudaSuccess);
    cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    angles<<<1024, 256>>>(dy, dx, dfast, dref, n);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<float> fast(n), ref(n);
    cudaMemcpy(fast.data(), dfast, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(ref.data(), dref, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(dy);
    cudaFree(dx);
    cudaFree(dfast);
    cudaFree(dref);
    int64_t differ = 0, far = 0;
    for (int64_t i = 0; i < n; ++i) {
        if (!same(fast[i], ref[i]) && ++differ <= 10)
            ADD_FAILURE() << what << ": atan2(" << y[i] << ", " << x[i] << ") gave " << fast[i]
                          << ", CUDA's double atan2 rounds to " << ref[i];
        const float host = static_cast<float>(std::atan2(static_cast<double>(y[i]), static_cast<double>(x[i])));
        const bool near = same(fast[i], host) || std::nextafter(host, INFINITY) == fast[i] ||
                          std::nextafter(host, -INFINITY) == fast[i];
        if (!near && ++far <= 10)
            ADD_FAILURE() << what << ": atan2(" << y[i] << ", " << x[i] << ") gave " << fast[i]
                          << ", the host's double atan2 rounds to " << host;
    }
    EXPECT_EQ(differ, 0) << what;
    EXPECT_EQ(far, 0) << what;
}

TEST(CudaGradientAngle, EveryIntegerGradientOfAByteImage) {
    if (!have_device()) GTEST_SKIP() << "no CUDA device";
    // sobel and prewitt of uint8 give integers in [-1020, 1020]; im2single
    // images the same pairs divided by 255.
    std::vector<float> y, x, ys, xs;
    for (int a = -1020; a <= 1020; ++a)
        for (int b = -1020; b <= 1020; ++b) {
            y.push_back(static_cast<float>(a));
            x.push_back(static_cast<float>(b));
            ys.push_back(static_cast<float>(a) / 255.0f);
            xs.push_back(static_cast<float>(b) / 255.0f);
        }
    expect_angles(y, x, "integer gradients");
    expect_angles(ys, xs, "integer gradients / 255");
}

TEST(CudaGradientAngle, RandomSinglesOfEveryMagnitude) {
    if (!have_device()) GTEST_SKIP() << "no CUDA device";
    std::mt19937 gen(20261129);
    std::uniform_int_distribution<uint32_t> any_bits;
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    std::uniform_int_distribution<int> exponent(-140, 127);
    std::vector<float> y, x;
    for (int i = 0; i < (1 << 22); ++i) {
        float a, b;
        if (i % 2) {  // any bit pattern: every magnitude, subnormals, infinities and NaNs
            const uint32_t ua = any_bits(gen), ub = any_bits(gen);
            std::memcpy(&a, &ua, sizeof a);
            std::memcpy(&b, &ub, sizeof b);
        } else {  // magnitudes near each other, as neighbouring gradients are
            const int e = exponent(gen);
            a = std::ldexp(unit(gen), e);
            b = std::ldexp(unit(gen), e + (i % 7) - 3);
        }
        y.push_back(a);
        x.push_back(b);
    }
    expect_angles(y, x, "random singles");
}

TEST(CudaGradientAngle, SpecialValues) {
    if (!have_device()) GTEST_SKIP() << "no CUDA device";
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    const float v[] = {0.0f, -0.0f, inf, -inf, nan, 1.0f, -1.0f, 3.0f, -3.0f,
                       std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(),
                       std::numeric_limits<float>::min(), std::numeric_limits<float>::denorm_min(),
                       0x1p125f, std::nextafter(0x1p125f, inf), 0x1p-125f, std::nextafter(0x1p-125f, 0.0f),
                       -0x1p125f, -0x1p-125f, 1e-30f, 1e30f};
    std::vector<float> y, x;
    for (float a : v)
        for (float b : v) {
            y.push_back(a);
            x.push_back(b);
        }
    expect_angles(y, x, "special values");
}

__global__ void degrees(const float* a, float* out, int64_t n) {
    for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n; i += int64_t{blockDim.x} * gridDim.x)
        out[i] = ipt::cuda::gradient_degrees_single(a[i]);
}

// Single angles across [-pi, pi] (every 61st pattern, subnormals to pi, and
// specials) in degrees: the device's product with the reciprocal must be the
// host's correctly rounded single division, bit for bit.
TEST(CudaGradientAngle, DegreesOfSingleAngles) {
    if (!have_device()) GTEST_SKIP() << "no CUDA device";
    std::vector<float> a;
    const float pi = 3.14159265358979323846f;
    for (uint32_t b = 0; b < 0x7f800000u; b += 61) {  // every 61st positive single pattern below pi
        float v;
        std::memcpy(&v, &b, sizeof v);
        if (v > pi) break;
        a.push_back(v);
        a.push_back(-v);
    }
    for (float v : {pi, -pi, 0.0f, -0.0f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::denorm_min()})
        a.push_back(v);
    const int64_t n = static_cast<int64_t>(a.size());
    float *da = nullptr, *dout = nullptr;
    ASSERT_EQ(cudaMalloc(&da, n * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&dout, n * sizeof(float)), cudaSuccess);
    cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    degrees<<<1024, 256>>>(da, dout, n);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<float> out(n);
    cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(da);
    cudaFree(dout);
    int64_t wrong = 0;
    for (int64_t i = 0; i < n; ++i) {
        const volatile float x = a[i] * 180.0f;  // the front-end's order: times 180, then divided by pi
        const float want = x / pi;
        if (!same(out[i], want) && ++wrong <= 10)
            ADD_FAILURE() << a[i] << " radians gave " << out[i] << " degrees; the single division gives " << want;
    }
    EXPECT_EQ(wrong, 0);
}

}  // namespace
