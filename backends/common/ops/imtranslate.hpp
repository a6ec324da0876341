// SPDX-License-Identifier: Apache-2.0
// ipt.imtranslate's front-end: B = imtranslate(A, [tx ty], method,
// 'OutputView', view, 'FillValues', f) (docs/matlab-semantics.md#imtranslate).
//
// B(i, j) samples A at (x, y) = (j - tx, i - ty) with the shared resampler
// (common/ops/warp.hpp). 'same' keeps A's grid and size; 'full' widens A's
// grid to hold all of the translated image: its world limits reach from
// min(0.5, 0.5 + t) to max(n + 0.5, n + 0.5 + t) along each axis, rounded
// outwards to A's pixel grid.
#pragma once

#include <cmath>

#include "common/ops/warp.hpp"

namespace ipt::frontend {

inline WarpPlan plan_imtranslate(const ipt::plugin::KernelArgs& args) {
    WarpPlan p = warp_plan_input(args.image("A"));
    const double* t = args.floats("translation");
    const double tx = t[0], ty = t[1];
    p.interp = warp_interp(args, "method");
    warp_set_fill(p, args, "ipt.imtranslate");
    const double r = static_cast<double>(p.rows), c = static_cast<double>(p.cols);
    std::array<double, 6> ref = {r, c, 0.5, c + 0.5, 0.5, r + 0.5};
    if (args.is("OutputView", "full") && p.rows > 0 && p.cols > 0) {
        const double x0 = std::floor(std::min(0.0, tx)), x1 = std::ceil(std::max(0.0, tx));
        const double y0 = std::floor(std::min(0.0, ty)), y1 = std::ceil(std::max(0.0, ty));
        ref = {r + (y1 - y0), c + (x1 - x0), 0.5 + x0, c + 0.5 + x1, 0.5 + y0, r + 0.5 + y1};
    }
    warp_check_size(ref, "ipt.imtranslate");
    const std::array<double, 9> Tinv = {1, 0, 0, 0, 1, 0, -tx, -ty, 1};
    warp_set_mapping(p, ref, Tinv);
    return p;
}

}  // namespace ipt::frontend
