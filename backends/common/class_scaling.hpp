// SPDX-License-Identifier: Apache-2.0
// MATLAB's image class conversions, one element at a time
// (docs/matlab-semantics.md#image-scaling): the rules of im2double,
// im2single, im2uint8, im2uint16 and im2int16, for every operator that
// converts an image's class as an image rather than as a number. Integer
// classes span [0, 1]: uint8 by 255, uint16 by 65535, int16 offset by 32768
// first; logical false and true are the ends of the range. Floating values
// go to an integer class as round(top * x), the product taken in the class of
// x, rounded half away from zero and saturated, NaN to 0; im2int16 of
// anything but uint16 and logical goes through that uint16 value and
// subtracts 32768, as MATLAB's im2int16 does. Floating to floating is a plain
// conversion, with no clamping. Header-only, usable from CUDA device code;
// the Vulkan shader shaders/im2class.comp repeats these rules in GLSL.
#pragma once

#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__)
#define IPT_SCALING_FN __host__ __device__ inline
#else
#define IPT_SCALING_FN inline
#endif

namespace ipt::common {

// a * b rounded once, never fused with a later addition.
template <class F>
IPT_SCALING_FN F product_rn(F a, F b) {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<F, float>) return __fmul_rn(a, b);
    else return __dmul_rn(a, b);
#else
    return a * b;
#endif
}

// A floating value rounded half away from zero and saturated to [0, top];
// NaN gives 0. Written without library calls so that host and device agree.
template <class F>
IPT_SCALING_FN uint32_t round_to_range(F p, uint32_t top) {
    if (!(p > F(0))) return 0;  // NaN, zero and negatives
    if (p >= static_cast<F>(top)) return top;
    const uint32_t t = static_cast<uint32_t>(p);  // truncation, p < top
    return p - static_cast<F>(t) >= F(0.5) ? t + 1 : t;  // the difference is exact
}

// im2double (F = double) and im2single (F = float) of one value.
template <class F, class T>
IPT_SCALING_FN F to_unit_scale(T v) {
    static_assert(std::is_floating_point_v<F>);
    if constexpr (std::is_same_v<T, bool>) return v ? F(1) : F(0);
    else if constexpr (std::is_same_v<T, uint8_t>) return static_cast<F>(v) / F(255);
    else if constexpr (std::is_same_v<T, uint16_t>) return static_cast<F>(v) / F(65535);
    else if constexpr (std::is_same_v<T, int16_t>) return (static_cast<F>(v) + F(32768)) / F(65535);
    else {
        static_assert(std::is_floating_point_v<T>);
        return static_cast<F>(v);
    }
}

// im2uint16 of one value.
template <class T>
IPT_SCALING_FN uint16_t to_uint16_scale(T v) {
    if constexpr (std::is_same_v<T, bool>) return v ? 65535 : 0;
    else if constexpr (std::is_same_v<T, uint8_t>) return static_cast<uint16_t>(v * 257u);
    else if constexpr (std::is_same_v<T, uint16_t>) return v;
    else if constexpr (std::is_same_v<T, int16_t>) return static_cast<uint16_t>(static_cast<int32_t>(v) + 32768);
    else {
        static_assert(std::is_floating_point_v<T>);
        return static_cast<uint16_t>(round_to_range(product_rn(T(65535), v), 65535u));
    }
}

// im2uint8 of one value. x/257 is never a tie (257 is odd), so
// round(x/257) = floor((x + 128)/257).
template <class T>
IPT_SCALING_FN uint8_t to_uint8_scale(T v) {
    if constexpr (std::is_same_v<T, bool>) return v ? 255 : 0;
    else if constexpr (std::is_same_v<T, uint8_t>) return v;
    else if constexpr (std::is_same_v<T, uint16_t>) return static_cast<uint8_t>((v + 128u) / 257u);
    else if constexpr (std::is_same_v<T, int16_t>)
        return static_cast<uint8_t>((static_cast<uint32_t>(static_cast<int32_t>(v) + 32768) + 128u) / 257u);
    else {
        static_assert(std::is_floating_point_v<T>);
        return static_cast<uint8_t>(round_to_range(product_rn(T(255), v), 255u));
    }
}

// im2int16 of one value: logical false and true are -32768 and 32767.
template <class T>
IPT_SCALING_FN int16_t to_int16_scale(T v) {
    if constexpr (std::is_same_v<T, bool>) return v ? int16_t(32767) : int16_t(-32768);
    else if constexpr (std::is_same_v<T, int16_t>) return v;
    else return static_cast<int16_t>(static_cast<int32_t>(to_uint16_scale(v)) - 32768);
}

// The conversion to class Out (double, float, uint8_t, uint16_t, int16_t)
// of one value of class T (bool, uint8_t, uint16_t, int16_t, float, double).
template <class Out, class T>
IPT_SCALING_FN Out convert_image_class(T v) {
    if constexpr (std::is_floating_point_v<Out>) return to_unit_scale<Out>(v);
    else if constexpr (std::is_same_v<Out, uint8_t>) return to_uint8_scale(v);
    else if constexpr (std::is_same_v<Out, uint16_t>) return to_uint16_scale(v);
    else {
        static_assert(std::is_same_v<Out, int16_t>);
        return to_int16_scale(v);
    }
}

}  // namespace ipt::common
