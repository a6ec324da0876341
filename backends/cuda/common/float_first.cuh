// SPDX-License-Identifier: Apache-2.0
// round(w . x + offset) of uint8 values x with double weights, saturated to
// uint8, as MATLAB's double arithmetic gives it, at single-precision speed.
// The sum is taken in single; where it lies farther than a proven margin from
// every half-integer, the double sum rounds to the same integer (both lie
// within the margin of the exact sum), and the single result stands. The
// rest (a few in ten thousand) are declined, for the caller to compute in
// double. This is the GPU's form of the CPU plugin's single-first sums
// (backends/cpu/common/single_first.hpp): on sm_80 and sm_90 double adds and
// multiplies run at half the single rate and conversions at a quarter of
// that, which bound the double form of bandwidth-bound uint8 kernels.
//
// The margin: with u = 2^-24 and A = sum |w_i| * 255 + |offset|, rounding the
// weights and offset to single moves the sum by at most u A, and the n fused
// multiply-adds round n times, by at most n u A (1 + O(u)) in all; the double
// sum is within (n + 1) 2^-53 A of the exact one. (n + 2) u A covers all of
// it for n <= 8, and 2^-20 more keeps a margin where A is tiny.
#pragma once

#include <cmath>
#include <cstdint>

namespace ipt::cuda {

template <int N>
struct FloatFirstSum {
    float w[N] = {};
    float offset = 0;
    float decided_below = 0;  // 0.5 - margin, rounded down; 0: every value goes the double way
    // Weights and offset multiples of 2^-k small enough that every single and
    // double product and partial sum is exact (see float_first_sum): the
    // single sum is the double one, ties included, and single decides all.
    bool exact = false;
};

// Weights w[0..n) (n <= N) and offset of a sum of uint8 values.
template <int N>
inline FloatFirstSum<N> float_first_sum(const double* w, int n, double offset) {
    FloatFirstSum<N> f;
    double a = std::fabs(offset);
    for (int i = 0; i < n && i < N; ++i) {
        f.w[i] = static_cast<float>(w[i]);
        a += std::fabs(w[i]) * 255.0;
    }
    f.offset = static_cast<float>(offset);
    // Finite, and small enough for the margin to mean something; otherwise
    // decided_below stays 0 and every value takes the double way.
    if (!(n <= N && n <= 8 && std::isfinite(a) && a < 2097152.0)) return f;
    // Dyadic weights (halves, quarters, integers: an average of two images):
    // with every weight and the offset a multiple of 2^-k and A 2^k < 2^24,
    // every partial sum, single or double, is a multiple of 2^-k below 2^24
    // of them, so none rounds; k <= 16 keeps s + 0.5 exact as well.
    for (int k = 0; k <= 16 && !f.exact; ++k) {
        const double scale = std::ldexp(1.0, k);
        bool dyadic = std::ldexp(a, k) < 16777216.0 && std::trunc(offset * scale) == offset * scale;
        for (int i = 0; i < n; ++i) dyadic = dyadic && std::trunc(w[i] * scale) == w[i] * scale;
        f.exact = dyadic;
    }
    const double margin = (n + 2) * std::ldexp(a, -24) + std::ldexp(1.0, -20);
    f.decided_below = std::nextafter(static_cast<float>(0.5 - margin), 0.0f);
    if (f.decided_below < 0) f.decided_below = 0;
    return f;
}

// The threshold of float_first_round_below for the sums f describes: every
// exact sum is decided, the others below the proven margin.
template <int N>
inline float float_first_threshold(const FloatFirstSum<N>& f) {
    return f.exact ? 1.0f : f.decided_below;
}

#ifdef __CUDACC__
// Byte E (0-3) of the word w as a float: 2^23 + the byte from its bits (one
// byte permute picks it out of the word), less 2^23: no conversion
// instruction.
template <int E>
__device__ inline float word_byte_to_float(unsigned w) {
    static_assert(E >= 0 && E < 4, "a byte of a word");
    return __int_as_float(__byte_perm(w, 0x4B000000u, 0x7440 | E)) - 8388608.0f;
}
// A byte (a word below 256) as a float.
__device__ inline float byte_to_float(unsigned v) { return word_byte_to_float<0>(v); }
// The same for a byte already zero-extended by its load: the bits OR'd with
// an immediate, where the permute needs its constant in a register.
__device__ __forceinline__ float zero_extended_byte_to_float(unsigned v) {
    return __fsub_rn(__uint_as_float(v | 0x4B000000u), 8388608.0f);
}

// The rounded, saturated sum of byte values x[0..N), given as floats, when
// single decides it (f made for N of its M weights). Few instructions, since
// these kernels are bound by issue: the sum clamped to [0, 255] first (values
// outside saturate whatever their rounding), rounded through the bits of
// 1.5 * 2^23, and decided when its distance to that integer (exact:
// Sterbenz) is below 0.5 - margin. EXACT: f.exact holds, s is MATLAB's sum,
// rounded half away (s >= 0 here) exactly, and always decided.
template <bool EXACT, int N, int M>
__device__ inline bool float_first_round_floats(const FloatFirstSum<M>& f, const float (&x)[N], unsigned* out) {
    static_assert(N <= M, "as many weights as values");
    float s = f.offset;
#pragma unroll
    for (int i = 0; i < N; ++i) s = __fmaf_rn(f.w[i], x[i], s);
    s = fminf(fmaxf(s, 0.0f), 255.0f);
    if constexpr (EXACT) {
        *out = static_cast<unsigned>(__float_as_int(__fadd_rn(floorf(__fadd_rn(s, 0.5f)), 12582912.0f))) & 255u;
        return true;
    } else {
        const float big = __fadd_rn(s, 12582912.0f);  // 1.5 * 2^23 + the nearest integer
        const float nearest = __fsub_rn(big, 12582912.0f);
        *out = static_cast<unsigned>(__float_as_int(big)) & 255u;
        return fabsf(__fsub_rn(s, nearest)) < f.decided_below;
    }
}

// The threshold form, for sums whose weights change from output to output
// (imresize's tables): s, the single sum of one uint8 output, rounded half
// away and saturated into *out, decided when its distance to that integer is
// below `decided_below` (float_first_threshold: FloatFirstSum::decided_below,
// or 1 where f.exact holds, so that every exact sum, ties included, is
// decided). Where s + 0.5 rounds up across an integer, s lies within a
// rounding of a half-integer and the distance, 0.5 or more, declines it.
// floor(s + 0.5) comes from the bits of 2^23 + (s + 0.5) rounded down, and s
// less that integer is exact (Sterbenz).
__device__ __forceinline__ bool float_first_round_below(float s, float decided_below, unsigned* out) {
    s = fminf(fmaxf(s, 0.0f), 255.0f);
    const float big = __fadd_rd(__fadd_rn(s, 0.5f), 8388608.0f);  // 2^23 + floor(s + 0.5)
    *out = __float_as_uint(big) & 255u;
    return fabsf(__fsub_rn(s, __fsub_rn(big, 8388608.0f))) < decided_below;
}

// The same from the bytes, f.exact read at run time.
template <int N, int M>
__device__ inline bool float_first_round_u8(const FloatFirstSum<M>& f, const unsigned (&x)[N], unsigned* out) {
    float xf[N];
#pragma unroll
    for (int i = 0; i < N; ++i) xf[i] = byte_to_float(x[i]);
    return f.exact ? float_first_round_floats<true>(f, xf, out) : float_first_round_floats<false>(f, xf, out);
}

#endif

}  // namespace ipt::cuda
