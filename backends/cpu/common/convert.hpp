// SPDX-License-Identifier: Apache-2.0
// Conversions between MATLAB classes for inner loops. Same results as
// rounding.hpp's saturate_round (round half away from zero, saturate,
// NaN -> 0; logical: nonzero and not NaN -> true) without a call to
// std::round per element, and row versions that the compiler vectorises.
#pragma once

#include <immintrin.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "isa.hpp"

namespace ipt::cpu {

// Double to a MATLAB class. Clamping first keeps every value in the range of
// the integer conversion; c - trunc(c) is exact, so comparing it with 0.5
// rounds half away from zero exactly.
template <class T>
inline T to_class(double v) {
    if constexpr (std::is_same_v<T, bool>) {
        return v != 0 && v == v;
    } else if constexpr (std::is_floating_point_v<T>) {
        return static_cast<T>(v);
    } else {
        constexpr double lo = static_cast<double>(std::numeric_limits<T>::lowest());
        constexpr double hi = static_cast<double>(std::numeric_limits<T>::max());
        double c = v < lo ? lo : v;
        c = c > hi ? hi : c;
        c = (v == v) ? c : 0.0;  // NaN -> 0
        using I = std::conditional_t<(sizeof(T) < 4) || std::is_same_v<T, int32_t>, int32_t, int64_t>;
        I i = static_cast<I>(c);
        const double f = c - static_cast<double>(i);
        i += static_cast<I>(f >= 0.5) - static_cast<I>(f <= -0.5);
        return static_cast<T>(i);
    }
}

namespace convert_detail {

// no-trapping-math lets the compiler turn the selects into vector blends
// (nothing here relies on floating-point exceptions). Functions with this
// attribute do not inline std:: math wrappers, hence the builtins below.
#define IPT_NO_TRAPPING __attribute__((optimize("no-trapping-math")))

// Written for the vectoriser: clamp with selects (NaN -> 0), then round half
// away from zero as trunc(c + copysign(0.5 - 2^-54, c)), exact for
// |c| < 2^52: the constant is below 0.5, so the sum reaches the next integer
// only when the fraction is at least 0.5 (a fraction of exactly 0.5 makes the
// sum a tie that rounds to the even integer above).
template <class From, class To>
IPT_ALWAYS_INLINE IPT_NO_TRAPPING void convert_row_impl(const From* __restrict src, To* __restrict dst, int64_t n) {
    if constexpr (std::is_floating_point_v<To>) {
        for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<To>(src[i]);
    } else if constexpr (std::is_same_v<To, bool>) {
        for (int64_t i = 0; i < n; ++i) {
            const double v = static_cast<double>(src[i]);
            dst[i] = v != 0 && v == v;
        }
    } else {
        constexpr double lo = static_cast<double>(std::numeric_limits<To>::lowest());
        constexpr double hi = static_cast<double>(std::numeric_limits<To>::max());
        using I = std::conditional_t<(sizeof(To) < 4) || std::is_same_v<To, int32_t>, int32_t, int64_t>;
        for (int64_t i = 0; i < n; ++i) {
            const double v = static_cast<double>(src[i]);
            double c = v < lo ? lo : v;
            c = c > hi ? hi : c;
            c = v == v ? c : 0.0;
            const double r = __builtin_trunc(c + __builtin_copysign(0.49999999999999994, c));
            dst[i] = static_cast<To>(static_cast<I>(r));
        }
    }
}

template <class From, class To>
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) IPT_NO_TRAPPING void convert_row_avx512(
    const From* src, To* dst, int64_t n) {
    convert_row_impl(src, dst, n);
}
template <class From, class To>
__attribute__((target("avx2,fma"))) IPT_NO_TRAPPING void convert_row_avx2(const From* src, To* dst, int64_t n) {
    convert_row_impl(src, dst, n);
}
template <class From, class To>
IPT_NO_TRAPPING void convert_row_base(const From* src, To* dst, int64_t n) {
    convert_row_impl(src, dst, n);
}

// convert_row_impl from single, and unsure[i] = 1 where the single value
// lies within `margin` of a rounding boundary (a half-integer; 0 for
// logical), i.e. where a value off by up to `margin` could convert otherwise.
template <class To>
IPT_ALWAYS_INLINE IPT_NO_TRAPPING int64_t checked_row_impl(const float* __restrict src, To* __restrict dst, int64_t n,
                                                           float margin, uint8_t* __restrict unsure) {
    int64_t count = 0;
    for (int64_t i = 0; i < n; ++i) {
        const float f = src[i];
        float d;
        if constexpr (std::is_same_v<To, bool>) {
            dst[i] = f != 0 && f == f;
            d = __builtin_fabsf(f);
        } else {
            // Rounded in single: where the flag stays 0 the value is at least
            // `margin` from a half-integer, so single and double round alike
            // (0.5 - 2^-25 plays the role of 0.5 - 2^-54 above; exact below 2^23,
            // and every class handled here stays below 2^16 after clamping).
            constexpr float lo = static_cast<float>(std::numeric_limits<To>::lowest());
            constexpr float hi = static_cast<float>(std::numeric_limits<To>::max());
            float c = f < lo ? lo : f;
            c = c > hi ? hi : c;
            c = f == f ? c : 0.0f;
            const float r = __builtin_truncf(c + __builtin_copysignf(0.49999997f, c));
            dst[i] = static_cast<To>(static_cast<int32_t>(r));
            d = __builtin_fabsf(f - __builtin_floorf(f) - 0.5f);
        }
        const uint8_t u = !(d > margin);
        unsure[i] = u;
        count += u;
    }
    return count;
}

// uint8 with AVX-512 intrinsics, sixteen values a step, in fewer operations
// than the vectorised loop above: the value rounded to the nearest integer
// (ties to even: a value that is not flagged is no tie, and a flagged one is
// replaced by the caller), clamped to [0, 255], and flagged where its
// distance to that integer is at least 0.5 - margin (NaN and Inf too, their
// distance being NaN). The threshold is rounded down, so it flags every value
// checked_row_impl flags.
// (GCC 12's AVX-512 intrinsics start from undefined vectors, which
// -Wmaybe-uninitialized reports inside its own headers.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) IPT_NO_TRAPPING inline int64_t checked_u8_avx512(
    const float* src, uint8_t* dst, int64_t n, float margin, uint8_t* unsure) {
    float limit = 0.5f - margin;
    if (static_cast<double>(limit) > 0.5 - static_cast<double>(margin)) limit = std::nextafter(limit, 0.0f);
    const __m512 threshold = _mm512_set1_ps(limit), zero = _mm512_setzero_ps(), top = _mm512_set1_ps(255.0f);
    int64_t count = 0, i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m512 f = _mm512_loadu_ps(src + i);
        const __m512 nearest = _mm512_roundscale_ps(f, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        const __m512 distance = _mm512_abs_ps(_mm512_sub_ps(f, nearest));
        const __mmask16 flagged = _mm512_cmp_ps_mask(distance, threshold, _CMP_NLT_UQ);
        // max(NaN, 0) is 0: NaN converts to 0 as MATLAB's does.
        const __m512 clamped = _mm512_min_ps(_mm512_max_ps(nearest, zero), top);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), _mm512_cvtepi32_epi8(_mm512_cvtps_epi32(clamped)));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(unsure + i), _mm_maskz_set1_epi8(flagged, 1));
        count += __builtin_popcount(flagged);
    }
    return count + checked_row_impl(src + i, dst + i, n - i, margin, unsure + i);
}
#pragma GCC diagnostic pop

