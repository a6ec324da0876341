// SPDX-License-Identifier: Apache-2.0
// uint8 results of w0*x0 + w1*x1 + w2*x2 + offset over three uint8 planes,
// rounded half away from zero and saturated, exactly as `exact(x0, x1, x2)`
// computes them in double (rgb2gray; rgb2ycbcr and ycbcr2rgb, three sums of
// the same planes in one pass), at integer speed.
// A fixed-point sum with S fractional bits is within 0.5*(765+1) units of the
// real value, and the double sum within far less than one unit, so wherever
// the fixed-point fraction is further than `kMargin` units from a rounding
// boundary both round alike; the rare pixels closer than that are computed
// by `exact`.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "isa.hpp"

namespace ipt::cpu {

struct FixedPointSum {
    bool usable = false;  // false: the weights are too large for 32-bit sums with >= 16 fraction bits
    int shift = 0;
    int32_t w[3] = {0, 0, 0};
    int32_t offset = 0;  // (offset + 0.5) in fixed point: the floor of the sum is then the rounded value
};

inline constexpr int32_t kFixedPointMargin = 400;  // > 0.5 * (3*255 + 1) + 1

inline FixedPointSum fixed_point_sum(const double (&w)[3], double offset) {
    FixedPointSum f;
    const double bound = 255.0 * (std::fabs(w[0]) + std::fabs(w[1]) + std::fabs(w[2])) + std::fabs(offset) + 2.0;
    if (!std::isfinite(bound)) return f;
    int shift = 30 - static_cast<int>(std::ceil(std::log2(bound)));
    shift = std::min(shift, 24);
    if (shift < 16) return f;
    const double scale = std::ldexp(1.0, shift);
    for (int k = 0; k < 3; ++k) f.w[k] = static_cast<int32_t>(std::lround(w[k] * scale));
    f.offset = static_cast<int32_t>(std::lround((offset + 0.5) * scale));
    f.shift = shift;
    f.usable = true;
    return f;
}

namespace detail {

// Whether a fixed-point sum's fraction lies within the margin of a rounding
// boundary, on either side, as one unsigned compare. Saturated values are
// tested too: one test per sum is cheaper than sparing those few pixels.
IPT_ALWAYS_INLINE bool near_rounding_boundary(int32_t acc, int32_t mask) {
    return static_cast<uint32_t>((acc + kFixedPointMargin) & mask) < static_cast<uint32_t>(2 * kFixedPointMargin);
}

// N sums (1 or 3) of the same three planes in one pass, so that each pixel's
// three values are loaded and widened once; near[i] flags a pixel when any
// of its sums is near a rounding boundary. Returns whether any pixel is.
template <int N>
__attribute__((always_inline)) inline bool fixed_point_sums(const FixedPointSum* f, const uint8_t* __restrict x0,
                                                            const uint8_t* __restrict x1,
                                                            const uint8_t* __restrict x2, uint8_t* __restrict out0,
                                                            uint8_t* __restrict out1, uint8_t* __restrict out2,
                                                            uint8_t* __restrict near, int64_t n) {
    int32_t w0[N], w1[N], w2[N], o[N], mask[N];
    int shift[N];
    for (int k = 0; k < N; ++k) {
        w0[k] = f[k].w[0], w1[k] = f[k].w[1], w2[k] = f[k].w[2], o[k] = f[k].offset;
        shift[k] = f[k].shift;
        mask[k] = (int32_t(1) << shift[k]) - 1;
    }
    uint8_t any = 0;
    for (int64_t i = 0; i < n; ++i) {
        const int32_t a = x0[i], b = x1[i], c = x2[i];
        uint8_t flag = 0;
#pragma GCC unroll 3
        for (int k = 0; k < N; ++k) {
            const int32_t acc = w0[k] * a + w1[k] * b + w2[k] * c + o[k];
            const int32_t q = acc >> shift[k];  // floor
            const auto v = static_cast<uint8_t>(std::clamp(q, 0, 255));
            if (k == 0) out0[i] = v;
            else if (k == 1) out1[i] = v;
            else out2[i] = v;
            flag |= static_cast<uint8_t>(near_rounding_boundary(acc, mask[k]));
        }
        near[i] = flag;
        any |= flag;
    }
    return any != 0;
}

// The passes, built for AVX2 beside the baseline and chosen when the process
// starts (32-bit multiplies and min/max are slow without it); with AVX-512,
// fixed_point_sums_avx512 below runs instead.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define IPT_FIXED_POINT_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define IPT_FIXED_POINT_CLONES
#endif
IPT_FIXED_POINT_CLONES static inline bool fixed_point_pass(const FixedPointSum& f, const uint8_t* x0,
                                                           const uint8_t* x1, const uint8_t* x2, uint8_t* out,
                                                           uint8_t* near, int64_t n) {
    return fixed_point_sums<1>(&f, x0, x1, x2, out, nullptr, nullptr, near, n);
}
IPT_FIXED_POINT_CLONES static inline bool fixed_point_pass3(const FixedPointSum* f, const uint8_t* x0,
                                                            const uint8_t* x1, const uint8_t* x2, uint8_t* out0,
                                                            uint8_t* out1, uint8_t* out2, uint8_t* near, int64_t n) {
    return fixed_point_sums<3>(f, x0, x1, x2, out0, out1, out2, near, n);
}
#undef IPT_FIXED_POINT_CLONES

// Calls fix(i) for every flagged i in [first, last): few pixels are near a
// boundary, so the flags are scanned eight at a time.
template <class Fix>
void for_each_near(const uint8_t* near, int64_t first, int64_t last, Fix&& fix) {
    int64_t i = first;
    for (; i + 8 <= last; i += 8) {
        uint64_t word;
        std::memcpy(&word, near + i, 8);
        if (word == 0) continue;
        for (int64_t k = i; k < i + 8; ++k)
            if (near[k]) fix(k);
    }
    for (; i < last; ++i)
        if (near[i]) fix(i);
}

constexpr int64_t kNearBlock = 256;  // blocks without a flagged pixel are not scanned

#if defined(__x86_64__) && defined(__GNUC__)
// (GCC 12's intrinsics pass an undefined register through to the masked
// builtins, which -Wmaybe-uninitialized reports inside its own headers.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
// fixed_point_sums in AVX-512, sixteen pixels a step with every sum in a
// register, listing the flagged pixels instead of flagging bytes:
// flagged[0 .. count) are their indices (n <= kNearBlock), count returned.
template <int N>
__attribute__((target("avx512f"))) int fixed_point_sums_avx512(const FixedPointSum* f, const uint8_t* x0,
                                                              const uint8_t* x1, const uint8_t* x2,
                                                              uint8_t* const* outs, int32_t* flagged, int64_t n) {
    __m512i w0[N], w1[N], w2[N], o[N], mask[N];
    __m128i shift[N];
    for (int k = 0; k < N; ++k) {
        w0[k] = _mm512_set1_epi32(f[k].w[0]);
        w1[k] = _mm512_set1_epi32(f[k].w[1]);
        w2[k] = _mm512_set1_epi32(f[k].w[2]);
        o[k] = _mm512_set1_epi32(f[k].offset);
        mask[k] = _mm512_set1_epi32((int32_t(1) << f[k].shift) - 1);
        shift[k] = _mm_cvtsi32_si128(f[k].shift);
    }
    const __m512i margin = _mm512_set1_epi32(kFixedPointMargin), width = _mm512_set1_epi32(2 * kFixedPointMargin);
    const __m512i zero = _mm512_setzero_si512(), top = _mm512_set1_epi32(255);
    const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    int count = 0;
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m512i a = _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x0 + i)));
        const __m512i b = _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x1 + i)));
        const __m512i c = _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x2 + i)));
        __mmask16 flag = 0;
        for (int k = 0; k < N; ++k) {
            __m512i acc = _mm512_add_epi32(_mm512_mullo_epi32(w0[k], a), _mm512_mullo_epi32(w1[k], b));
            acc = _mm512_add_epi32(_mm512_add_epi32(acc, _mm512_mullo_epi32(w2[k], c)), o[k]);
            const __m512i q = _mm512_min_epi32(_mm512_max_epi32(_mm512_sra_epi32(acc, shift[k]), zero), top);
            _mm_storeu_si128(reinterpret_cast<__m128i*>(outs[k] + i), _mm512_cvtepi32_epi8(q));
            // near_rounding_boundary in sixteen lanes.
            const __m512i frac = _mm512_and_si512(_mm512_add_epi32(acc, margin), mask[k]);
            flag = static_cast<__mmask16>(flag | _mm512_cmplt_epu32_mask(frac, width));
        }
        if (flag) {
            _mm512_mask_compressstoreu_epi32(flagged + count, flag,
                                             _mm512_add_epi32(lanes, _mm512_set1_epi32(static_cast<int32_t>(i))));
            count += __builtin_popcount(flag);
        }
    }
    for (; i < n; ++i) {
        const int32_t a = x0[i], b = x1[i], c = x2[i];
        bool flag = false;
        for (int k = 0; k < N; ++k) {
            const int32_t acc = f[k].w[0] * a + f[k].w[1] * b + f[k].w[2] * c + f[k].offset;
            outs[k][i] = static_cast<uint8_t>(std::clamp(acc >> f[k].shift, 0, 255));
            flag = near_rounding_boundary(acc, (int32_t(1) << f[k].shift) - 1) || flag;
        }
        if (flag) flagged[count++] = static_cast<int32_t>(i);
    }
    return count;
}
#pragma GCC diagnostic pop
#endif

