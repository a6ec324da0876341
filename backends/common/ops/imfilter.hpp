// SPDX-License-Identifier: Apache-2.0
// ipt.imfilter's front-end: B = imfilter(A, h, boundary, output, mode) turned
// into a padded correlation.
//
// Correlation by default ('conv' turns h by 180 degrees), kernel centre at
// floor((size(h)+1)/2) (docs/matlab-semantics.md#centre and #imfilter-boundary). The image is
// padded by the boundary rule (constant X, symmetric including the edge
// pixel, replicate, circular); 'full' pads by size(h)-1 on every side and
// gives size(A)+size(h)-1. Channels are filtered independently. The constant
// X is first converted to A's class, as padarray does. B has A's class:
// integer classes are rounded half away from zero and saturated, and a
// logical B is true where the sum is nonzero. MATLAB's imfilter returns an
// empty A unchanged for 'same' and zeros of the full size for 'full'.
//
// The schema already enforces the rest (h nonempty, 2-D and floating, A with
// 1 or 3 channels), so planning never fails.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

enum class ImfilterBoundary { Constant, Symmetric, Replicate, Circular };

// How the sum becomes a value of B's class.
enum class ImfilterRounding {
    None,           // single and double: the sum itself
    RoundSaturate,  // integer classes: round half away from zero, saturate (NaN is 0)
    Logical,        // logical: nonzero is true (NaN is false)
};

struct ImfilterPlan {
    const ipt_tensor* A = nullptr;  // on the call's device
    const ipt_tensor* h = nullptr;  // on the call's device, single or double
    ImfilterBoundary boundary = ImfilterBoundary::Constant;
    double pad_value = 0;           // X converted to A's class (for Constant)
    bool full = false;
    bool conv = false;              // h is turned by 180 degrees

    int64_t ma = 0, na = 0, channels = 1;
    int64_t kr = 0, kc = 0;
    int32_t out_class = IPT_DOUBLE;
    int64_t out_rows = 0, out_cols = 0;
    // B(r, c) = sum over taps (i, j) of w(i, j) * A_padded(r + i - top, c + j - left),
    // with w = h (or h turned when conv): top/left is the centre of h for
    // 'same', size(h)-1 for 'full'.
    int64_t top = 0, left = 0;
    ImfilterRounding rounding = ImfilterRounding::None;
    // A has no pixels: B is all zeros (or empty).
    bool zeros_only = false;
};

// The boundary as a backend's own border enum, whose enumerators carry the
// same names (Constant, Symmetric, Replicate, Circular).
template <class Border>
constexpr Border border_as(ImfilterBoundary b) {
    switch (b) {
    case ImfilterBoundary::Symmetric: return Border::Symmetric;
    case ImfilterBoundary::Replicate: return Border::Replicate;
    case ImfilterBoundary::Circular: return Border::Circular;
    case ImfilterBoundary::Constant: break;
    }
    return Border::Constant;
}

// Centre of a kernel along one dimension, 0-based: floor((size+1)/2) - 1
// (docs/matlab-semantics.md#centre).
inline int64_t imfilter_origin(int64_t size) { return (size + 1) / 2 - 1; }

// x as a value of class `dtype` (as MATLAB's conversion gives it), as a double.
inline double value_in_class(double x, int32_t dtype) {
    auto saturate = [x](double lo, double hi) {
        if (std::isnan(x)) return 0.0;
        return std::round(std::clamp(x, lo, hi));  // half away from zero
    };
    switch (dtype) {
    case IPT_LOGICAL: return (x != 0 && !std::isnan(x)) ? 1.0 : 0.0;
    case IPT_UINT8: return saturate(0, 255);
    case IPT_UINT16: return saturate(0, 65535);
    case IPT_INT16: return saturate(-32768, 32767);
    case IPT_INT32: return saturate(-2147483648.0, 2147483647.0);
    case IPT_UINT32: return saturate(0, 4294967295.0);
    case IPT_SINGLE: return static_cast<double>(static_cast<float>(x));
    default: return x;
    }
}

inline ImfilterPlan plan_imfilter(const ipt::plugin::KernelArgs& args) {
    ImfilterPlan p;
    p.A = args.image("A");
    p.h = args.image("h");
    p.boundary = args.is("boundary", "symmetric")   ? ImfilterBoundary::Symmetric
                 : args.is("boundary", "replicate") ? ImfilterBoundary::Replicate
                 : args.is("boundary", "circular")  ? ImfilterBoundary::Circular
                                                    : ImfilterBoundary::Constant;
    p.out_class = p.A->dtype;
    p.pad_value = value_in_class(args.number("X"), p.out_class);
    p.full = args.is("output", "full");
    p.conv = args.is("mode", "conv");

    p.ma = p.A->rows;
    p.na = p.A->cols;
    p.channels = p.A->channels;
    p.kr = p.h->rows;
    p.kc = p.h->cols;
    p.out_rows = p.full ? p.ma + p.kr - 1 : p.ma;
    p.out_cols = p.full ? p.na + p.kc - 1 : p.na;
    p.top = p.full ? p.kr - 1 : imfilter_origin(p.kr);
    p.left = p.full ? p.kc - 1 : imfilter_origin(p.kc);
    p.rounding = p.out_class == IPT_SINGLE || p.out_class == IPT_DOUBLE ? ImfilterRounding::None
                 : p.out_class == IPT_LOGICAL                          ? ImfilterRounding::Logical
                                                                       : ImfilterRounding::RoundSaturate;
    p.zeros_only = p.ma == 0 || p.na == 0;
    return p;
}

}  // namespace ipt::frontend
