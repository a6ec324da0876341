// SPDX-License-Identifier: Apache-2.0
// ipt.imcrop's front-end: J = imcrop(I, rect), rect = [xmin ymin width height]
// in I's default spatial coordinates (pixel centres at integers, x along
// columns) (docs/matlab-semantics.md#imcrop). MATLAB's rule, in double:
//   c1 = (xmin - 1) + 1,  r1 = (ymin - 1) + 1       (the spatial-to-pixel map)
//   c2 = round(c1 + width), r2 = round(r1 + height) (round half away)
//   c1 = round(c1),  r1 = round(r1)
// so a width w in spatial units keeps about w + 1 columns (the corners are
// pixel centres). If r1 > rows, r2 < 1, c1 > cols or c2 < 1 (always so for an
// empty I) the rectangle misses I and J is [], a 0x0 double, as MATLAB's
// imcrop returns; otherwise the corners are clipped to I and J =
// I(r1:r2, c1:c2, :) keeps I's class. A rect that is not four finite numbers
// (the schema) or has a negative width or height is refused.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct ImcropPlan {
    const ipt_tensor* I = nullptr;
    int32_t dtype = 0;                 // of I
    int64_t channels = 1;              // of I and J (J = [] has one)
    int64_t row0 = 0, col0 = 0;        // 0-based first row and column of I kept
    int64_t out_rows = 0, out_cols = 0;
    int32_t out_dtype = 0;             // I's class, or double for []
    bool empty = false;                // J = []
};

inline ImcropPlan plan_imcrop(const ipt::plugin::KernelArgs& args) {
    ImcropPlan p;
    p.I = args.image("I");
    p.dtype = p.I->dtype;
    const double* rect = args.floats("rect");
    if (rect[2] < 0 || rect[3] < 0)
        ipt::plugin::invalid("ipt.imcrop: parameter 'rect' must have a nonnegative width and height (rect(3) = " +
                             std::to_string(rect[2]) + ", rect(4) = " + std::to_string(rect[3]) + ")");
    const double m = static_cast<double>(p.I->rows), n = static_cast<double>(p.I->cols);
    // The map from spatial to pixel units is x - 1 + 1 with the default
    // spatial referencing (one pixel per unit); computed as MATLAB does.
    const double c1f = (rect[0] - 1.0) * 1.0 + 1.0;
    const double r1f = (rect[1] - 1.0) * 1.0 + 1.0;
    const double c2 = std::round(c1f + rect[2] * 1.0);
    const double r2 = std::round(r1f + rect[3] * 1.0);
    const double c1 = std::round(c1f), r1 = std::round(r1f);
    if (m == 0 || n == 0 || r1 > m || r2 < 1 || c1 > n || c2 < 1) {
        p.empty = true;
        p.out_dtype = IPT_DOUBLE;
        return p;
    }
    p.out_dtype = p.dtype;
    p.channels = p.I->channels;
    const double first_row = std::max(r1, 1.0), last_row = std::min(r2, m);
    const double first_col = std::max(c1, 1.0), last_col = std::min(c2, n);
    p.row0 = static_cast<int64_t>(first_row) - 1;
    p.col0 = static_cast<int64_t>(first_col) - 1;
    p.out_rows = static_cast<int64_t>(last_row - first_row) + 1;
    p.out_cols = static_cast<int64_t>(last_col - first_col) + 1;
    return p;
}

}  // namespace ipt::frontend
