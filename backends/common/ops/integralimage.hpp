// SPDX-License-Identifier: Apache-2.0
// ipt.integralimage's front-end: J = integralImage(I, orientation)
// (docs/matlab-semantics.md#integralimage).
//
// 'upright': J is (m+1) x (n+1) double with a zero first row and column,
// J(r+1, c+1) = sum of I(1:r, 1:c), formed as cumsum(cumsum(I, 1), 2): the
// running sums down each column first, then the running sums of those along
// each row, every addition in double.
// 'rotated': the 45-degree (Lienhart-Maydt) table, (m+1) x (n+2) double:
// row 2 holds row 1 of I in columns 2..n+1, and each later row y follows
//   J(y,1) = J(y-1,2),  J(y,end) = J(y-1,end-1),
//   J(y,x) = J(y-1,x-1) + J(y-1,x+1) - J(y-2,x) + I(y-1,x-1) + I(y-2,x-1)
// evaluated left to right (x = 2..n+1). An empty I gives an empty rotated J
// and an all-zero (m+1) x (n+1) upright J. Every plane alike.
#pragma once

#include <cstdint>

#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct IntegralImagePlan {
    const ipt_tensor* I = nullptr;
    int64_t rows = 0, cols = 0, channels = 1;  // of I
    bool rotated = false;
    int64_t out_rows = 1, out_cols = 1;         // of J (double)
};

inline IntegralImagePlan plan_integralimage(const ipt::plugin::KernelArgs& args) {
    IntegralImagePlan p;
    p.I = args.image("I");
    p.rows = p.I->rows;
    p.cols = p.I->cols;
    p.channels = p.I->channels;
    p.rotated = args.is("orientation", "rotated");
    const bool empty = p.rows == 0 || p.cols == 0;
    if (p.rotated && empty) {
        p.out_rows = p.out_cols = 0;
    } else {
        p.out_rows = p.rows + 1;
        p.out_cols = p.cols + (p.rotated ? 2 : 1);
    }
    return p;
}

}  // namespace ipt::frontend
