// SPDX-License-Identifier: Apache-2.0
// Conversions between MATLAB classes for inner loops. Same results as
// rounding.hpp's saturate_round (round half away from zero, saturate,
// NaN -> 0; logical: nonzero and not NaN -> true) without a call to
// std::round per element, and row versions that the compiler vectorises.
#pragma once

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

template <class To>
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) IPT_NO_TRAPPING int64_t checked_row_avx512(
    const float* src, To* dst, int64_t n, float margin, uint8_t* unsure) {
    return checked_row_impl(src, dst, n, margin, unsure);
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
