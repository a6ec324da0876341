// SPDX-License-Identifier: Apache-2.0
// The walk shared by ipt.imgradientxy and ipt.imgradient on CUDA: a thread
// owns one column and kGradientRows consecutive rows of it, so that its
// setup is paid once for several outputs and the grid is that much shorter.
// Sobel and Prewitt slide the 3x3 window down the column: a row entering it
// is read once (three values, converted once) where the per-pixel stencil
// reads nine, and its difference across the columns is taken once. The
// values and operations are the front-end stencil's
// (common/ops/imgradientxy.hpp), so the results are its bits; the other
// methods call that stencil per pixel.
#pragma once

#include <cstdint>

#include "common/device.cuh"
#include "common/ops/imgradient.hpp"
#include "common/ops/imgradientxy.hpp"

namespace ipt::cuda {

constexpr int kGradientWidth = 128, kGradientRows = 16;

namespace gradient_detail {

// The constants of the single direction, in constant memory so that each
// multiply-add reads its operand there rather than from two moves of an
// immediate. poly: atan(q) = q + q s P(s), s = q^2, on [0, 1], P of degree
// 13, highest first (a Chebyshev fit of (atan(q) - q) / q^3; relative error
// of atan below 2^-39, measured on 300000 points against a 40-digit atan).
struct AngleConstants {
    double poly[14];
    double half_pi, pi, inv_single_pi;  // 1 / single(pi)
};
__constant__ AngleConstants kAngle = {
    {0.0002420321329492996, -0.0019608268978377713, 0.0074572473304224075, -0.01798369324520612,
     0.03165803796192987, -0.04494995162541376, 0.05606687035291111, -0.06595124596280294, 0.07679381276430296,
     -0.09089368031943441, 0.11110999508742127, -0.14285710020067355, 0.19999999935142282, -0.3333333333316827},
    1.5707963267948966,
    3.141592653589793,
    1.0 / static_cast<double>(static_cast<float>(3.14159265358979323846))};

// CUDA's atan2 for the pixels the short path leaves, out of line so that the
// unrolled walk carries one copy.
static __device__ __noinline__ float atan2_single_through_double(float y, float x) {
    return ipt::frontend::gradient_atan2<float>(y, x);
}

}  // namespace gradient_detail

// gradient_atan2<float> (common/ops/imgradient.hpp): atan2 of y and x in
// double, rounded once to single. CUDA's double atan2 holds a 19-term
// polynomial and a full double division; here a 14-term one and a reciprocal
// refined once give the angle a within 2^-38 of its value, and where every
// number within a * 2^-36 of a rounds to the same single (all but about one
// pixel in 2000), that single is the answer: the exact angle and CUDA's
// (within 2 ulp of double) both lie there. Otherwise, and for zeros,
// infinities, NaNs and magnitudes outside 2^-125..2^125, CUDA's atan2.
__device__ __forceinline__ float gradient_atan2_single(float y, float x) {
    using gradient_detail::kAngle;
    const float ax = fabsf(x), ay = fabsf(y);
    const float big = fmaxf(ax, ay);
    if (ax <= 0x1p125f && ay <= 0x1p125f && big >= 0x1p-125f) {  // false for a NaN
        const double mx = big, mn = fminf(ax, ay);
        float seed;
        asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(seed) : "f"(big));  // 2^-23 relative
        double r = seed;
        r = fma(r, fma(-mx, r, 1.0), r);  // 2^-46
        const double q = mn * r, s = q * q;
        // P(s) by Estrin's scheme: pairs of terms in s, then in s^2, s^4 and
        // s^8, five multiply-adds deep instead of Horner's thirteen.
        const double s2 = s * s, s4 = s2 * s2, s8 = s4 * s4;
        auto pair = [&](int k) { return fma(kAngle.poly[k], s, kAngle.poly[k + 1]); };  // s^1 and s^0 of a pair
        const double p01 = fma(pair(10), s2, pair(12)), p23 = fma(pair(6), s2, pair(8));
        const double p45 = fma(pair(2), s2, pair(4));
        const double p = fma(fma(pair(0), s4, p45), s8, fma(p23, s4, p01));
        double a = fma(q, s * p, q);
        if (ay > ax) a = kAngle.half_pi - a;
        if (x < 0.0f) a = kAngle.pi - a;
        const double margin = a * 0x1p-36;
        const float lo = __double2float_rn(a - margin);
        if (lo == __double2float_rn(a + margin)) return copysignf(lo, y);
    }
    return gradient_detail::atan2_single_through_double(y, x);
}

