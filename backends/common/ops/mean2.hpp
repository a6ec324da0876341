// SPDX-License-Identifier: Apache-2.0
// ipt.mean2's front-end: m = mean2(A) = sum(double(A(:))) / numel(A) over
// every element (every channel). m is 1x1, single for single A and double for
// every other class; an empty A gives NaN (0/0), as in MATLAB.
#pragma once

#include <cstdint>

#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct Mean2Plan {
    const ipt_tensor* A = nullptr;
    int32_t dtype = 0;      // of A
    int64_t numel = 0;      // the divisor
    int32_t out_dtype = 0;  // of m (1x1)
};

inline Mean2Plan plan_mean2(const ipt::plugin::KernelArgs& args) {
    Mean2Plan p;
    p.A = args.image("A");
    p.dtype = p.A->dtype;
    p.numel = p.A->rows * p.A->cols * p.A->channels;
    p.out_dtype = p.A->dtype == IPT_SINGLE ? IPT_SINGLE : IPT_DOUBLE;
    return p;
}

}  // namespace ipt::frontend
