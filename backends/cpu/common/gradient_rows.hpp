// SPDX-License-Identifier: Apache-2.0
// Rows of imgradientxy's Gx and Gy and of imgradient's magnitude, shared by
// ops/imgradientxy.cpp and ops/imgradient.cpp. Sobel and Prewitt run their
// interior columns as a loop the compiler vectorises (compiled for AVX-512,
// AVX2 and the baseline); the two edge columns, the other methods and narrow
// images take the front-end's per-pixel stencil (common/ops/imgradientxy.hpp).
// Each value is the same expression as the stencil's, so every value is the
// same; where two NaNs meet (an Inf - Inf and a NaN of the image), which
// one's sign the sum keeps is the compiler's choice of operand order, here as
// in the per-pixel code.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "common/isa.hpp"
#include "common/ops/imgradient.hpp"
#include "common/ops/imgradientxy.hpp"

// Selects without trapping concerns (nothing here reads floating-point
// exceptions).
#define IPT_GRADIENT_MATH __attribute__((optimize("no-trapping-math")))

namespace ipt::cpu {

namespace gradient_detail {

// Columns 1 .. n-2 of Gx and Gy from the rows above, at and below (clamped).
template <bool Sobel, class T, class In>
IPT_ALWAYS_INLINE IPT_GRADIENT_MATH void interior_impl(const In* __restrict up, const In* __restrict at,
                                                       const In* __restrict down, int64_t n, T* __restrict gx,
                                                       T* __restrict gy) {
    for (int64_t c = 1; c + 1 < n; ++c) {
        const T x0 = static_cast<T>(up[c + 1]) - static_cast<T>(up[c - 1]);
        const T x1 = static_cast<T>(at[c + 1]) - static_cast<T>(at[c - 1]);
        const T x2 = static_cast<T>(down[c + 1]) - static_cast<T>(down[c - 1]);
        const T y0 = static_cast<T>(down[c - 1]) - static_cast<T>(up[c - 1]);
        const T y1 = static_cast<T>(down[c]) - static_cast<T>(up[c]);
        const T y2 = static_cast<T>(down[c + 1]) - static_cast<T>(up[c + 1]);
        gx[c] = ipt::frontend::stencil3_sum(x0, x1, x2, Sobel);
        gy[c] = ipt::frontend::stencil3_sum(y0, y1, y2, Sobel);
    }
}

template <bool Sobel, class T, class In>
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) IPT_GRADIENT_MATH void interior_avx512(
    const In* up, const In* at, const In* down, int64_t n, T* gx, T* gy) {
    interior_impl<Sobel>(up, at, down, n, gx, gy);
}
template <bool Sobel, class T, class In>
__attribute__((target("avx2"))) IPT_GRADIENT_MATH void interior_avx2(const In* up, const In* at, const In* down,
                                                                     int64_t n, T* gx, T* gy) {
    interior_impl<Sobel>(up, at, down, n, gx, gy);
}
template <bool Sobel, class T, class In>
IPT_GRADIENT_MATH void interior_base(const In* up, const In* at, const In* down, int64_t n, T* gx, T* gy) {
    interior_impl<Sobel>(up, at, down, n, gx, gy);
}

template <bool Sobel, class T, class In>
void interior(const In* up, const In* at, const In* down, int64_t n, T* gx, T* gy) {
    switch (isa_level()) {
    case 2: interior_avx512<Sobel>(up, at, down, n, gx, gy); break;
    case 1: interior_avx2<Sobel>(up, at, down, n, gx, gy); break;
    default: interior_base<Sobel>(up, at, down, n, gx, gy); break;
    }
}

// gradient_magnitude for single: an infinite component gives Inf, else the
// double root of the double sum of squares, rounded to single.
inline float magnitude_one(float gx, float gy) {
    const double x = gx, y = gy;
    const float m = static_cast<float>(std::sqrt(x * x + y * y));
    return (std::fabs(gx) == __builtin_inff() || std::fabs(gy) == __builtin_inff()) ? __builtin_inff() : m;
}

#if defined(__x86_64__) || defined(__i386__)
// Eight at a time with AVX (std::sqrt's errno check keeps the compiler from
// vectorising it): the same products, sum, root and rounding.
__attribute__((target("avx2"))) inline void magnitude_avx2(const float* gx, const float* gy, float* mag, int64_t n) {
    const __m256 inf = _mm256_set1_ps(__builtin_inff());
    const __m256 sign = _mm256_set1_ps(-0.0f);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 fx = _mm256_loadu_ps(gx + i), fy = _mm256_loadu_ps(gy + i);
        __m128 half[2];
        for (int h = 0; h < 2; ++h) {
            const __m256d x = _mm256_cvtps_pd(h ? _mm256_extractf128_ps(fx, 1) : _mm256_castps256_ps128(fx));
            const __m256d y = _mm256_cvtps_pd(h ? _mm256_extractf128_ps(fy, 1) : _mm256_castps256_ps128(fy));
            half[h] = _mm256_cvtpd_ps(_mm256_sqrt_pd(_mm256_add_pd(_mm256_mul_pd(x, x), _mm256_mul_pd(y, y))));
        }
        const __m256 m = _mm256_insertf128_ps(_mm256_castps128_ps256(half[0]), half[1], 1);
        const __m256 infinite = _mm256_or_ps(_mm256_cmp_ps(_mm256_andnot_ps(sign, fx), inf, _CMP_EQ_OQ),
                                             _mm256_cmp_ps(_mm256_andnot_ps(sign, fy), inf, _CMP_EQ_OQ));
        _mm256_storeu_ps(mag + i, _mm256_blendv_ps(m, inf, infinite));
    }
    for (; i < n; ++i) mag[i] = magnitude_one(gx[i], gy[i]);
}
#endif

}  // namespace gradient_detail

