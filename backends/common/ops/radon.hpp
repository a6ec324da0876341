// SPDX-License-Identifier: Apache-2.0
// ipt.radon's front-end: [R, xp] = radon(I, theta), MATLAB's radonc geometry.
//
// The image centre is floor((size+1)/2) (1-based), i.e. x_origin =
// floor((cols-1)/2), y_origin = floor((rows-1)/2) 0-based. The radial
// coordinates run from r_first = -r_last to r_last, r_last =
// ceil(sqrt((rows-1-y_origin)^2 + (cols-1-x_origin)^2)) + 1, which makes
// 2*ceil(norm(size(I)-floor((size(I)-1)/2)-1))+3 rows of R, one column per
// angle; R and xp are double. Angles are converted with radonc's constant
// 3.14159265358979/180, and their cos and sin are tabled here so that every
// backend projects with the same bits.
//
// Each nonzero pixel (row m, col n, 0-based) is split into four sub-pixels at
// x = n - x_origin -/+ 0.25, y = y_origin - m -/+ 0.25 carrying a quarter of
// its value; r = x cos + y sin lands at t = r - r_first, and bin floor(t)
// gets (1 - delta) of the quarter, bin floor(t)+1 gets delta = t - floor(t).
// The schema already requires theta to be finite and non-empty.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

// MATLAB's radonc converts degrees with this constant, not pi/180
// (docs/matlab-semantics.md#radon).
constexpr double kRadonDegToRad = 3.14159265358979 / 180.0;

struct RadonPlan {
    int64_t rows = 0, cols = 0;          // I
    int64_t x_origin = 0, y_origin = 0;  // 0-based centre (-1 along an empty side)
    int64_t r_last = 0, r_first = 0;
    int64_t bins = 0;                    // rows of R and xp: 2*r_last + 1
    int64_t angles = 0;                  // columns of R
    const double* theta = nullptr;       // degrees, host
    std::vector<double> cos_theta, sin_theta;
    bool want_xp = false;
    std::vector<double> xp;              // r_first..r_last when wanted
};

inline RadonPlan plan_radon(const ipt::plugin::KernelArgs& args) {
    const ipt_tensor* img = args.image("I");
    RadonPlan p;
    p.rows = img->rows;
    p.cols = img->cols;
    // floor((size+1)/2) 1-based; integer division is floor for size >= 0.
    p.x_origin = (p.cols + 1) / 2 - 1;
    p.y_origin = (p.rows + 1) / 2 - 1;
    const double dx = static_cast<double>(p.cols - 1 - p.x_origin);
    const double dy = static_cast<double>(p.rows - 1 - p.y_origin);
    p.r_last = static_cast<int64_t>(std::ceil(std::sqrt(dx * dx + dy * dy))) + 1;
    p.r_first = -p.r_last;
    p.bins = 2 * p.r_last + 1;
    p.theta = args.floats("theta");
    p.angles = static_cast<int64_t>(args.count("theta"));
    p.cos_theta.resize(static_cast<size_t>(p.angles));
    p.sin_theta.resize(static_cast<size_t>(p.angles));
    for (int64_t k = 0; k < p.angles; ++k) {
        const double angle = p.theta[k] * kRadonDegToRad;
        p.cos_theta[k] = std::cos(angle);
        p.sin_theta[k] = std::sin(angle);
    }
    p.want_xp = args.wanted("xp");
    if (p.want_xp) {
        p.xp.resize(static_cast<size_t>(p.bins));
        for (int64_t i = 0; i < p.bins; ++i) p.xp[i] = static_cast<double>(p.r_first + i);
    }
    return p;
}

}  // namespace ipt::frontend
