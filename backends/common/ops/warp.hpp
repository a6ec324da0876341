// SPDX-License-Identifier: Apache-2.0
// What ipt.imrotate, ipt.imtranslate and ipt.imwarp share
// (docs/matlab-semantics.md#geometric-warps): an inverse mapping from B's
// pixel grid into A, sampled with one interpolation method, and a fill value
// per plane outside A.
//
// Output pixel (i, j) (1-based row and column) maps to A's intrinsic
// coordinates (x column, y row) through [x' y' w] = [j i 1] * M; when M is
// projective x = x' / w and y = y' / w, otherwise x = x', y = y'. Every
// backend evaluates (in double, no fused multiply-adds, this order):
//   x' = (j * M[0] + i * M[3]) + M[6], y' = (j * M[1] + i * M[4]) + M[7],
//   w  = (j * M[2] + i * M[5]) + M[8].
// A is read through a window (row0, col0, win_rows x win_cols) of it. Its
// edges follow one of two rules:
//   smooth (imrotate, imtranslate, imwarp with SmoothEdges): the sample grid
//     sees only the window, and everything outside it holds the fill value,
//     as MATLAB pads A with the fill value before interpolating; samples
//     farther than kWarpPad pixels outside the window are the fill value;
//   sharp (imwarp's default): a sample outside [1, win_cols] x [1, win_rows]
//     is the fill value; inside, the taps that fall outside the window take
//     interp2's values there: bicubic's row and column beyond each edge are
//     Keys' linear extrapolation 3 v(1) - 3 v(2) + v(3) (rows first, then
//     columns of the extended rows), every other tap (of weight 0) the
//     nearest pixel of the window.
// Interpolation:
//   nearest: the pixel at (round(y), round(x)), round half away from zero;
//   linear:  x0 = floor(x), fx = x - x0 (likewise y);
//            top = v(y0, x0) * (1 - fx) + v(y0, x0 + 1) * fx, bottom for
//            y0 + 1, result top * (1 - fy) + bottom * fy;
//   cubic:   Keys' kernel (a = -0.5) over x0 - 1 .. x0 + 2; each row sum
//            ((w0 v0 + w1 v1) + w2 v2) + w3 v3 in order, then the rows alike.
// The result converts to A's class (round half away, saturate). Logical A
// reads as 0 and 1 and the result is true where it rounds to 1 as uint8.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <string>

#include "ipt/ipt_plugin.hpp"

#if defined(__CUDACC__)
#define IPT_WARP_FN __host__ __device__ inline
#else
#define IPT_WARP_FN inline
#endif

