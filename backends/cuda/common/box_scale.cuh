// SPDX-License-Identifier: Apache-2.0
// How imboxfilt's running kernels turn an integer window sum S into the
// output: S * norm in double, rounded and saturated, as the front-end's
// box_value forms it; or, for unsigned classes under the default factor
// norm = fl(1/N) (N = fr * fc, odd, as filterSize is), floor((2S + N) / 2N)
// in integers. The two agree: S / N is never a half-integer for odd N, so it
// lies at least 1/(2N) from one, and the double product is within
// S/N * 2^-52 (far below 1/(2N) here) of S / N, so both round to the integer
// nearest S / N, which is at most the class's largest value. The division is
// a multiply-high by magic = ceil(2^32 / 2N), exact while (2S + N) * 2N <
// 2^32: magic * 2N exceeds 2^32 by less than 2N, so x * magic / 2^32 exceeds
// x / 2N by less than 1/2N, never reaching the next integer.
#pragma once

#include <cstdint>

#include "common/device.cuh"

namespace ipt::cuda {

struct BoxScale {
    double norm = 0;
    uint32_t magic = 0;  // 0: the double product
    int32_t n = 0;       // N, where magic is set
};

// The scale of windows of n elements whose values lie in [0, largest]
// (unsigned classes) or [-largest, largest].
inline BoxScale box_scale(double norm, int64_t n, int64_t largest, bool is_unsigned) {
    BoxScale k;
    k.norm = norm;
    const int64_t d = 2 * n;
    if (is_unsigned && n % 2 == 1 && norm == 1.0 / static_cast<double>(n) && (2 * n * largest + n) * d < (int64_t{1} << 32)) {
        k.magic = static_cast<uint32_t>(((uint64_t{1} << 32) + static_cast<uint64_t>(d) - 1) / static_cast<uint64_t>(d));
        k.n = static_cast<int32_t>(n);
    }
    return k;
}

// floor((2s + N) / 2N) for a scale with magic set.
__host__ __device__ inline uint32_t box_divide(uint32_t s, const BoxScale& k) {
    const uint32_t x = 2u * s + static_cast<uint32_t>(k.n);
#ifdef __CUDA_ARCH__
    return __umulhi(x, k.magic);
#else
    return static_cast<uint32_t>((uint64_t{x} * k.magic) >> 32);
#endif
}

#ifdef __CUDACC__
template <class T>
__device__ __forceinline__ T box_output(int32_t s, const BoxScale& k) {
    if (k.magic) return static_cast<T>(box_divide(static_cast<uint32_t>(s), k));
    return saturate_round<T>(__dmul_rn(to_double(s), k.norm));
}
#endif

}  // namespace ipt::cuda