// Row r of Gx and Gy (cols values each) of the rows x cols image I.
template <class T, class In>
void gradient_xy_row(const ipt::frontend::ImgradientxyPlan& p, const In* I, int64_t r, T* gx, T* gy) {
    using ipt::frontend::GradientMethod;
    const int64_t rows = p.rows, cols = p.cols;
    const bool stencil3 = p.method == GradientMethod::Sobel || p.method == GradientMethod::Prewitt;
    if (stencil3 && cols >= 3) {
        const int64_t rm = r > 0 ? r - 1 : 0, rp = r + 1 < rows ? r + 1 : r;
        if (p.method == GradientMethod::Sobel)
            gradient_detail::interior<true>(I + rm * cols, I + r * cols, I + rp * cols, cols, gx, gy);
        else
            gradient_detail::interior<false>(I + rm * cols, I + r * cols, I + rp * cols, cols, gx, gy);
        ipt::frontend::gradient_xy<T>(I, rows, cols, r, 0, p.method, gx[0], gy[0]);
        ipt::frontend::gradient_xy<T>(I, rows, cols, r, cols - 1, p.method, gx[cols - 1], gy[cols - 1]);
        return;
    }
    for (int64_t c = 0; c < cols; ++c) ipt::frontend::gradient_xy<T>(I, rows, cols, r, c, p.method, gx[c], gy[c]);
}

// mag[i] = gradient_magnitude(gx[i], gy[i]) for i < n.
template <class T>
void gradient_magnitude_row(const T* gx, const T* gy, T* mag, int64_t n) {
    if constexpr (std::is_same_v<T, float>) {
#if defined(__x86_64__) || defined(__i386__)
        if (isa_level() >= 1) {
            gradient_detail::magnitude_avx2(gx, gy, mag, n);
            return;
        }
#endif
        for (int64_t i = 0; i < n; ++i) mag[i] = gradient_detail::magnitude_one(gx[i], gy[i]);
    } else {
        for (int64_t i = 0; i < n; ++i) mag[i] = ipt::frontend::gradient_magnitude(gx[i], gy[i]);
    }
}

}  // namespace ipt::cpu
