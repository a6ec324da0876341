// SPDX-License-Identifier: Apache-2.0
// ipt.imgradientxy's front-end: [Gx, Gy] = imgradientxy(I, method)
// (docs/matlab-semantics.md#imgradientxy), and the stencils ipt.imgradient
// shares (common/ops/imgradient.hpp). I is 2-D (one channel, any class); Gx
// and Gy have its size and are single for single I, double otherwise; x runs
// along the columns, y down the rows.
//   sobel    imfilter(I, -fspecial('sobel')', 'replicate') for Gx, the
//            kernel untransposed for Gy: right minus left (bottom minus top)
//            with weights 1 2 1
//   prewitt  the same with weights 1 1 1
//   central  MATLAB's gradient: (I(x+1) - I(x-1))/2 inside, one-sided
//            differences at the first and last column (row), 0 for one column
//   intermediate  I(x+1) - I(x), 0 in the last column (row)
//   roberts  (imgradient only) imfilter(I, [1 0; 0 -1]) and [0 1; -1 0],
//            replicate padding
// Only the nonzero taps contribute, as in imfilter, so an infinite pixel
// under a zero tap gives no NaN. Every backend evaluates the same
// differences in the same order (the weight 2 as d + d, the half as * 0.5, no
// products to fuse), so all give the same bits.
#pragma once

#include <cstdint>
#include <string>

#include "ipt/ipt_plugin.hpp"

// Always inlined on the host: the CPU's row loops are compiled with their own
// optimize attributes (no-trapping-math), and GCC does not inline a plain
// inline function into a function of other options; a call per pixel would
// keep the loop from vectorising.
#if defined(__CUDACC__)
#define IPT_GRADIENT_FN __host__ __device__ inline
#else
#define IPT_GRADIENT_FN inline __attribute__((always_inline))
#endif

namespace ipt::frontend {

enum class GradientMethod : int32_t { Sobel = 0, Prewitt = 1, Central = 2, Intermediate = 3, Roberts = 4 };

struct ImgradientxyPlan {
    const ipt_tensor* I = nullptr;
    int32_t in_dtype = 0;
    int32_t out_dtype = 0;  // Gx, Gy: single for single I, double otherwise
    int64_t rows = 0, cols = 0;
    int64_t numel = 0;
    GradientMethod method = GradientMethod::Sobel;
};

// The method named by the call's enum 'method' (the schema lists the names).
inline GradientMethod gradient_method(const ipt::plugin::KernelArgs& args) {
    if (args.is("method", "prewitt")) return GradientMethod::Prewitt;
    if (args.is("method", "central")) return GradientMethod::Central;
    if (args.is("method", "intermediate")) return GradientMethod::Intermediate;
    if (args.is("method", "roberts")) return GradientMethod::Roberts;
    return GradientMethod::Sobel;
}

inline ImgradientxyPlan plan_gradient_input(const ipt::plugin::KernelArgs& args) {
    ImgradientxyPlan p;
    p.I = args.image("I");
    p.in_dtype = p.I->dtype;
    p.out_dtype = p.in_dtype == IPT_SINGLE ? IPT_SINGLE : IPT_DOUBLE;
    p.rows = p.I->rows;
    p.cols = p.I->cols;
    p.numel = p.rows * p.cols;
    p.method = gradient_method(args);
    return p;
}

inline ImgradientxyPlan plan_imgradientxy(const ipt::plugin::KernelArgs& args) {
    return plan_gradient_input(args);
}

// Sobel's and Prewitt's sum of three differences d0, d1, d2 across the
// stencil (right minus left for Gx, bottom minus top for Gy), the middle one
// weighted 2 (as d1 + d1) for sobel.
template <class T>
IPT_GRADIENT_FN T stencil3_sum(T d0, T d1, T d2, bool sobel) {
    return (d0 + (sobel ? d1 + d1 : d1)) + d2;
}

// Gx and Gy at (r, c) of the rows x cols image I (row-major, packed), in T
// (float for single I, double otherwise; MATLAB converts I first).
template <class T, class In>
IPT_GRADIENT_FN void gradient_xy(const In* I, int64_t rows, int64_t cols, int64_t r, int64_t c,
                                 GradientMethod m, T& gx, T& gy) {
    auto at = [&](int64_t i, int64_t j) { return static_cast<T>(I[i * cols + j]); };
    const int64_t rm = r > 0 ? r - 1 : 0, rp = r + 1 < rows ? r + 1 : r;
    const int64_t cm = c > 0 ? c - 1 : 0, cp = c + 1 < cols ? c + 1 : c;
    switch (m) {
    case GradientMethod::Sobel:
    case GradientMethod::Prewitt: {
        const T x0 = at(rm, cp) - at(rm, cm), x1 = at(r, cp) - at(r, cm), x2 = at(rp, cp) - at(rp, cm);
        const T y0 = at(rp, cm) - at(rm, cm), y1 = at(rp, c) - at(rm, c), y2 = at(rp, cp) - at(rm, cp);
        const bool sobel = m == GradientMethod::Sobel;
        gx = stencil3_sum(x0, x1, x2, sobel);
        gy = stencil3_sum(y0, y1, y2, sobel);
        break;
    }
    case GradientMethod::Central:
        gx = cols < 2        ? T(0)
             : c == 0        ? at(r, 1) - at(r, 0)
             : c == cols - 1 ? at(r, c) - at(r, c - 1)
                             : (at(r, c + 1) - at(r, c - 1)) * T(0.5);
        gy = rows < 2        ? T(0)
             : r == 0        ? at(1, c) - at(0, c)
             : r == rows - 1 ? at(r, c) - at(r - 1, c)
                             : (at(r + 1, c) - at(r - 1, c)) * T(0.5);
        break;
    case GradientMethod::Intermediate:
        gx = c + 1 < cols ? at(r, c + 1) - at(r, c) : T(0);
        gy = r + 1 < rows ? at(r + 1, c) - at(r, c) : T(0);
        break;
    default:  // roberts
        gx = at(r, c) - at(rp, cp);
        gy = at(r, cp) - at(rp, c);
        break;
    }
}

}  // namespace ipt::frontend
