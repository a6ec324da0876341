// SPDX-License-Identifier: Apache-2.0
// The CUDA backend's conversions between doubles and the integer classes
// (common/device.cuh) compiled for the GPU against the same functions
// compiled for the host: every kernel's integer output rests on them
// rounding half away from zero and saturating as the CPU reference does.
// Every 8- and 16-bit integer, and doubles around every rounding tie of the
// 8- and 16-bit ranges, their ends, and beyond.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "common/device.cuh"

namespace {

using ipt::cuda::saturate_round;
using ipt::cuda::to_double;

struct Rounded {
    uint8_t u8;
    int8_t i8;
    uint16_t u16;
    int16_t i16;
    int32_t i32;
    uint32_t u32;
};

__global__ void round_all(const double* v, Rounded* out, int64_t n) {
    for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n; i += int64_t{blockDim.x} * gridDim.x)
        out[i] = Rounded{saturate_round<uint8_t>(v[i]), saturate_round<int8_t>(v[i]), saturate_round<uint16_t>(v[i]),
                         saturate_round<int16_t>(v[i]), saturate_round<int32_t>(v[i]),
                         saturate_round<uint32_t>(v[i])};
}

template <class T>
__global__ void widen_all(const T* v, double* out, int64_t n) {
    for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n; i += int64_t{blockDim.x} * gridDim.x)
        out[i] = to_double(v[i]);
}

bool have_device() {
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

#define REQUIRE_DEVICE() \
    if (!have_device()) GTEST_SKIP() << "no CUDA device on this machine: the device-side conversions are not run"

template <class In, class Out, class Launch>
std::vector<Out> run(const std::vector<In>& in, Launch launch) {
    In* d_in = nullptr;
    Out* d_out = nullptr;
    const size_t n = in.size();
    EXPECT_EQ(cudaMalloc(&d_in, n * sizeof(In)), cudaSuccess);
    EXPECT_EQ(cudaMalloc(&d_out, n * sizeof(Out)), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(d_in, in.data(), n * sizeof(In), cudaMemcpyHostToDevice), cudaSuccess);
    launch(d_in, d_out, static_cast<int64_t>(n));
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<Out> out(n);
    EXPECT_EQ(cudaMemcpy(out.data(), d_out, n * sizeof(Out), cudaMemcpyDeviceToHost), cudaSuccess);
    cudaFree(d_in);
    cudaFree(d_out);
    return out;
}

TEST(CudaConversions, RoundingMatchesTheHostAroundEveryTie) {
    REQUIRE_DEVICE();
    std::vector<double> v;
    for (int64_t k = -70000; k <= 70000; ++k) {
        const double x = static_cast<double>(k);
        for (double d : {0.0, 0.5, -0.5, 0.25, -0.25})
            v.push_back(x + d);
        v.push_back(std::nextafter(x + 0.5, -INFINITY));
        v.push_back(std::nextafter(x + 0.5, INFINITY));
        v.push_back(std::nextafter(x - 0.5, -INFINITY));
        v.push_back(std::nextafter(x - 0.5, INFINITY));
    }
    for (double x : {0.49999999999999994, -0.49999999999999994, -0.0, 1e-300, -1e-300, 2147483647.5, -2147483648.5,
                     4294967294.5, 4294967295.5, 4294967296.0,
                     4503599627370495.5, -4503599627370495.5, 4503599627370497.0, 1e300, -1e300,
                     std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                     std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::denorm_min()})
        v.push_back(x);
    const std::vector<Rounded> got = run<double, Rounded>(v, [](const double* in, Rounded* out, int64_t n) {
        round_all<<<1024, 256>>>(in, out, n);
    });
    int64_t wrong = 0;
    for (size_t i = 0; i < v.size() && wrong < 20; ++i) {
        const Rounded& g = got[i];
        const bool same = g.u8 == saturate_round<uint8_t>(v[i]) && g.i8 == saturate_round<int8_t>(v[i]) &&
                          g.u16 == saturate_round<uint16_t>(v[i]) && g.i16 == saturate_round<int16_t>(v[i]) &&
                          g.i32 == saturate_round<int32_t>(v[i]) && g.u32 == saturate_round<uint32_t>(v[i]);
        if (!same) {
            ++wrong;
            ADD_FAILURE() << "saturate_round of " << v[i] << " on the device: uint8 " << int{g.u8} << " int8 "
                          << int{g.i8} << " uint16 " << g.u16 << " int16 " << g.i16 << " int32 " << g.i32
                          << " uint32 " << g.u32 << "; on the host: " << int{saturate_round<uint8_t>(v[i])} << ' '
                          << int{saturate_round<int8_t>(v[i])} << ' ' << saturate_round<uint16_t>(v[i]) << ' '
                          << saturate_round<int16_t>(v[i]) << ' ' << saturate_round<int32_t>(v[i]) << ' '
                          << saturate_round<uint32_t>(v[i]);
        }
    }
    EXPECT_EQ(wrong, 0);
}

template <class T>
void expect_widening_exact(const std::vector<T>& v) {
    const std::vector<double> got = run<T, double>(v, [](const T* in, double* out, int64_t n) {
        widen_all<T><<<1024, 256>>>(in, out, n);
    });
    int64_t wrong = 0;
    for (size_t i = 0; i < v.size(); ++i)
        if (got[i] != static_cast<double>(v[i]) && ++wrong <= 20)
            ADD_FAILURE() << "to_double(" << +v[i] << ") on the device gave " << got[i];
    EXPECT_EQ(wrong, 0);
}

template <class T>
std::vector<T> every_value() {
    std::vector<T> v;
    for (int64_t k = std::numeric_limits<T>::min(); k <= std::numeric_limits<T>::max(); ++k)
        v.push_back(static_cast<T>(k));
    return v;
}

TEST(CudaConversions, WideningIsExactForEveryNarrowInteger) {
    REQUIRE_DEVICE();
    expect_widening_exact(every_value<uint8_t>());
    expect_widening_exact(every_value<int8_t>());
    expect_widening_exact(every_value<uint16_t>());
    expect_widening_exact(every_value<int16_t>());
    std::vector<int32_t> i32{std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(), -1, 0, 1};
    std::vector<uint32_t> u32{0u, 1u, 0x7fffffffu, 0x80000000u, 0xffffffffu};
    uint32_t x = 2463534242u;  // xorshift32: spread over the whole range
    for (int i = 0; i < 200000; ++i) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        i32.push_back(static_cast<int32_t>(x));
        u32.push_back(x);
    }
    expect_widening_exact(i32);
    expect_widening_exact(u32);
}

}  // namespace