namespace ipt::frontend {

enum class WarpInterp : int32_t { Nearest = 0, Linear = 1, Cubic = 2 };

// Width of the fill-valued border MATLAB pads A with before resampling.
constexpr double kWarpPad = 2;

struct WarpPlan {
    const ipt_tensor* A = nullptr;
    int32_t dtype = 0;
    int64_t rows = 0, cols = 0, channels = 1;
    int64_t out_rows = 0, out_cols = 0;
    // The window of A that is sampled (see above).
    int64_t row0 = 0, col0 = 0, win_rows = 0, win_cols = 0;
    WarpInterp interp = WarpInterp::Nearest;
    bool smooth_edges = true;  // the edge rule above
    std::array<double, 9> M{};  // output intrinsic -> A intrinsic, row vector convention
    bool projective = false;
    std::array<double, 3> fill{};  // per plane, already a value of A's class
    // B's world limits (imref2d): [numrows numcols xmin xmax ymin ymax].
    std::array<double, 6> ref{};
};

namespace warp_detail {

// 3 x 3 product, row-major, a * b.
inline std::array<double, 9> mul(const std::array<double, 9>& a, const std::array<double, 9>& b) {
    std::array<double, 9> c{};
    for (int r = 0; r < 3; ++r)
        for (int k = 0; k < 3; ++k) c[r * 3 + k] = a[r * 3] * b[k] + a[r * 3 + 1] * b[3 + k] + a[r * 3 + 2] * b[6 + k];
    return c;
}

}  // namespace warp_detail

// Inverse of a 3 x 3 row-major matrix; false when it is singular.
inline bool warp_invert(const std::array<double, 9>& t, std::array<double, 9>* inv) {
    const double a = t[0], b = t[1], c = t[2], d = t[3], e = t[4], f = t[5], g = t[6], h = t[7], k = t[8];
    const double A = e * k - f * h, B = -(d * k - f * g), C = d * h - e * g;
    const double det = a * A + b * B + c * C;
    if (det == 0 || !std::isfinite(det)) return false;
    const double s = 1 / det;
    *inv = {A * s, -(b * k - c * h) * s, (b * f - c * e) * s, B * s, (a * k - c * g) * s, -(a * f - c * d) * s,
            C * s,  -(a * h - b * g) * s, (a * e - b * d) * s};
    for (double v : *inv)
        if (!std::isfinite(v)) return false;
    // A condition number beyond double precision is singular in practice.
    double nt = 0, ni = 0;
    for (int r = 0; r < 3; ++r) {
        nt = std::max(nt, std::fabs(t[r * 3]) + std::fabs(t[r * 3 + 1]) + std::fabs(t[r * 3 + 2]));
        ni = std::max(ni, std::fabs((*inv)[r * 3]) + std::fabs((*inv)[r * 3 + 1]) + std::fabs((*inv)[r * 3 + 2]));
    }
    return nt * ni < 1e15;
}

inline bool warp_is_projective(const std::array<double, 9>& t) { return t[2] != 0 || t[5] != 0 || t[8] != 1; }

// Bounds of the transformed rectangle [x0, x1] x [y0, y1] (its corners).
inline void warp_output_limits(const std::array<double, 9>& t, double x0, double x1, double y0, double y1,
                               double* xlim, double* ylim) {
    xlim[0] = ylim[0] = INFINITY;
    xlim[1] = ylim[1] = -INFINITY;
    const bool proj = warp_is_projective(t);
    for (double x : {x0, x1})
        for (double y : {y0, y1}) {
            double u = x * t[0] + y * t[3] + t[6], v = x * t[1] + y * t[4] + t[7];
            if (proj) {
                const double w = x * t[2] + y * t[5] + t[8];
                u /= w;
                v /= w;
            }
            xlim[0] = std::min(xlim[0], u);
            xlim[1] = std::max(xlim[1], u);
            ylim[0] = std::min(ylim[0], v);
            ylim[1] = std::max(ylim[1], v);
        }
}

// imwarp's default output referencing: the transformed limits of A's
// default imref2d ([0.5, cols + 0.5] x [0.5, rows + 0.5]) at A's pixel size,
// the pixel count rounded up and the limits widened evenly to fit it.
inline std::array<double, 6> warp_default_ref(const std::array<double, 9>& t, int64_t rows, int64_t cols) {
    double xlim[2], ylim[2];
    warp_output_limits(t, 0.5, static_cast<double>(cols) + 0.5, 0.5, static_cast<double>(rows) + 0.5, xlim, ylim);
    const double nc = std::ceil(xlim[1] - xlim[0]), nr = std::ceil(ylim[1] - ylim[0]);
    const double xn = (nc - (xlim[1] - xlim[0])) / 2, yn = (nr - (ylim[1] - ylim[0])) / 2;
    return {nr, nc, xlim[0] - xn, xlim[1] + xn, ylim[0] - yn, ylim[1] + yn};
}

// Completes the plan from B's referencing and the forward transform T (A's
// world = A's intrinsic): M maps B's intrinsic (j, i) to B's world, then
// through inv(T).
inline void warp_set_mapping(WarpPlan& p, const std::array<double, 6>& ref, const std::array<double, 9>& tinv) {
    p.ref = ref;
    p.out_rows = static_cast<int64_t>(ref[0]);
    p.out_cols = static_cast<int64_t>(ref[1]);
    const double dx = (ref[3] - ref[2]) / ref[1], dy = (ref[5] - ref[4]) / ref[0];
    // world x = xmin + (j - 0.5) dx, world y = ymin + (i - 0.5) dy.
    const std::array<double, 9> S = {dx, 0, 0, 0, dy, 0, ref[2] - 0.5 * dx, ref[4] - 0.5 * dy, 1};
    p.M = warp_detail::mul(S, tinv);
    p.projective = warp_is_projective(p.M);
}

// The plan's fields that come from A alone, with the whole of A as window.
inline WarpPlan warp_plan_input(const ipt_tensor* A) {
    WarpPlan p;
    p.A = A;
    p.dtype = A->dtype;
    p.rows = A->rows;
    p.cols = A->cols;
    p.channels = A->channels;
    p.win_rows = p.rows;
    p.win_cols = p.cols;
    return p;
}

// The width w of the patch of w x (lanes / w) outputs that one GPU warp or
// subgroup samples. A load instruction costs one L1 pass per 128-byte line of
// A it touches, and a row of outputs of a rotation samples a slanted line of
// A across many rows, where a squarer patch samples a compact patch of A.
// The choice takes the map's steps at B's centre (exact for affine maps,
// local for projective ones) and the fewest lines per load, the widest on a
// tie.
inline int warp_patch_width(const WarpPlan& p, int lanes) {
    const double* M = p.M.data();
    auto map = [&](double j, double i, double* x, double* y) {
        *x = (j * M[0] + i * M[3]) + M[6];
        *y = (j * M[1] + i * M[4]) + M[7];
        if (p.projective) {
            const double h = (j * M[2] + i * M[5]) + M[8];
            *x /= h;
            *y /= h;
        }
    };
    const double jc = static_cast<double>(p.out_cols + 1) / 2, ic = static_cast<double>(p.out_rows + 1) / 2;
    double x, y, xj, yj, xi, yi;
    map(jc, ic, &x, &y);
    map(jc + 1, ic, &xj, &yj);
    map(jc, ic + 1, &xi, &yi);
    const double step[4] = {std::fabs(xj - x), std::fabs(yj - y), std::fabs(xi - x), std::fabs(yi - y)};
    for (double d : step)
        if (!std::isfinite(d)) return lanes;
    const double bytes = static_cast<double>(ipt::plugin::dtype_size(p.dtype));
    int best = lanes;
    double best_lines = INFINITY;
    for (int w = lanes; w >= 1; w /= 2) {
        const double h = lanes / w;
        const double rows = (w - 1) * step[1] + (h - 1) * step[3] + 1;
        const double line_bytes = ((w - 1) * step[0] + (h - 1) * step[2] + 1) * bytes;
        const double lines = rows * (line_bytes / 128 + 1);
        if (lines < best_lines) {
            best = w;
            best_lines = lines;
        }
    }
    return best;
}

// A double as a value of class dtype, as MATLAB's cast does it.
inline double warp_to_class(double v, int32_t dtype) {
    auto sat = [&](double lo, double hi) {
        if (v != v) return 0.0;
        const double r = std::round(v);
        return r < lo ? lo : (r > hi ? hi : r);
    };
    switch (dtype) {
    case IPT_LOGICAL: return v != 0 && v == v ? 1.0 : 0.0;
    case IPT_UINT8: return sat(0, 255);
    case IPT_UINT16: return sat(0, 65535);
    case IPT_INT16: return sat(-32768, 32767);
    case IPT_INT32: return sat(-2147483648.0, 2147483647.0);
    case IPT_UINT32: return sat(0, 4294967295.0);
    case IPT_SINGLE: return static_cast<double>(static_cast<float>(v));
    default: return v;
    }
}

// FillValues: a scalar for every plane, or one value per plane.
inline void warp_set_fill(WarpPlan& p, const ipt::plugin::KernelArgs& args, const char* op) {
    if (!args.present("FillValues")) return;
    const double* f = args.floats("FillValues");
    const uint64_t n = args.count("FillValues");
    if (n != 1 && static_cast<int64_t>(n) != p.channels)
        ipt::plugin::invalid(std::string(op) + ": parameter 'FillValues' must be a scalar or hold one value per plane (" +
                             std::to_string(p.channels) + "), got " + std::to_string(n));
    for (int64_t c = 0; c < 3; ++c) p.fill[c] = warp_to_class(f[n == 1 ? 0 : std::min<int64_t>(c, n - 1)], p.dtype);
}

inline WarpInterp warp_interp(const ipt::plugin::KernelArgs& args, const char* param) {
    if (args.is(param, "nearest")) return WarpInterp::Nearest;
    if (args.is(param, "bilinear") || args.is(param, "linear")) return WarpInterp::Linear;
    return WarpInterp::Cubic;
}

// The output size as a checked element count.
inline void warp_check_size(const std::array<double, 6>& ref, const char* op) {
    if (!(ref[0] >= 0 && ref[1] >= 0 && ref[0] <= 2147483647.0 && ref[1] <= 2147483647.0 &&
          ref[0] * ref[1] <= 4294967296.0))
        ipt::plugin::invalid(std::string(op) + ": the output would be " + std::to_string(ref[0]) + " x " +
                             std::to_string(ref[1]) + " pixels, too large");
}

// ---- the sampling rule, written once for the CPU reference and CUDA ---------

// Round half away from zero with exact steps (trunc, difference, compare).
IPT_WARP_FN double warp_round(double x) {
    double t = ::trunc(x);
    const double f = x - t;
    if (f >= 0.5) t += 1;
    else if (f <= -0.5) t -= 1;
    return t;
}

// The sharp rule's tap at index k (1-based, any integer) of a line of n
// values get(1..n): Keys' extrapolation one step beyond either end (lines of
// 3 or more), the nearest value otherwise.
template <class Get>
IPT_WARP_FN double warp_sharp_tap(int64_t k, int64_t n, bool extrapolate, const Get& get) {
    if (k >= 1 && k <= n) return get(k);
    if (extrapolate && n >= 3 && k == 0) return (3 * get(1) - 3 * get(2)) + get(3);
    if (extrapolate && n >= 3 && k == n + 1) return (3 * get(n) - 3 * get(n - 1)) + get(n - 2);
    return get(k < 1 ? 1 : n);
}

// Keys' cubic kernel with a = -0.5 at distance s.
IPT_WARP_FN double warp_cubic(double s) {
    const double a = ::fabs(s), a2 = a * a, a3 = a2 * a;
    if (a <= 1) return (1.5 * a3 - 2.5 * a2) + 1;
    if (a <= 2) return ((-0.5 * a3 + 2.5 * a2) - 4 * a) + 2;
    return 0;
}

}  // namespace ipt::frontend
