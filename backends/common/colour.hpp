// SPDX-License-Identifier: Apache-2.0
// Colour-space rules shared by rgb2hsv, hsv2rgb, rgb2ycbcr and ycbcr2rgb
// (docs/matlab-semantics.md#rgb2hsv, #hsv2rgb, #rgb2ycbcr, #ycbcr2rgb): where
// the three components of a pixel live (an m x n x 3 image or a c x 3
// colormap), the per-pixel HSV formulas as MATLAB evaluates them, and the
// BT.601 matrices scaled per class. Header-only and usable from CUDA device
// code; the Vulkan shaders repeat the formulas in GLSL (shaders/colour.glsl).
// Every backend evaluates the same operations in the same order with no
// fused multiply-add, so integer outputs agree exactly.
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "class_scaling.hpp"
#include "ipt/ipt_plugin.hpp"

#if defined(__CUDACC__)
#define IPT_COLOUR_FN __host__ __device__ inline
#else
#define IPT_COLOUR_FN inline
#endif

namespace ipt::common {

// ---- layout ---------------------------------------------------------------

// Component c (0, 1, 2) of pixel p is element p * pixel_step + c * plane_step:
// planes one after another for an image, rows of three for a colormap.
struct ColourLayout {
    const ipt_tensor* in = nullptr;
    int32_t in_dtype = 0;
    int32_t out_dtype = 0;
    int64_t rows = 0, cols = 0, channels = 3;  // of the input and the output
    int64_t pixels = 0;
    int64_t pixel_step = 1;
    int64_t plane_step = 0;
    bool colormap = false;
};

// The input must be m x n x 3 or a c x 3 colormap (one channel, three columns).
inline ColourLayout colour_layout(const std::string& op, const std::string& param, const ipt_tensor* t) {
    ColourLayout l;
    l.in = t;
    l.in_dtype = t->dtype;
    l.rows = t->rows;
    l.cols = t->cols;
    l.channels = t->channels;
    if (t->channels == 3) {
        l.pixels = t->rows * t->cols;
        l.pixel_step = 1;
        l.plane_step = l.pixels;
    } else if (t->channels == 1 && t->cols == 3) {
        l.colormap = true;
        l.pixels = t->rows;
        l.pixel_step = 3;
        l.plane_step = 1;
    } else {
        ipt::plugin::invalid(op + ": parameter '" + param + "' must be an m-by-n-by-3 image or a c-by-3 colormap");
    }
    return l;
}

// ---- values ---------------------------------------------------------------

// MATLAB's max(a, b) and min(a, b): a NaN operand is ignored.
template <class F>
IPT_COLOUR_FN F colour_max(F a, F b) {
    if (a != a) return b;
    if (b != b) return a;
    return b > a ? b : a;
}
template <class F>
IPT_COLOUR_FN F colour_min(F a, F b) {
    if (a != a) return b;
    if (b != b) return a;
    return b < a ? b : a;
}

template <class F>
IPT_COLOUR_FN F colour_trunc(F x) {
#if defined(__CUDA_ARCH__)
    return trunc(x);
#else
    return std::trunc(x);
#endif
}

// rgb2hsv of one pixel, every operation in F (double, or single for single
// input), in the order of MATLAB's rgb2hsv:
//   v = max(r,g,b); d = v - min(r,g,b); grey = (d == 0); div = d + grey;
//   h = (g-b)/div where r == v, then 2 + (b-r)/div where g == v, then
//   4 + (r-g)/div where b == v (later ones win ties); h = h/6, plus 1 where
//   negative, times ~grey; s = (~grey)*div/v where v ~= 0, else 0.
// MATLAB stops with an error where d or v is NaN (its logical tests refuse
// NaN); here such a pixel follows the same arithmetic (NaN goes through).
template <class F>
IPT_COLOUR_FN void rgb_to_hsv(F r, F g, F b, F& h, F& s, F& v) {
    v = colour_max(colour_max(r, g), b);
    const F d = v - colour_min(colour_min(r, g), b);
    const bool grey = d == F(0);
    const F div = grey ? F(1) : d;
    F hue = F(0);
    if (r == v) hue = (g - b) / div;
    if (g == v) hue = F(2) + (b - r) / div;
    if (b == v) hue = F(4) + (r - g) / div;
    hue = hue / F(6);
    if (hue < F(0)) hue = hue + F(1);
    h = (grey ? F(0) : F(1)) * hue;
    s = v != F(0) ? ((grey ? F(0) : F(1)) * div) / v : F(0);
}

// x / d for a constant d, rounded as the division rounds it, given
// inv = RN(1/d): the product x * inv is within an ulp of the quotient, the
// remainder x - q d is exact in one fused multiply-add, and one correction
// by it gives the correctly rounded quotient (Markstein's theorem, for
// results clear of the subnormal range). Three operations where a division
// takes a refinement loop; the rgb2hsv uint8 test compares it with the
// division over every value it is used for.
template <class F>
IPT_COLOUR_FN F quotient_by_constant(F x, F d, F inv) {
    const F q = x * inv;
#if defined(__CUDA_ARCH__)
    return fma(fma(-q, d, x), inv, q);
#else
    return std::fma(std::fma(-q, d, x), inv, q);
#endif
}

// rgb_to_hsv<double> of uint8 R, G, B scaled by 1/255, to the bit, with
// fewer divisions: R/255 by quotient_by_constant, the comparisons on the
// integers (x/255 keeps their order and equalities), one division for the
// hue (the numerator and offset of the last branch that holds, as
// rgb_to_hsv's overwrites leave it), hue/6 by quotient_by_constant, and the
// grey and black cases, whose h and s are 0, without arithmetic.
// to_double(uint32_t) converts a byte exactly; the caller picks its fastest
// form (the device's avoids a conversion instruction).
template <class ToDouble>
IPT_COLOUR_FN void rgb_to_hsv_u8(uint32_t R, uint32_t G, uint32_t B, ToDouble to_double, double& h, double& s,
                                 double& v) {
    constexpr double inv255 = 1.0 / 255.0, inv6 = 1.0 / 6.0;
    const double r = quotient_by_constant(to_double(R), 255.0, inv255);
    const double g = quotient_by_constant(to_double(G), 255.0, inv255);
    const double b = quotient_by_constant(to_double(B), 255.0, inv255);
    const uint32_t hi = R > G ? (R > B ? R : B) : (G > B ? G : B);
    const uint32_t lo = R < G ? (R < B ? R : B) : (G < B ? G : B);
    v = hi == R ? r : hi == G ? g : b;
    if (hi == lo) {  // grey (black included): hue 0, saturation 0
        h = 0;
        s = 0;
        return;
    }
    const double d = v - (lo == R ? r : lo == G ? g : b);
    double hue;
    if (B == hi) hue = 4.0 + (r - g) / d;
    else if (G == hi) hue = 2.0 + (b - r) / d;
    else hue = (g - b) / d;
    hue = quotient_by_constant(hue, 6.0, inv6);
    if (hue < 0) hue = hue + 1.0;
    h = hue;
    s = d / v;  // v > 0: hi > lo >= 0
}

// hsv2rgb of one pixel in F, as MATLAB's hsv2rgb evaluates it:
//   h6 = 6*h; k = fix(h6 - 6*eps); f = h6 - k; t = 1-s; n = 1-s*f;
//   p = 1-s*(1-f); each component a sum over the sextants k = 0 (or 6) ... 5
//   of (k == j) times that sextant's term, then times v. The products by the
//   0/1 flags are kept so that NaN and Inf propagate as in MATLAB. MATLAB
//   divides v by the largest component over the whole array, which is 1
//   whenever one pixel has h and s in [0, 1]; here the divisor is 1.
template <class F>
IPT_COLOUR_FN void hsv_to_rgb(F h, F s, F v, F& r, F& g, F& b) {
    const F h6 = F(6) * h;
    const F k = colour_trunc(h6 - static_cast<F>(6.0 * DBL_EPSILON));
    const F f = h6 - k;
    const F t = F(1) - s;
    const F n = F(1) - s * f;
    const F p = F(1) - s * (F(1) - f);
    const F e0 = (k == F(0) || k == F(6)) ? F(1) : F(0);
    const F e1 = k == F(1) ? F(1) : F(0);
    const F e2 = k == F(2) ? F(1) : F(0);
    const F e3 = k == F(3) ? F(1) : F(0);
    const F e4 = k == F(4) ? F(1) : F(0);
    const F e5 = k == F(5) ? F(1) : F(0);
    const F rr = e0 + e1 * n + e2 * t + e3 * t + e4 * p + e5;
    const F gg = e0 * p + e1 + e2 + e3 * n + e4 * t + e5 * t;
    const F bb = e0 * t + e1 * t + e2 * p + e3 + e4 + e5 * n;
    r = v * rr;
    g = v * gg;
    b = v * bb;
}

// ---- YCbCr ----------------------------------------------------------------

// out_i = m[i][0]*x0 + m[i][1]*x1 + m[i][2]*x2 + offset[i], in double from left
// to right, converted once to the output class (imlincomb's rule, which
// MATLAB's rgb2ycbcr and ycbcr2rgb call); clamp_unit then limits floating
// outputs to [0, 1] (NaN becomes 0, as MATLAB's max(x, 0) ignores it).
struct ColourMatrix {
    double m[3][3] = {};
    double offset[3] = {};
    bool clamp_unit = false;
};

// Rec. ITU-R BT.601 for R, G, B in [0, 1] and Y, Cb, Cr in [0, 255].
constexpr double kYcbcrT[3][3] = {{65.481, 128.553, 24.966}, {-37.797, -74.203, 112.0}, {112.0, -93.786, -18.214}};
constexpr double kYcbcrOffset[3] = {16.0, 128.0, 128.0};

// MATLAB's scale factors: T and the offset are multiplied by them (a double
// product each) so that the formula reads the input class and writes it.
//   double, single: T/255, offset/255; uint8: T/255, offset; uint16:
//   T*257/65535, offset*257.
inline ColourMatrix rgb2ycbcr_matrix(int32_t dtype) {
    const bool u8 = dtype == IPT_UINT8, u16 = dtype == IPT_UINT16;
    const double st = u16 ? 257.0 / 65535.0 : 1.0 / 255.0;
    const double so = u16 ? 257.0 : u8 ? 1.0 : 1.0 / 255.0;
    ColourMatrix c;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) c.m[i][j] = st * kYcbcrT[i][j];
        c.offset[i] = so * kYcbcrOffset[i];
    }
    return c;
}

