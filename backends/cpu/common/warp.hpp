// SPDX-License-Identifier: Apache-2.0
// The inverse-mapping resampler of ipt.imrotate, ipt.imtranslate and
// ipt.imwarp: every output pixel samples A through the plan's matrix with the
// rule common/ops/warp.hpp states (the reference for the GPU backends).
// Vectorised across the pixels of a row, each pixel's doubles computed by the
// operations that rule gives, in its order.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "common/convert.hpp"
#include "common/round_finite.hpp"
#include "common/image.hpp"
#include "common/parallel.hpp"
#include "common/ops/warp.hpp"

namespace ipt::cpu {

namespace warp_detail {

using ipt::frontend::WarpInterp;
using ipt::frontend::WarpPlan;

template <class T>
struct Window {
    const T* plane;  // A's plane
    int64_t cols, row0, col0, win_rows, win_cols;
    double fill;
    bool sharp, extrapolate;  // the plan's edge rule; bicubic extrapolates beyond the edges
    // Pixel (y, x) of the window, 1-based; outside it, the fill value or the
    // sharp rule's tap (common/ops/warp.hpp).
    IPT_ALWAYS_INLINE IPT_NO_TRAPPING double at(int64_t y, int64_t x) const {
        if (y < 1 || y > win_rows || x < 1 || x > win_cols) return sharp ? edge(y, x) : fill;
        return pixel(y, x);
    }
    IPT_ALWAYS_INLINE IPT_NO_TRAPPING double pixel(int64_t y, int64_t x) const {
        const T v = plane[(row0 + y - 1) * cols + (col0 + x - 1)];
        if constexpr (std::is_same_v<T, bool>) return v ? 1.0 : 0.0;
        else return static_cast<double>(v);
    }
    // Rows extended first, then the columns of the extended rows.
    IPT_NO_TRAPPING double edge(int64_t y, int64_t x) const {
        return ipt::frontend::warp_sharp_tap(x, win_cols, extrapolate, [&](int64_t c) {
            return ipt::frontend::warp_sharp_tap(y, win_rows, extrapolate, [&](int64_t r) { return pixel(r, c); });
        });
    }
};

// warp_round and warp_cubic of common/ops/warp.hpp, the same operations in
// a form that inlines into the vectorised loops (plain calls do not).
IPT_ALWAYS_INLINE IPT_NO_TRAPPING double round_half_away(double x) {
    double t = __builtin_trunc(x);
    const double f = x - t;
    t = f >= 0.5 ? t + 1 : t;
    return f <= -0.5 ? t - 1 : t;
}

IPT_ALWAYS_INLINE IPT_NO_TRAPPING double cubic(double s) {
    const double a = __builtin_fabs(s), a2 = a * a, a3 = a2 * a;
    const double inner = (1.5 * a3 - 2.5 * a2) + 1;
    const double outer = ((-0.5 * a3 + 2.5 * a2) - 4 * a) + 2;
    return a <= 1 ? inner : (a <= 2 ? outer : 0.0);
}

// One output row, kBlock pixels at a time: the coordinates, the in-range
// test, the fractions and the weights are computed for the whole block (the
// same double operations per pixel as sample()), then the pixels are fetched
// one by one (interior neighbourhoods without the window checks), then
// interpolated for the whole block, in sample()'s order.
constexpr int64_t kBlock = 64;

template <class T>
IPT_ALWAYS_INLINE IPT_NO_TRAPPING void warp_row_impl(const WarpPlan& p, const Window<T>& w, int64_t i, T* out) {
    const double pad = w.sharp ? 0 : ipt::frontend::kWarpPad;
    const double wc = static_cast<double>(w.win_cols), wr = static_cast<double>(w.win_rows);
    const double xlo = 1 - pad, xhi = wc + pad, ylo = 1 - pad, yhi = wr + pad;
    const double id = static_cast<double>(i + 1);
    const double m0 = p.M[0], m1 = p.M[1], m2 = p.M[2], m3 = p.M[3], m4 = p.M[4], m5 = p.M[5], m6 = p.M[6],
                 m7 = p.M[7], m8 = p.M[8];
    const bool projective = p.projective;
    const WarpInterp interp = p.interp;
    const int64_t cols = w.cols;
    const int64_t origin = (w.row0 - 1) * cols + (w.col0 - 1);  // plane[origin + y * cols + x] is window pixel (y, x)
    const int64_t win_cols = w.win_cols, win_rows = w.win_rows;
    const double fill = w.fill;
    alignas(64) double xs[kBlock], ys[kBlock], fx[kBlock], fy[kBlock], res[kBlock];
    // A's values as fetched (logical as 0/1 uint8; the fill value is of A's class).
    using C = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;
    alignas(64) C v[4][kBlock];
    alignas(64) double cubic_taps[16][kBlock];
    uint8_t inside[kBlock];
    C conv[kBlock];
    for (int64_t j0 = 0; j0 < p.out_cols; j0 += kBlock) {
        const int64_t n = p.out_cols - j0 < kBlock ? p.out_cols - j0 : kBlock;
        if (projective) {
            for (int64_t j = 0; j < n; ++j) {
                const double jd = static_cast<double>(j0 + j + 1);
                const double h = (jd * m2 + id * m5) + m8;
                xs[j] = ((jd * m0 + id * m3) + m6) / h;
                ys[j] = ((jd * m1 + id * m4) + m7) / h;
            }
        } else {
            for (int64_t j = 0; j < n; ++j) {
                const double jd = static_cast<double>(j0 + j + 1);
                xs[j] = (jd * m0 + id * m3) + m6;
                ys[j] = (jd * m1 + id * m4) + m7;
            }
        }
        int64_t count = 0;
        for (int64_t j = 0; j < n; ++j) {
            const uint8_t in = (xs[j] >= xlo) & (xs[j] <= xhi) & (ys[j] >= ylo) & (ys[j] <= yhi);
            inside[j] = in;
            count += in;
        }
        const bool any = count != 0;
        if (!any) {
            for (int64_t j = 0; j < n; ++j) res[j] = fill;
        } else if (interp == WarpInterp::Nearest) {
            for (int64_t j = 0; j < n; ++j) {
                fx[j] = round_half_away(xs[j]);
                fy[j] = round_half_away(ys[j]);
            }
            for (int64_t j = 0; j < n; ++j)
                res[j] = inside[j] ? w.at(static_cast<int64_t>(fy[j]), static_cast<int64_t>(fx[j])) : fill;
        } else {
            for (int64_t j = 0; j < n; ++j) {
                const double xf = __builtin_floor(xs[j]), yf = __builtin_floor(ys[j]);
                fx[j] = xs[j] - xf;
                fy[j] = ys[j] - yf;
                xs[j] = xf;
                ys[j] = yf;
            }
            if (interp == WarpInterp::Linear) {
                for (int64_t j = 0; j < n; ++j) {
                    if (!inside[j]) {
                        v[0][j] = v[1][j] = v[2][j] = v[3][j] = 0;
                        continue;
                    }
                    const int64_t x0 = static_cast<int64_t>(xs[j]), y0 = static_cast<int64_t>(ys[j]);
                    if (x0 >= 1 && x0 < win_cols && y0 >= 1 && y0 < win_rows) {
                        const T* q = w.plane + (origin + y0 * cols + x0);
                        v[0][j] = static_cast<C>(q[0]);
                        v[1][j] = static_cast<C>(q[1]);
                        v[2][j] = static_cast<C>(q[cols]);
                        v[3][j] = static_cast<C>(q[cols + 1]);
                    } else {
                        v[0][j] = static_cast<C>(w.at(y0, x0));
                        v[1][j] = static_cast<C>(w.at(y0, x0 + 1));
                        v[2][j] = static_cast<C>(w.at(y0 + 1, x0));
                        v[3][j] = static_cast<C>(w.at(y0 + 1, x0 + 1));
                    }
                }
                for (int64_t j = 0; j < n; ++j) {
                    const double v00 = static_cast<double>(v[0][j]), v01 = static_cast<double>(v[1][j]);
                    const double v10 = static_cast<double>(v[2][j]), v11 = static_cast<double>(v[3][j]);
                    const double top = v00 * (1 - fx[j]) + v01 * fx[j];
                    const double bottom = v10 * (1 - fx[j]) + v11 * fx[j];
                    const double r = top * (1 - fy[j]) + bottom * fy[j];
                    res[j] = inside[j] ? r : fill;
                }
            } else {
                // In double: the sharp rule's extrapolated taps leave A's class.
                double (*vd)[kBlock] = cubic_taps;
                for (int64_t j = 0; j < n; ++j) {
                    if (!inside[j]) {
                        for (int k = 0; k < 16; ++k) vd[k][j] = 0;
                        continue;
                    }
                    const int64_t x0 = static_cast<int64_t>(xs[j]), y0 = static_cast<int64_t>(ys[j]);
                    if (x0 >= 2 && x0 + 2 <= win_cols && y0 >= 2 && y0 + 2 <= win_rows) {
                        const T* q = w.plane + (origin + (y0 - 1) * cols + (x0 - 1));
                        for (int r = 0; r < 4; ++r)
                            for (int c = 0; c < 4; ++c) vd[r * 4 + c][j] = static_cast<double>(static_cast<C>(q[r * cols + c]));
                    } else {
                        for (int r = 0; r < 4; ++r)
                            for (int c = 0; c < 4; ++c) vd[r * 4 + c][j] = w.at(y0 - 1 + r, x0 - 1 + c);
                    }
                }
                for (int64_t j = 0; j < n; ++j) {
                    double wx[4], wy[4];
                    for (int k = 0; k < 4; ++k) {
                        wx[k] = cubic(fx[j] - static_cast<double>(k - 1));
                        wy[k] = cubic(fy[j] - static_cast<double>(k - 1));
                    }
                    double acc = 0;
                    for (int r = 0; r < 4; ++r) {
                        double row = wx[0] * vd[r * 4][j];
                        row = row + wx[1] * vd[r * 4 + 1][j];
                        row = row + wx[2] * vd[r * 4 + 2][j];
                        row = row + wx[3] * vd[r * 4 + 3][j];
                        acc = acc + wy[r] * row;
                    }
                    res[j] = inside[j] ? acc : fill;
                }
            }
        }
        // Logical: true where the value rounds to a nonzero uint8. Integer
        // classes (and their fill values) give finite results.
        convert_row_finite<std::is_integral_v<T>>(res, conv, n);
        for (int64_t j = 0; j < n; ++j) {
            if constexpr (std::is_same_v<T, bool>) out[j0 + j] = conv[j] != 0;
            else out[j0 + j] = conv[j];
        }
    }
}

#define IPT_WARP_ISA(name, attr)                                                                      \
    template <class T>                                                                                \
    attr IPT_NO_TRAPPING void warp_row_##name(const WarpPlan& p, const Window<T>& w, int64_t i, T* out) { \
        warp_row_impl(p, w, i, out);                                                                  \
    }
IPT_WARP_ISA(avx512, __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))))
IPT_WARP_ISA(avx2, __attribute__((target("avx2,fma"))))
IPT_WARP_ISA(base, )
#undef IPT_WARP_ISA

