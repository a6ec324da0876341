// SPDX-License-Identifier: Apache-2.0
// ipt.padarray's front-end: B = padarray(A, padsize, method or padval, direction)
// (docs/matlab-semantics.md#padarray).
//
// padsize is [rows cols]; a scalar pads rows only (MATLAB fills the missing
// elements of padsize with 0), and a third element may only be 0: padding
// along the planes of an RGB image is not offered. 'both' pads padsize
// before and after, 'pre' before, 'post' after. B has A's class; the planes
// of an RGB image are padded alike. Each element of B comes from one element
// of A, found per dimension by padarray_source:
//   constant   padval converted to A's class as MATLAB converts a number
//              (integers: round half away, saturate, NaN to 0; logical:
//              nonzero is true, NaN refused; single: nearest)
//   replicate  the nearest edge element
//   circular   index mod size, however far from A
//   symmetric  mirror with the edge repeated (c b a | a b c | c b a), the
//              index folded over 2*size, however far from A
// An empty A gives B of the padded size filled with padval (0 for the other
// methods), as MATLAB fills an empty array whatever the method.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "ipt/ipt_plugin.hpp"
#include "imfilter.hpp"  // value_in_class: padval as a value of A's class

#if defined(__CUDACC__)
#define IPT_PADARRAY_FN __host__ __device__ inline
#else
#define IPT_PADARRAY_FN inline
#endif

namespace ipt::frontend {

enum class PadMethod : int32_t { Constant = 0, Circular = 1, Replicate = 2, Symmetric = 3 };

struct PadarrayPlan {
    const ipt_tensor* A = nullptr;
    int32_t dtype = 0;  // of A and B
    int64_t rows = 0, cols = 0, channels = 1;  // of A
    int64_t out_rows = 0, out_cols = 0;        // of B
    int64_t top = 0, left = 0;                 // padding before A along rows and columns
    PadMethod method = PadMethod::Constant;    // Constant whenever A is empty
    double pad_value = 0;                      // in A's class (Constant only)
};

// Index into a dimension of A of size n (n >= 1) for the 0-based index i of
// that dimension of A extended to every integer; -1 means padval.
IPT_PADARRAY_FN int64_t padarray_source(PadMethod m, int64_t i, int64_t n) {
    if (i >= 0 && i < n) return i;
    switch (m) {
    case PadMethod::Replicate: return i < 0 ? 0 : n - 1;
    case PadMethod::Circular: {
        const int64_t r = i % n;
        return r < 0 ? r + n : r;
    }
    case PadMethod::Symmetric: {
        int64_t r = i % (2 * n);
        if (r < 0) r += 2 * n;
        return r < n ? r : 2 * n - 1 - r;
    }
    case PadMethod::Constant: break;
    }
    return -1;
}

inline PadarrayPlan plan_padarray(const ipt::plugin::KernelArgs& args) {
    PadarrayPlan p;
    p.A = args.image("A");
    p.dtype = p.A->dtype;
    p.rows = p.A->rows;
    p.cols = p.A->cols;
    p.channels = p.A->channels;

    const double* size = args.floats("padsize");
    const uint64_t n = args.count("padsize");
    if (n == 3 && size[2] != 0)
        ipt::plugin::invalid("ipt.padarray: parameter 'padsize' has a third element " + std::to_string(size[2]) +
                             "; padding along the third dimension (the planes) is not supported, give [rows cols]");
    const int64_t pad_rows = static_cast<int64_t>(size[0]);
    const int64_t pad_cols = n >= 2 ? static_cast<int64_t>(size[1]) : 0;
    const bool both = args.is("direction", "both");
    const bool pre = both || args.is("direction", "pre");
    p.out_rows = p.rows + (both ? 2 * pad_rows : pad_rows);
    p.out_cols = p.cols + (both ? 2 * pad_cols : pad_cols);
    p.top = pre ? pad_rows : 0;
    p.left = pre ? pad_cols : 0;

    p.method = args.is("method", "circular")    ? PadMethod::Circular
               : args.is("method", "replicate") ? PadMethod::Replicate
               : args.is("method", "symmetric") ? PadMethod::Symmetric
                                                : PadMethod::Constant;
    if (p.method == PadMethod::Constant) {
        const double v = args.number("padval");
        if (p.dtype == IPT_LOGICAL && std::isnan(v))
            ipt::plugin::invalid("ipt.padarray: parameter 'padval' is NaN, which cannot be converted to logical");
        p.pad_value = value_in_class(v, p.dtype);
    }
    if (p.rows == 0 || p.cols == 0) p.method = PadMethod::Constant;  // pad_value stays 0 for the other methods
    return p;
}

}  // namespace ipt::frontend
