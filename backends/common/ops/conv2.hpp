// SPDX-License-Identifier: Apache-2.0
// ipt.conv2's front-end: C = conv2(A,B,shape) and C = conv2(u,v,A,shape)
// turned into the part of the full convolution a backend computes.
//
// MATLAB's conv2 help: 'full' is max([ma+mb-1, ma, mb]) by
// max([na+nb-1, na, nb]); 'same' is size(A), taken from full at
// (floor(mb/2), floor(nb/2)) (docs/matlab-semantics.md#conv2-same); 'valid' is
// max(ma - max(0, mb-1), 0) by max(na - max(0, nb-1), 0) and may be empty.
// conv2(u,v,A) convolves the columns with u and the rows with v, so mb =
// numel(u) and nb = numel(v). C is single only when every input is single.
//
// The schema already enforces the rest (float classes, one channel, B or
// both u and v, u and v vectors), so planning never fails.
#pragma once

#include <algorithm>
#include <cstdint>

#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

enum class Conv2Shape { Full, Same, Valid };

struct Conv2Plan {
    // The operands, on the call's device (the host for the CPU backend):
    // B for conv2(A,B), or u (columns) and v (rows) for conv2(u,v,A).
    const ipt_tensor* A = nullptr;
    const ipt_tensor* B = nullptr;
    const ipt_tensor* u = nullptr;
    const ipt_tensor* v = nullptr;
    bool separable = false;  // conv2(u,v,A)
    Conv2Shape shape = Conv2Shape::Full;

    int64_t ma = 0, na = 0;  // size(A)
    int64_t kr = 0, kc = 0;  // size(B), or numel(u) x numel(v)
    int32_t out_class = IPT_DOUBLE;
    int64_t out_rows = 0, out_cols = 0;
    // C(0,0) is element (first_r, first_c) of the full convolution (0-based).
    int64_t first_r = 0, first_c = 0;

    // The full convolution is the correlation of the kernel turned by 180
    // degrees with A padded by zeros. For C, A's row 0 sits at padded row
    // top() and its column 0 at padded column left(): C(r, c) correlates the
    // turned kernel with padded rows r .. r+kr-1 and columns c .. c+kc-1.
    int64_t top() const { return kr - 1 - first_r; }
    int64_t left() const { return kc - 1 - first_c; }

    bool output_empty() const { return out_rows == 0 || out_cols == 0; }
    // A or the kernel has no elements: every output is the sum of no terms.
    bool operand_empty() const { return ma == 0 || na == 0 || kr == 0 || kc == 0; }
};

inline Conv2Plan plan_conv2(const ipt::plugin::KernelArgs& args) {
    Conv2Plan p;
    p.A = args.image("A");
    p.B = args.image("B");
    p.u = args.image("u");
    p.v = args.image("v");
    p.separable = p.B == nullptr;
    p.shape = args.is("shape", "same") ? Conv2Shape::Same
              : args.is("shape", "valid") ? Conv2Shape::Valid
                                          : Conv2Shape::Full;

    bool all_single = p.A->dtype == IPT_SINGLE;
    for (const ipt_tensor* t : {p.B, p.u, p.v})
        if (t && t->dtype != IPT_SINGLE) all_single = false;
    p.out_class = all_single ? IPT_SINGLE : IPT_DOUBLE;

    p.ma = p.A->rows;
    p.na = p.A->cols;
    p.kr = p.separable ? p.u->rows * p.u->cols : p.B->rows;
    p.kc = p.separable ? p.v->rows * p.v->cols : p.B->cols;
    switch (p.shape) {
    case Conv2Shape::Full:
        p.out_rows = std::max({p.ma + p.kr - 1, p.ma, p.kr});
        p.out_cols = std::max({p.na + p.kc - 1, p.na, p.kc});
        break;
    case Conv2Shape::Same:
        p.out_rows = p.ma;
        p.out_cols = p.na;
        p.first_r = p.kr / 2;
        p.first_c = p.kc / 2;
        break;
    case Conv2Shape::Valid:
        p.out_rows = std::max<int64_t>(p.ma - std::max<int64_t>(0, p.kr - 1), 0);
        p.out_cols = std::max<int64_t>(p.na - std::max<int64_t>(0, p.kc - 1), 0);
        p.first_r = std::max<int64_t>(p.kr - 1, 0);
        p.first_c = std::max<int64_t>(p.kc - 1, 0);
        break;
    }
    return p;
}

}  // namespace ipt::frontend
