// SPDX-License-Identifier: Apache-2.0
// imboxfilt's integer rounding of window sums (common/box_scale.cuh) against
// MATLAB's rule computed here: the window sum S times the default factor
// 1/N in double, rounded half away from zero. Every S a window of N odd
// uint8 values can sum to, every odd N up to 31 x 11; uint16 windows up to
// the largest N the integer route takes; on the host, and on the GPU where
// there is one.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "common/box_scale.cuh"

namespace {

using ipt::cuda::box_divide;
using ipt::cuda::box_scale;
using ipt::cuda::BoxScale;

uint32_t matlab_box(int64_t s, int64_t n) { return static_cast<uint32_t>(std::round(static_cast<double>(s) * (1.0 / static_cast<double>(n)))); }

__global__ void divide_all(BoxScale k, int64_t count, uint32_t* out) {
    for (int64_t s = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; s < count; s += int64_t{blockDim.x} * gridDim.x)
        out[s] = box_divide(static_cast<uint32_t>(s), k);
}

bool have_device() {
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

// Every sum of n values in [0, largest] on the host; returns the scale.
BoxScale expect_host_matches(int64_t n, int64_t largest) {
    const BoxScale k = box_scale(1.0 / static_cast<double>(n), n, largest, true);
    EXPECT_NE(k.magic, 0u) << "N = " << n << ", values to " << largest << ": the integer route should apply";
    if (!k.magic) return k;
    int64_t wrong = 0;
    for (int64_t s = 0; s <= n * largest; ++s)
        if (box_divide(static_cast<uint32_t>(s), k) != matlab_box(s, n) && ++wrong <= 5)
            ADD_FAILURE() << "N = " << n << ", S = " << s << ": " << box_divide(static_cast<uint32_t>(s), k)
                          << ", MATLAB's double product rounds to " << matlab_box(s, n);
    return k;
}

TEST(CudaBoxScale, EveryUint8WindowSumOnTheHost) {
    for (int64_t fr = 1; fr <= 31; fr += 2)
        for (int64_t fc = 1; fc <= 11; fc += 2) expect_host_matches(fr * fc, 255);
}

TEST(CudaBoxScale, EveryUint16WindowSumOnTheHost) {
    for (int64_t n : {1, 3, 9, 15, 25, 49, 81, 121, 125, 127}) expect_host_matches(n, 65535);
}

TEST(CudaBoxScale, DoubleRouteKeptWhereTheIntegerOneIsNotProven) {
    EXPECT_EQ(box_scale(1.0 / 20, 20, 255, true).magic, 0u);            // even N: S / N can be a half-integer
    EXPECT_EQ(box_scale(0.05, 25, 255, true).magic, 0u);                // a NormalizationFactor other than 1/N
    EXPECT_EQ(box_scale(1.0 / 25, 25, 127, false).magic, 0u);           // signed classes
    EXPECT_EQ(box_scale(1.0 / 129, 129, 65535, true).magic, 0u);        // (2S + N) 2N past 2^32
    EXPECT_NE(box_scale(1.0 / 2047, 2047, 255, true).magic, 0u);         // uint8 up to N = 2047
}

TEST(CudaBoxScale, EveryUint8WindowSumOnTheDevice) {
    if (!have_device()) GTEST_SKIP() << "no CUDA device on this machine: the device's multiply-high is not run";
    for (int64_t n : {1, 9, 25, 49, 121, 341}) {
        const BoxScale k = box_scale(1.0 / static_cast<double>(n), n, 255, true);
        ASSERT_NE(k.magic, 0u);
        const int64_t count = n * 255 + 1;
        uint32_t* d_out = nullptr;
        ASSERT_EQ(cudaMalloc(&d_out, count * sizeof(uint32_t)), cudaSuccess);
        divide_all<<<256, 256>>>(k, count, d_out);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        std::vector<uint32_t> out(static_cast<size_t>(count));
        ASSERT_EQ(cudaMemcpy(out.data(), d_out, count * sizeof(uint32_t), cudaMemcpyDeviceToHost), cudaSuccess);
        cudaFree(d_out);
        int64_t wrong = 0;
        for (int64_t s = 0; s < count; ++s)
            if (out[s] != matlab_box(s, n) && ++wrong <= 5)
                ADD_FAILURE() << "N = " << n << ", S = " << s << ": " << out[s] << " on the device, MATLAB "
                              << matlab_box(s, n);
    }
}

}  // namespace