// gradient_degrees<float> (common/ops/imgradient.hpp): a * 180 in single,
// then divided by single(pi), as the product of doubles with its rounded
// reciprocal. The exact quotient of two singles is never a midpoint of
// singles (that needs x = m * pi with m of 25 significant bits) nor within
// 2^-47 of one, and the product is within 2^-52 of it, so both round to the
// same single; the division's range checks and refinement are not needed.
__device__ __forceinline__ float gradient_degrees_single(float a) {
    const float x = a * 180.0f;
    return __double2float_rn(static_cast<double>(x) * gradient_detail::kAngle.inv_single_pi);
}

// Blocks of kGradientWidth threads for a rows x cols image (x: columns,
// y: strips of kGradientRows rows; a grid-stride loop past 65535 strips).
inline dim3 gradient_grid(int64_t rows, int64_t cols) {
    const int64_t strips = (rows + kGradientRows - 1) / kGradientRows;
    return dim3(static_cast<unsigned>((cols + kGradientWidth - 1) / kGradientWidth),
                static_cast<unsigned>(strips < 65535 ? strips : 65535));
}

// Calls emit(i, gx, gy) for every pixel i of this thread's column and strips,
// Gx and Gy in T.
template <class T, class In, class Emit>
__device__ __forceinline__ void gradient_walk(const In* __restrict__ in, int64_t rows, int64_t cols,
                                              ipt::frontend::GradientMethod method, Emit&& emit) {
    using ipt::frontend::GradientMethod;
    const int64_t c = static_cast<int64_t>(blockIdx.x) * kGradientWidth + threadIdx.x;
    if (c >= cols) return;
    const bool stencil3 = method == GradientMethod::Sobel || method == GradientMethod::Prewitt;
    const bool sobel = method == GradientMethod::Sobel;
    const int64_t cm = c > 0 ? c - 1 : 0, cp = c + 1 < cols ? c + 1 : c;
    for (int64_t r0 = static_cast<int64_t>(blockIdx.y) * kGradientRows; r0 < rows;
         r0 += static_cast<int64_t>(gridDim.y) * kGradientRows) {
        const int64_t r_end = r0 + kGradientRows < rows ? r0 + kGradientRows : rows;
        if (!stencil3) {
            for (int64_t r = r0; r < r_end; ++r) {
                T gx, gy;
                ipt::frontend::gradient_xy<T>(in, rows, cols, r, c, method, gx, gy);
                emit(r * cols + c, gx, gy);
            }
            continue;
        }
        // Row rr's values at columns cm, c, cp (rr clamped to the image, the
        // replicate border) and its difference right minus left.
        struct Row {
            T left, mid, right, dx;
        };
        auto load = [&](int64_t rr) {
            const In* row = in + (rr < 0 ? 0 : rr >= rows ? rows - 1 : rr) * cols;
            Row v;
            v.left = static_cast<T>(row[cm]);
            v.mid = static_cast<T>(row[c]);
            v.right = static_cast<T>(row[cp]);
            v.dx = v.right - v.left;
            return v;
        };
        Row up = load(r0 - 1), at = load(r0);
#pragma unroll 4
        for (int64_t r = r0; r < r_end; ++r) {
            const Row down = load(r + 1);
            const T gx = ipt::frontend::stencil3_sum(up.dx, at.dx, down.dx, sobel);
            const T gy = ipt::frontend::stencil3_sum(down.left - up.left, down.mid - up.mid, down.right - up.right,
                                                     sobel);
            emit(r * cols + c, gx, gy);
            up = at;
            at = down;
        }
    }
}

}  // namespace ipt::cuda
