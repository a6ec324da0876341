// SPDX-License-Identifier: Apache-2.0
// ipt.mat2gray's front-end: I = mat2gray(A) and I = mat2gray(A,[amin amax])
// (docs/matlab-semantics.md#mat2gray). I is double, of A's size; A may be of
// any class, logical included. With limits [amin amax]:
//   amin == amax: I = double(A)
//   otherwise:    delta = 1/(amax-amin), I = delta*double(A) + (-amin*delta),
//                 a product and a sum in double (no fused multiply-add)
// then clipped as max(0, min(I,1)). MATLAB's min and max skip NaN, so a NaN
// element becomes 1. Without limits they are [min(A(:)) max(A(:))] over every
// element and channel with NaN skipped; NaN when A holds nothing but NaN.
// Backends find that minimum and maximum (on the device) and hand them to
// mat2gray_default_scale; the rest is mat2gray_value per element.
#pragma once

#include <cstdint>

#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct Mat2grayScale {
    bool constant = false;  // amin == amax: I = double(A), clipped
    double delta = 0;       // 1/(amax-amin)
    double offset = 0;      // -amin*delta
};

struct Mat2grayPlan {
    const ipt_tensor* A = nullptr;
    int32_t dtype = 0;  // of A
    int64_t rows = 0, cols = 0, channels = 1;
    int64_t numel = 0;
    bool limits_given = false;
    Mat2grayScale scale;  // from the given limits; when !limits_given, mat2gray_default_scale
};

constexpr Mat2grayScale mat2gray_scale(double amin, double amax) {
    Mat2grayScale s;
    if (amax == amin) {
        s.constant = true;
        return s;
    }
    s.delta = 1.0 / (amax - amin);
    s.offset = -amin * s.delta;
    return s;
}

// From the least and greatest non-NaN elements found; a reduction that found
// none reports lo > hi (its identities +Inf and -Inf), and MATLAB's limits are
// then NaN.
constexpr Mat2grayScale mat2gray_default_scale(double lo, double hi) {
    if (lo > hi) {
        const double nan = __builtin_nan("");
        return mat2gray_scale(nan, nan);
    }
    return mat2gray_scale(lo, hi);
}

// One element of I from the element of A as a double.
constexpr double mat2gray_value(double a, const Mat2grayScale& s) {
    const double v = s.constant ? a : a * s.delta + s.offset;
    if (v < 0.0) return 0.0;
    if (v <= 1.0) return v;
    return 1.0;  // above 1, or NaN (min(NaN,1) is 1)
}

inline Mat2grayPlan plan_mat2gray(const ipt::plugin::KernelArgs& args) {
    Mat2grayPlan p;
    p.A = args.image("A");
    p.dtype = p.A->dtype;
    p.rows = p.A->rows;
    p.cols = p.A->cols;
    p.channels = p.A->channels;
    p.numel = p.rows * p.cols * p.channels;
    p.limits_given = args.present("limits");
    if (p.limits_given) {
        const double* limits = args.floats("limits");
        p.scale = mat2gray_scale(limits[0], limits[1]);
    }
    return p;
}

}  // namespace ipt::frontend
