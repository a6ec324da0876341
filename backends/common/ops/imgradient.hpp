// SPDX-License-Identifier: Apache-2.0
// ipt.imgradient's front-end: [Gmag, Gdir] = imgradient(I, method)
// (docs/matlab-semantics.md#imgradient). Gx and Gy come from imgradientxy's
// stencils (common/ops/imgradientxy.hpp, which also gives roberts), in T:
// float for single I, double otherwise.
//   Gmag = hypot(Gx, Gy), class T (infinite where either is, NaN or not)
//   Gdir = atan2(-Gy, Gx)*180/pi in T, degrees in [-180, 180] counter-clockwise
//          from the x axis (y up, hence -Gy)
// For single, atan2 and the root of the squares are taken in double and
// rounded once (within an ulp of MATLAB's single functions), so every
// backend with a double atan2 and sqrt gives the same single results.
//   roberts: Gdir = 0 where Gx = Gy = 0, else atan2(Gy, -Gx) - pi/4 in T,
//          then in double: + 2*pi below -pi, * 180 / pi. MATLAB fills a
//          double array there, so Gdir is double even for single I.
// atan2 of equal magnitudes is taken as the correctly rounded diagonal
// (+-pi/4, +-3pi/4) on every backend, so roberts' wrap at -pi, which such
// pixels reach, falls the same way everywhere.
#pragma once

#include <cmath>
#include <cstdint>

#include "imgradientxy.hpp"

namespace ipt::frontend {

struct ImgradientPlan {
    ImgradientxyPlan xy;    // input, method, class of Gx, Gy and Gmag
    int32_t mag_dtype = 0;  // single for single I, else double
    int32_t dir_dtype = 0;  // as Gmag, but double for roberts
};

inline ImgradientPlan plan_imgradient(const ipt::plugin::KernelArgs& args) {
    ImgradientPlan p;
    p.xy = plan_gradient_input(args);
    p.mag_dtype = p.xy.out_dtype;
    p.dir_dtype = p.xy.method == GradientMethod::Roberts ? IPT_DOUBLE : p.xy.out_dtype;
    return p;
}

// atan2(y, x) in T. Single takes the double atan2 rounded once to single
// (atan2f within its ulp), which every backend's double atan2 reproduces.
template <class T>
IPT_GRADIENT_FN T gradient_atan2(T y, T x) {
    if constexpr (sizeof(T) == 4) return static_cast<float>(std::atan2(static_cast<double>(y), static_cast<double>(x)));
    else return std::atan2(y, x);
}

// hypot(gx, gy) in T (infinite if either is, even with a NaN). Single is
// exact squares summed and rooted in double, then rounded once. Double
// gradients that are multiples of 1/2 below 2^25 (every integer image's
// sobel, prewitt and central differences) have an exact sum of squares, whose
// square root is the correctly rounded hypot, without hypot's cost.
template <class T>
IPT_GRADIENT_FN T gradient_magnitude(T gx, T gy) {
    if constexpr (sizeof(T) == 4) {
        if (std::isinf(gx) || std::isinf(gy)) return static_cast<T>(INFINITY);
        const double x = gx, y = gy;
        return static_cast<float>(std::sqrt(x * x + y * y));
    } else {
        constexpr double limit = 67108864.0;  // 2^26: (2g)^2 < 2^52, so both squares and their sum are exact
        const double x2 = 2 * gx, y2 = 2 * gy;
        if (x2 > -limit && x2 < limit && y2 > -limit && y2 < limit &&
            static_cast<double>(static_cast<int64_t>(x2)) == x2 && static_cast<double>(static_cast<int64_t>(y2)) == y2)
            return std::sqrt(gx * gx + gy * gy);
        return std::hypot(gx, gy);
    }
}

// Degrees from the angle a in radians, in T, as MATLAB writes it.
template <class T>
IPT_GRADIENT_FN T gradient_degrees(T a) {
    return a * T(180) / T(3.14159265358979323846);
}

// Degrees of the direction atan2(-gy, gx).
template <class T>
IPT_GRADIENT_FN T gradient_direction(T gx, T gy) {
    return gradient_degrees(gradient_atan2(-gy, gx));
}

// atan2(y, x) with |y| == |x| (nonzero or both infinite): the nearest T to
// +-pi/4 or +-3pi/4.
template <class T>
IPT_GRADIENT_FN T gradient_diagonal(T y, T x) {
    const T quarter = sizeof(T) == 4 ? T(0.785398163397448309616f) : T(0.785398163397448309616);
    const T three = sizeof(T) == 4 ? T(2.356194490192344928847f) : T(2.356194490192344928847);
    const T a = x > T(0) ? quarter : three;
    return y < T(0) ? -a : a;
}

// Roberts' direction in degrees from the angle a = atan2(gy, -gx) in T.
template <class T>
IPT_GRADIENT_FN double roberts_degrees(T a) {
    double t = static_cast<double>(a - T(0.785398163397448309616));
    const double pi = 3.14159265358979323846;
    if (t < -pi) t += 2 * pi;
    return t * 180 / pi;
}

template <class T>
IPT_GRADIENT_FN double roberts_direction(T gx, T gy) {
    if (gx == T(0) && gy == T(0)) return 0;
    const T a = std::fabs(gx) == std::fabs(gy) ? gradient_diagonal(gy, -gx) : gradient_atan2(gy, -gx);
    return roberts_degrees(a);
}

}  // namespace ipt::frontend
