// SPDX-License-Identifier: Apache-2.0
// ipt.imrotate's front-end: J = imrotate(I, angle, method, bbox)
// (docs/matlab-semantics.md#imrotate).
//
// angle is counter-clockwise in degrees. A multiple of 90 is an exact
// reordering (rot90), whatever the method: 'loose' swaps the sizes for 90
// and 270; 'crop' of a non-square image rotates only the central
// min(rows, cols) square, offset by |floor(rows/2) - floor(cols/2)| along the
// longer side, and leaves the rest 0. Any other angle warps I by the
// rotation [cos -sin 0; sin cos 0; 0 0 1] (row vector convention) about the
// world origin: 'loose' takes imwarp's default output view of it, 'crop'
// keeps I's size and centres that view on I's centre. Outside the rotated
// image J is 0; bilinear and bicubic interpolate across I's edge against that 0.
#pragma once

#include <cmath>

#include "common/ops/warp.hpp"

namespace ipt::frontend {

inline WarpPlan plan_imrotate(const ipt::plugin::KernelArgs& args) {
    WarpPlan p = warp_plan_input(args.image("I"));
    const double angle = args.number("angle");
    const bool crop = args.is("bbox", "crop");
    const double r = static_cast<double>(p.rows), c = static_cast<double>(p.cols);
    const bool empty = p.rows == 0 || p.cols == 0;
    if (empty) {
        // An empty image is returned as it is.
        p.out_rows = p.rows;
        p.out_cols = p.cols;
        p.ref = {r, c, 0.5, c + 0.5, 0.5, r + 0.5};
        return p;
    }
    if (std::fmod(angle, 90.0) == 0) {
        // Exact: nearest sampling of integer coordinates.
        p.interp = WarpInterp::Nearest;
        double k = std::fmod(std::floor(angle / 90), 4.0);
        if (k < 0) k += 4;
        const int quarter = static_cast<int>(k);
        std::array<double, 9> M{};
        int64_t orows = p.rows, ocols = p.cols;
        int64_t n_r = p.rows, n_c = p.cols;  // the rotated window's size
        int64_t off_r = 0, off_c = 0;        // its offset in I and in J
        if (quarter == 1 || quarter == 3) {
            if (crop && p.rows != p.cols) {
                const int64_t side = std::min(p.rows, p.cols);
                const int64_t shift = std::llabs(p.rows / 2 - p.cols / 2);
                n_r = n_c = side;
                (p.rows > p.cols ? off_r : off_c) = shift;
            } else {
                orows = p.cols;
                ocols = p.rows;
            }
        }
        const double nr = static_cast<double>(n_r), nc = static_cast<double>(n_c);
        const double orr = static_cast<double>(off_r), oc = static_cast<double>(off_c);
        // Output (i, j) of the window at (i - off_r, j - off_c) reads the window at (x, y).
        switch (quarter) {
        case 0: M = {1, 0, 0, 0, 1, 0, 0, 0, 1}; break;
        // rot90 once: J(i, j) = W(j, n_c + 1 - i): x = n_c + 1 - i, y = j.
        case 1: M = {0, 1, 0, -1, 0, 0, nc + 1, 0, 1}; break;
        case 2: M = {-1, 0, 0, 0, -1, 0, nc + 1, nr + 1, 1}; break;
        // rot90 three times: J(i, j) = W(n_r + 1 - j, i): x = i, y = n_r + 1 - j.
        default: M = {0, -1, 0, 1, 0, 0, 0, nr + 1, 1}; break;
        }
        // Shift into J's and the window's coordinates: the window is I(off + 1 ..).
        if (quarter == 1 || quarter == 3) {
            // J's pixel (i, j) = window pixel (i - off_r, j - off_c); offsets are the same in I and J.
            M[6] += -orr * M[3] - oc * M[0];
            M[7] += -orr * M[4] - oc * M[1];
        }
        p.M = M;
        p.projective = false;
        p.row0 = off_r;
        p.col0 = off_c;
        p.win_rows = n_r;
        p.win_cols = n_c;
        p.out_rows = orows;
        p.out_cols = ocols;
        const double orows_d = static_cast<double>(orows), ocols_d = static_cast<double>(ocols);
        p.ref = {orows_d, ocols_d, 0.5, ocols_d + 0.5, 0.5, orows_d + 0.5};
        return p;
    }
    p.interp = warp_interp(args, "method");
    const double phi = (3.141592653589793 / 180) * angle;
    const double cs = std::cos(phi), sn = std::sin(phi);
    const std::array<double, 9> T = {cs, -sn, 0, sn, cs, 0, 0, 0, 1};
    std::array<double, 9> Tinv;
    warp_invert(T, &Tinv);
    std::array<double, 6> ref = warp_default_ref(T, p.rows, p.cols);
    if (crop) {
        const double xt = (ref[2] + ref[3]) / 2 - (0.5 + c + 0.5) / 2;
        const double yt = (ref[4] + ref[5]) / 2 - (0.5 + r + 0.5) / 2;
        ref = {r, c, 0.5 + xt, c + 0.5 + xt, 0.5 + yt, r + 0.5 + yt};
    }
    warp_check_size(ref, "ipt.imrotate");
    warp_set_mapping(p, ref, Tinv);
    return p;
}

}  // namespace ipt::frontend
