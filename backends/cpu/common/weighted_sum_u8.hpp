// SPDX-License-Identifier: Apache-2.0
// uint8 results of w0*x0 + w1*x1 + w2*x2 + offset over three uint8 planes,
// rounded half away from zero and saturated, exactly as `exact(x0, x1, x2)`
// computes them in double (rgb2gray, rgb2ycbcr, ycbcr2rgb), at integer speed.
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

// The integer pass, built for AVX-512 and AVX2 beside the baseline and chosen
// when the process starts (32-bit multiplies and min/max are slow without
// them).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define IPT_FIXED_POINT_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define IPT_FIXED_POINT_CLONES
#endif
// Returns whether any pixel is near a boundary.
IPT_FIXED_POINT_CLONES static inline bool fixed_point_pass(const FixedPointSum& f, const uint8_t* __restrict x0,
                                                           const uint8_t* __restrict x1, const uint8_t* __restrict x2,
                                                           uint8_t* __restrict out, uint8_t* __restrict near,
                                                           int64_t n) {
    const int32_t w0 = f.w[0], w1 = f.w[1], w2 = f.w[2], o = f.offset;
    const int shift = f.shift;
    const int32_t mask = (int32_t(1) << shift) - 1, lo = kFixedPointMargin, hi = mask + 1 - kFixedPointMargin;
    uint8_t any = 0;
    for (int64_t i = 0; i < n; ++i) {
        const int32_t acc = w0 * int32_t(x0[i]) + w1 * int32_t(x1[i]) + w2 * int32_t(x2[i]) + o;
        const int32_t q = acc >> shift;  // floor
        const int32_t frac = acc & mask;
        out[i] = static_cast<uint8_t>(std::clamp(q, 0, 255));
        // A value that saturates saturates for the neighbouring floors too.
        const uint8_t flag = static_cast<uint8_t>(((frac < lo) | (frac > hi)) & (q >= 0) & (q <= 255));
        near[i] = flag;
        any |= flag;
    }
    return any != 0;
}
#undef IPT_FIXED_POINT_CLONES

}  // namespace detail

// out[i] for i in [0, n); `near` is scratch of n bytes.
template <class Exact>
void weighted_sum_u8(const FixedPointSum& f, const uint8_t* x0, const uint8_t* x1, const uint8_t* x2, uint8_t* out,
                     uint8_t* near, int64_t n, Exact exact) {
    // Few pixels are near a boundary: blocks without one are not scanned, and
    // the others eight flags at a time.
    constexpr int64_t kBlock = 256;
    for (int64_t first = 0; first < n; first += kBlock) {
        const int64_t last = std::min(n, first + kBlock);
        if (!detail::fixed_point_pass(f, x0 + first, x1 + first, x2 + first, out + first, near + first, last - first))
            continue;
        int64_t i = first;
        for (; i + 8 <= last; i += 8) {
            uint64_t word;
            std::memcpy(&word, near + i, 8);
            if (word == 0) continue;
            for (int64_t k = i; k < i + 8; ++k)
                if (near[k]) out[k] = exact(x0[k], x1[k], x2[k]);
        }
        for (; i < last; ++i)
            if (near[i]) out[i] = exact(x0[i], x1[i], x2[i]);
    }
}

}  // namespace ipt::cpu