template <class To>
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) IPT_NO_TRAPPING int64_t checked_row_avx512(
    const float* src, To* dst, int64_t n, float margin, uint8_t* unsure) {
    if constexpr (std::is_same_v<To, uint8_t>) return checked_u8_avx512(src, dst, n, margin, unsure);
    else return checked_row_impl(src, dst, n, margin, unsure);
}
template <class To>
__attribute__((target("avx2,fma"))) IPT_NO_TRAPPING int64_t checked_row_avx2(const float* src, To* dst, int64_t n,
                                                                            float margin, uint8_t* unsure) {
    return checked_row_impl(src, dst, n, margin, unsure);
}
template <class To>
IPT_NO_TRAPPING int64_t checked_row_base(const float* src, To* dst, int64_t n, float margin, uint8_t* unsure) {
    return checked_row_impl(src, dst, n, margin, unsure);
}

}  // namespace convert_detail

// Single to an integer class or logical, flagging the values that are within
// `margin` of a rounding boundary; returns how many were flagged.
template <class To>
int64_t convert_row_checked(const float* src, To* dst, int64_t n, float margin, uint8_t* unsure) {
    switch (isa_level()) {
    case 2: return convert_detail::checked_row_avx512(src, dst, n, margin, unsure);
    case 1: return convert_detail::checked_row_avx2(src, dst, n, margin, unsure);
    default: return convert_detail::checked_row_base(src, dst, n, margin, unsure);
    }
}

// dst[i] = src[i] converted to To with MATLAB's rules (a plain conversion
// to a floating class; round, saturate, NaN -> 0 to an integer class;
// nonzero to logical).
template <class From, class To>
void convert_row(const From* src, To* dst, int64_t n) {
    if constexpr (std::is_same_v<From, bool>) {
        for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<To>(src[i]);
    } else if constexpr (std::is_same_v<From, To>) {
        for (int64_t i = 0; i < n; ++i) dst[i] = src[i];
    } else {
        switch (isa_level()) {
        case 2: convert_detail::convert_row_avx512(src, dst, n); break;
        case 1: convert_detail::convert_row_avx2(src, dst, n); break;
        default: convert_detail::convert_row_base(src, dst, n); break;
        }
    }
}

}  // namespace ipt::cpu
