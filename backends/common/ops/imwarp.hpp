// SPDX-License-Identifier: Apache-2.0
// ipt.imwarp's front-end: [B, RB] = imwarp(A, tform, interp, 'OutputView',
// RB, 'FillValues', f, 'SmoothEdges', s) with tform an affine2d or
// projective2d matrix T ([x y w] = [u v 1] * T)
// (docs/matlab-semantics.md#imwarp).
//
// A lies on its default imref2d (world = intrinsic, limits [0.5, n + 0.5]).
// Without OutputView, B's grid is the transformed limits of A at A's pixel
// size (common/ops/warp.hpp, warp_default_ref). Every pixel of B samples A
// at inv(T) of its world centre with the shared resampler: by default with
// sharp edges (beyond A's outermost pixel centres is the fill value), with
// SmoothEdges padded by the fill value, so pixels near A's edge interpolate
// against it. A singular T is an error.
#pragma once

#include <cmath>

#include "common/ops/warp.hpp"

namespace ipt::frontend {

inline WarpPlan plan_imwarp(const ipt::plugin::KernelArgs& args) {
    WarpPlan p = warp_plan_input(args.image("A"));
    std::array<double, 9> T;
    const double* t = args.floats("T");
    for (int k = 0; k < 9; ++k) T[k] = t[k];
    std::array<double, 9> Tinv;
    if (!warp_invert(T, &Tinv)) ipt::plugin::invalid("ipt.imwarp: parameter 'T' is singular; it must be invertible");
    p.interp = warp_interp(args, "interp");
    p.smooth_edges = args.integer("SmoothEdges") != 0;
    warp_set_fill(p, args, "ipt.imwarp");
    std::array<double, 6> ref;
    if (args.present("OutputView")) {
        const double* v = args.floats("OutputView");
        for (int k = 0; k < 6; ++k) ref[k] = v[k];
        if (!(ref[0] >= 1 && ref[1] >= 1 && ref[0] == std::floor(ref[0]) && ref[1] == std::floor(ref[1])))
            ipt::plugin::invalid("ipt.imwarp: parameter 'OutputView' must start with positive integer sizes "
                                 "[numrows numcols ...]");
        if (!(ref[3] > ref[2] && ref[5] > ref[4]))
            ipt::plugin::invalid("ipt.imwarp: parameter 'OutputView' must have xmax > xmin and ymax > ymin");
    } else if (p.rows == 0 || p.cols == 0) {
        const double r = static_cast<double>(p.rows), c = static_cast<double>(p.cols);
        ref = {r, c, 0.5, c + 0.5, 0.5, r + 0.5};
    } else {
        ref = warp_default_ref(T, p.rows, p.cols);
        if (!(std::isfinite(ref[0]) && std::isfinite(ref[1])))
            ipt::plugin::invalid("ipt.imwarp: parameter 'T' maps A's corners to infinity");
    }
    warp_check_size(ref, "ipt.imwarp");
    warp_set_mapping(p, ref, Tinv);
    return p;
}

}  // namespace ipt::frontend