// The N sums over [0, n) in blocks, fix(i) for every flagged pixel i.
template <int N, class Fix>
void fixed_point_blocks(const FixedPointSum* f, const uint8_t* x0, const uint8_t* x1, const uint8_t* x2,
                        uint8_t* const* outs, uint8_t* near, int64_t n, Fix&& fix) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (isa_level() == 2) {
        int32_t flagged[kNearBlock];
        for (int64_t first = 0; first < n; first += kNearBlock) {
            uint8_t* const block_outs[3] = {outs[0] + first, N > 1 ? outs[1] + first : nullptr,
                                            N > 2 ? outs[2] + first : nullptr};
            const int count = fixed_point_sums_avx512<N>(f, x0 + first, x1 + first, x2 + first, block_outs, flagged,
                                                         std::min(kNearBlock, n - first));
            for (int j = 0; j < count; ++j) fix(first + flagged[j]);
        }
        return;
    }
#endif
    for (int64_t first = 0; first < n; first += kNearBlock) {
        const int64_t last = std::min(n, first + kNearBlock);
        bool any;
        if constexpr (N == 1)
            any = fixed_point_pass(*f, x0 + first, x1 + first, x2 + first, outs[0] + first, near + first, last - first);
        else
            any = fixed_point_pass3(f, x0 + first, x1 + first, x2 + first, outs[0] + first, outs[1] + first,
                                    outs[2] + first, near + first, last - first);
        if (any) for_each_near(near, first, last, fix);
    }
}

}  // namespace detail