// inv(T) by cofactors, in double.
inline void ycbcr_inverse(double inv[3][3]) {
    const auto& a = kYcbcrT;
    const double c00 = a[1][1] * a[2][2] - a[1][2] * a[2][1];
    const double c01 = a[1][2] * a[2][0] - a[1][0] * a[2][2];
    const double c02 = a[1][0] * a[2][1] - a[1][1] * a[2][0];
    const double det = a[0][0] * c00 + a[0][1] * c01 + a[0][2] * c02;
    inv[0][0] = c00 / det;
    inv[1][0] = c01 / det;
    inv[2][0] = c02 / det;
    inv[0][1] = (a[0][2] * a[2][1] - a[0][1] * a[2][2]) / det;
    inv[1][1] = (a[0][0] * a[2][2] - a[0][2] * a[2][0]) / det;
    inv[2][1] = (a[0][1] * a[2][0] - a[0][0] * a[2][1]) / det;
    inv[0][2] = (a[0][1] * a[1][2] - a[0][2] * a[1][1]) / det;
    inv[1][2] = (a[0][2] * a[1][0] - a[0][0] * a[1][2]) / det;
    inv[2][2] = (a[0][0] * a[1][1] - a[0][1] * a[1][0]) / det;
}

// ycbcr2rgb: rgb = (st * inv(T)) * ycbcr - (so * inv(T)) * offset, with
//   double, single: st = 255, so = 1 (then clamped to [0, 1]);
//   uint8: st = 255, so = 255; uint16: st = 65535/257, so = 65535.
inline ColourMatrix ycbcr2rgb_matrix(int32_t dtype) {
    const bool u8 = dtype == IPT_UINT8, u16 = dtype == IPT_UINT16;
    const double st = u16 ? 65535.0 / 257.0 : 255.0;
    const double so = u16 ? 65535.0 : u8 ? 255.0 : 1.0;
    double inv[3][3];
    ycbcr_inverse(inv);
    ColourMatrix c;
    for (int i = 0; i < 3; ++i) {
        double o = 0;
        for (int j = 0; j < 3; ++j) {
            c.m[i][j] = st * inv[i][j];
            o = j == 0 ? (so * inv[i][j]) * kYcbcrOffset[j] : o + (so * inv[i][j]) * kYcbcrOffset[j];
        }
        c.offset[i] = -o;
    }
    c.clamp_unit = dtype == IPT_SINGLE || dtype == IPT_DOUBLE;
    return c;
}

// One output component before its conversion to the output class.
IPT_COLOUR_FN double colour_affine(const double m[3], double offset, double x0, double x1, double x2) {
    double acc = m[0] * x0;
    acc = acc + m[1] * x1;
    acc = acc + m[2] * x2;
    return acc + offset;
}

// ycbcr2rgb's clamp of a floating output: min(max(x, 0), 1), NaN to 0.
template <class F>
IPT_COLOUR_FN F colour_clamp_unit(F x) {
    return colour_min(colour_max(x, F(0)), F(1));
}

}  // namespace ipt::common