template <class T>
void warp_typed(const WarpPlan& p, const T* a, T* b) {
    const int64_t out_plane = p.out_rows * p.out_cols;
    const int isa = isa_level();
    parallel_for(0, p.channels * p.out_rows, [&](int64_t job) {
        const int64_t ch = job / p.out_rows, i = job % p.out_rows;
        const Window<T> w{a + ch * p.rows * p.cols, p.cols, p.row0, p.col0, p.win_rows, p.win_cols, p.fill[ch < 3 ? ch : 2],
                          !p.smooth_edges, p.interp == ipt::frontend::WarpInterp::Cubic};
        T* out = b + ch * out_plane + i * p.out_cols;
        switch (isa) {
        case 2: warp_row_avx512(p, w, i, out); break;
        case 1: warp_row_avx2(p, w, i, out); break;
        default: warp_row_base(p, w, i, out); break;
        }
    });
}

}  // namespace warp_detail

// B (allocated by the caller, class and size of the plan) from the plan's A.
inline void warp(const ipt::frontend::WarpPlan& p, const ipt_tensor* B) {
    if (p.out_rows * p.out_cols * p.channels == 0) return;
    visit_dtype(p.dtype, [&](auto tag) {
        using T = decltype(tag);
        warp_detail::warp_typed<T>(p, static_cast<const T*>(p.A->data), static_cast<T*>(B->data));
    });
}

}  // namespace ipt::cpu