// out[i] for i in [0, n); `near` is scratch of n bytes (the passes without
// AVX-512 flag pixels in it).
template <class Exact>
void weighted_sum_u8(const FixedPointSum& f, const uint8_t* x0, const uint8_t* x1, const uint8_t* x2, uint8_t* out,
                     uint8_t* near, int64_t n, Exact exact) {
    uint8_t* const outs[1] = {out};
    detail::fixed_point_blocks<1>(&f, x0, x1, x2, outs, near, n,
                                  [&](int64_t k) { out[k] = exact(x0[k], x1[k], x2[k]); });
}

// Three sums of the same planes (a 3x3 colour matrix): outk[i] for k < 3 and
// i in [0, n); exact(k, x0, x1, x2) gives sum k in double. `near` is scratch
// of n bytes.
template <class Exact>
void weighted_sums3_u8(const FixedPointSum (&f)[3], const uint8_t* x0, const uint8_t* x1, const uint8_t* x2,
                       uint8_t* out0, uint8_t* out1, uint8_t* out2, uint8_t* near, int64_t n, Exact exact) {
    uint8_t* const outs[3] = {out0, out1, out2};
    detail::fixed_point_blocks<3>(f, x0, x1, x2, outs, near, n, [&](int64_t k) {
        out0[k] = exact(0, x0[k], x1[k], x2[k]);
        out1[k] = exact(1, x0[k], x1[k], x2[k]);
        out2[k] = exact(2, x0[k], x1[k], x2[k]);
    });
}

}  // namespace ipt::cpu
