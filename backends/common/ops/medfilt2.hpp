// SPDX-License-Identifier: Apache-2.0
// ipt.medfilt2's rules, written once for every backend (MATLAB's medfilt2):
//
//   B = medfilt2(A, [m n], padopt)
//
// The median of each m x n neighbourhood, centred at floor(([m n]+1)/2) as in
// ordfilt2 (an even size takes the first of the two middle cells: [2 2] covers
// A(r:r+1, c:c+1)). Defaults: [3 3] and 'zeros'. padopt: 'zeros', 'symmetric'
// (mirror including the edge pixel) or 'indexed' (pads with 1 when A is
// double, with 0 otherwise).
//
// size: two positive whole numbers. MATLAB asks for positive integers and sets
// no upper bound; the catalogue bounds each by 4096 (a 4096 x 4096 window
// already holds 2^24 values) and checks that they are finite and whole, so
// nothing here repeats that.
//
// With N = m*n, MATLAB computes (medfilt2.m)
//   odd N:  B = ordfilt2(A, (N+1)/2, ones(m,n), padopt)
//   even N: b1 = ordfilt2(A, N/2, ...); b2 = ordfilt2(A, N/2+1, ...);
//           B = imlincomb(0.5, b1, 0.5, b2)   (logical: B = b1 | b2)
// imlincomb works in double and converts once to the class of A: integers
// rounded half away from zero (a uint8 window {1 4 5 8} gives round(4.5) = 5),
// single rounded to nearest. The documentation's "the fractional parts are
// discarded" does not describe that code; B follows the code. b1 | b2 is b2
// (the upper of the two middle values). B has the class of A.
#pragma once

#include <cstdint>

#include "ipt/ipt_plugin.hpp"
#include "ordfilt2.hpp"

namespace ipt::frontend {

// How B comes from the window's sorted values v(1) <= ... <= v(N).
enum class MedianRule : int32_t {
    Middle,             // odd N: v(order), order = (N+1)/2
    Upper,              // logical, even N: v(order) | v(order+1), i.e. v(order+1)
    MeanRoundHalfAway,  // integer classes, even N: 0.5*v(order) + 0.5*v(order+1) in double,
                        // rounded half away from zero (saturation never applies)
    Mean,               // single and double, even N: 0.5*v(order) + 0.5*v(order+1) in
                        // double, then converted to the class (round to nearest)
};

struct Medfilt2Plan {
    int64_t rows = 0, cols = 0;                 // of A and of B
    int32_t a_class = IPT_DOUBLE;               // class of A and of B
    int64_t window_rows = 3, window_cols = 3;   // [m n]
    int64_t centre_row = 1, centre_col = 1;     // 0-based: order::centre(m), order::centre(n)
    int64_t count = 9;                          // N = m*n
    int64_t order = 5;                          // 1-based: (N+1)/2 for odd N, N/2 for even N
    MedianRule rule = MedianRule::Middle;
    order::Padding pad;                         // zeros, symmetric, or 'indexed' (constant 1 or 0)

    // Whether B combines v(order) and v(order+1) (every even N).
    bool two_orders() const { return rule != MedianRule::Middle; }
    // The m x n rectangle as an ordfilt2 domain (2^24 cells at most).
    order::Window window() const { return order::make_window(window_rows, window_cols, nullptr, nullptr); }
};

inline Medfilt2Plan plan_medfilt2(const ipt::plugin::KernelArgs& args) {
    const ipt_tensor* a = args.image("A");
    const double* size = args.floats("size");
    Medfilt2Plan plan;
    plan.rows = a->rows;
    plan.cols = a->cols;
    plan.a_class = a->dtype;
    plan.window_rows = static_cast<int64_t>(size[0]);
    plan.window_cols = static_cast<int64_t>(size[1]);
    plan.centre_row = order::centre(plan.window_rows);
    plan.centre_col = order::centre(plan.window_cols);
    plan.count = plan.window_rows * plan.window_cols;
    if (plan.count % 2 == 1) {
        plan.order = (plan.count + 1) / 2;
        plan.rule = MedianRule::Middle;
    } else {
        plan.order = plan.count / 2;
        const bool floating = a->dtype == IPT_SINGLE || a->dtype == IPT_DOUBLE;
        plan.rule = a->dtype == IPT_LOGICAL ? MedianRule::Upper
                    : floating              ? MedianRule::Mean
                                            : MedianRule::MeanRoundHalfAway;
    }
    if (args.is("padopt", "symmetric")) {
        plan.pad.kind = order::Pad::Symmetric;
    } else {
        plan.pad.kind = order::Pad::Constant;
        plan.pad.value = args.is("padopt", "indexed") && a->dtype == IPT_DOUBLE ? 1.0 : 0.0;
    }
    return plan;
}

}  // namespace ipt::frontend
