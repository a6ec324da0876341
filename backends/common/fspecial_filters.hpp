// SPDX-License-Identifier: Apache-2.0
// Construction of MATLAB's predefined 2-D filters (fspecial), header-only so
// that every backend, and operators such as edge, build exactly the same taps.
//
// Formulas follow MathWorks' documentation of fspecial and
// docs/matlab-semantics.md. Sums are taken in MATLAB's column-major order
// (sum(h(:))) so that the normalisation rounds as MATLAB's does.
// Filters are returned row-major.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <vector>

namespace ipt::common {

struct Filter2D {
    int64_t rows = 0, cols = 0;
    std::vector<double> h;  // row-major

    double& at(int64_t r, int64_t c) { return h[static_cast<size_t>(r * cols + c)]; }
    double at(int64_t r, int64_t c) const { return h[static_cast<size_t>(r * cols + c)]; }
};

namespace fspecial_detail {

constexpr double kEps = std::numeric_limits<double>::epsilon();

inline Filter2D zeros(int64_t rows, int64_t cols) {
    Filter2D f;
    f.rows = rows;
    f.cols = cols;
    f.h.assign(static_cast<size_t>(rows * cols), 0.0);
    return f;
}

// sum(h(:)) in MATLAB's column-major order.
inline double sum_column_major(const Filter2D& f) {
    double s = 0;
    for (int64_t c = 0; c < f.cols; ++c)
        for (int64_t r = 0; r < f.rows; ++r) s += f.at(r, c);
    return s;
}

// The unnormalised Gaussian of fspecial on the grid x = -(n-1)/2 : (n-1)/2,
// with values below eps*max set to 0 and then divided by the sum.
inline Filter2D normalised_gaussian(int64_t rows, int64_t cols, double sigma) {
    Filter2D g = zeros(rows, cols);
    const double half_r = (static_cast<double>(rows) - 1) / 2;
    const double half_c = (static_cast<double>(cols) - 1) / 2;
    const double denom = 2 * sigma * sigma;
    double hmax = 0;
    for (int64_t r = 0; r < rows; ++r) {
        const double y = -half_r + static_cast<double>(r);
        for (int64_t c = 0; c < cols; ++c) {
            const double x = -half_c + static_cast<double>(c);
            const double v = std::exp(-(x * x + y * y) / denom);
            g.at(r, c) = v;
            hmax = std::max(hmax, v);
        }
    }
    for (double& v : g.h)
        if (v < kEps * hmax) v = 0;
    const double s = sum_column_major(g);
    if (s != 0)
        for (double& v : g.h) v /= s;
    return g;
}

// Integral of sqrt(r^2 - t^2) over [x1, x2] with 0 <= x1 <= x2 <= r. The
// difference of arcsines is taken as one arcsine, which keeps its accuracy
// for the short intervals of boundary pixels.
inline double arc_integral(double x1, double x2, double r) {
    if (x2 <= x1) return 0;
    const double a = x2 / r, b = x1 / r;
    const double sa = std::sqrt(std::max(0.0, 1 - a * a));
    const double sb = std::sqrt(std::max(0.0, 1 - b * b));
    const double dtheta = std::asin(std::clamp(a * sb - b * sa, -1.0, 1.0));
    return 0.5 * (x2 * r * sa - x1 * r * sb + r * r * dtheta);
}

// Area of {(x,y): a<=x<=b, c<=y<=d, x^2+y^2 <= r^2} for 0 <= a < b, 0 <= c < d.
inline double quadrant_rect_area(double a, double b, double c, double d, double r) {
    if (a >= r || c >= r) return 0;
    // y-extent of the disk at x is sqrt(r^2-x^2); it equals d at x_d and c at x_c.
    const double x_d = d < r ? std::sqrt(r * r - d * d) : 0.0;
    const double x_c = std::sqrt(r * r - c * c);
    double area = 0;
    // Full height (d - c) where the disk covers [c, d].
    const double full_end = std::min(b, x_d);
    if (full_end > a) area += (full_end - a) * (d - c);
    // Partial height sqrt(r^2-x^2) - c where the arc crosses the pixel.
    const double x1 = std::max(a, x_d), x2 = std::min(b, x_c);
    if (x2 > x1) area += arc_integral(x1, x2, r) - c * (x2 - x1);
    return area;
}

// Area of the overlap of the unit pixel centred at (cx, cy) (integers >= 0)
// with the disk of radius r centred at the origin.
inline double pixel_disk_area(int64_t cx, int64_t cy, double r) {
    // A pixel on an axis straddles it: two mirrored halves of width 0.5.
    const double xa = cx == 0 ? 0.0 : static_cast<double>(cx) - 0.5;
    const double xb = static_cast<double>(cx) + 0.5;
    const double ya = cy == 0 ? 0.0 : static_cast<double>(cy) - 0.5;
    const double yb = static_cast<double>(cy) + 0.5;
    const double mult = (cx == 0 ? 2.0 : 1.0) * (cy == 0 ? 2.0 : 1.0);
    return mult * quadrant_rect_area(xa, xb, ya, yb, r);
}

}  // namespace fspecial_detail

// fspecial('average', [m n]): ones(m,n)/(m*n).
inline Filter2D fspecial_average(int64_t rows, int64_t cols) {
    Filter2D f = fspecial_detail::zeros(rows, cols);
    const double v = 1.0 / static_cast<double>(rows * cols);
    for (double& x : f.h) x = v;
    return f;
}

// fspecial('gaussian', [m n], sigma).
inline Filter2D fspecial_gaussian(int64_t rows, int64_t cols, double sigma) {
    return fspecial_detail::normalised_gaussian(rows, cols, sigma);
}

// fspecial('log', [m n], sigma): Laplacian of the (cut, normalised) Gaussian,
// shifted to sum to zero.
inline Filter2D fspecial_log(int64_t rows, int64_t cols, double sigma) {
    Filter2D g = fspecial_detail::normalised_gaussian(rows, cols, sigma);
    const double std2 = sigma * sigma;
    const double half_r = (static_cast<double>(rows) - 1) / 2;
    const double half_c = (static_cast<double>(cols) - 1) / 2;
    Filter2D h1 = fspecial_detail::zeros(rows, cols);
    for (int64_t r = 0; r < rows; ++r) {
        const double y = -half_r + static_cast<double>(r);
        for (int64_t c = 0; c < cols; ++c) {
            const double x = -half_c + static_cast<double>(c);
            h1.at(r, c) = g.at(r, c) * (x * x + y * y - 2 * std2) / (std2 * std2);
        }
    }
    const double mean = fspecial_detail::sum_column_major(h1) / static_cast<double>(rows * cols);
    for (double& v : h1.h) v -= mean;
    return h1;
}

// fspecial('laplacian', alpha), alpha clamped to [0, 1].
inline Filter2D fspecial_laplacian(double alpha) {
    alpha = std::clamp(alpha, 0.0, 1.0);
    const double a = alpha / (alpha + 1);
    const double b = (1 - alpha) / (alpha + 1);
    const double c = -4 / (alpha + 1);
    Filter2D f = fspecial_detail::zeros(3, 3);
    f.h = {a, b, a, b, c, b, a, b, a};
    return f;
}

// fspecial('unsharp', alpha) = [0 0 0;0 1 0;0 0 0] - laplacian(alpha).
inline Filter2D fspecial_unsharp(double alpha) {
    Filter2D f = fspecial_laplacian(alpha);
    for (int64_t i = 0; i < 9; ++i) f.h[static_cast<size_t>(i)] = (i == 4 ? 1.0 : 0.0) - f.h[static_cast<size_t>(i)];
    return f;
}

// fspecial('sobel') and fspecial('prewitt'): horizontal-edge emphasis.
inline Filter2D fspecial_sobel() {
    Filter2D f = fspecial_detail::zeros(3, 3);
    f.h = {1, 2, 1, 0, 0, 0, -1, -2, -1};
    return f;
}
inline Filter2D fspecial_prewitt() {
    Filter2D f = fspecial_detail::zeros(3, 3);
    f.h = {1, 1, 1, 0, 0, 0, -1, -1, -1};
    return f;
}

// fspecial('disk', r), r > 0: each pixel of the (2*ceil(r-0.5)+1)^2 grid
// holds the area of its overlap with the disk of radius r (computed exactly,
// piecewise: full rows, then the arc integral), normalised to sum 1.
inline Filter2D fspecial_disk(double radius) {
    const int64_t crad = static_cast<int64_t>(std::ceil(radius - 0.5));
    const int64_t n = 2 * crad + 1;
    Filter2D f = fspecial_detail::zeros(n, n);
    for (int64_t r = 0; r < n; ++r)
        for (int64_t c = 0; c < n; ++c)
            f.at(r, c) = fspecial_detail::pixel_disk_area(std::llabs(c - crad), std::llabs(r - crad),
                                                          radius);
    const double s = fspecial_detail::sum_column_major(f);
    for (double& v : f.h) v /= s;
    return f;
}

// fspecial('motion', len, theta): MATLAB's line-distance construction. A
// half-grid from the centre towards the line's end holds, per pixel, the
// perpendicular distance to the line (or, beyond the end point, the distance
// to the end point); the weight is 1 + eps - distance, cut at 0. The half is
// mirrored through the centre, normalised by sum + eps*len^2 and flipped
// upside down when cos(theta) > 0 (row 1 is the top of the image).
inline Filter2D fspecial_motion(double len, double theta_deg) {
    using fspecial_detail::kEps;
    len = std::max(1.0, len);
    const double half = (len - 1) / 2;
    double th = std::fmod(theta_deg, 180.0);  // MATLAB mod: sign of the divisor
    if (th < 0) th += 180.0;
    const double phi = th / 180 * std::numbers::pi;
    const double cosphi = std::cos(phi), sinphi = std::sin(phi);
    const double xsign = cosphi > 0 ? 1.0 : (cosphi < 0 ? -1.0 : 0.0);
    const double linewdt = 1;
    const double sx = std::trunc(half * cosphi + linewdt * xsign - len * kEps);
    const double sy = std::trunc(half * sinphi + linewdt - len * kEps);
    // x = 0:xsign:sx, y = 0:sy (MATLAB colon; an empty range gives an empty grid)
    std::vector<double> xs, ys;
    if (xsign != 0)
        for (double x = 0; xsign > 0 ? x <= sx : x >= sx; x += xsign) xs.push_back(x);
    for (double y = 0; y <= sy; y += 1) ys.push_back(y);
    const int64_t hr = static_cast<int64_t>(ys.size()), hc = static_cast<int64_t>(xs.size());
    if (hr == 0 || hc == 0) return fspecial_detail::zeros(0, 0);
    Filter2D d = fspecial_detail::zeros(hr, hc);
    for (int64_t r = 0; r < hr; ++r) {
        for (int64_t c = 0; c < hc; ++c) {
            const double x = xs[static_cast<size_t>(c)], y = ys[static_cast<size_t>(r)];
            double dist = y * cosphi - x * sinphi;
            const double rad = std::sqrt(x * x + y * y);
            if (rad >= half && std::abs(dist) <= linewdt) {
                const double x2last = half - std::abs((x + dist * sinphi) / cosphi);
                dist = std::sqrt(dist * dist + x2last * x2last);
            }
            const double w = linewdt + kEps - std::abs(dist);
            d.at(r, c) = w < 0 ? 0 : w;
        }
    }
    // h = rot90(d,2), then d placed with its (1,1) on the centre.
    Filter2D h = fspecial_detail::zeros(2 * hr - 1, 2 * hc - 1);
    for (int64_t r = 0; r < hr; ++r)
        for (int64_t c = 0; c < hc; ++c) h.at(r, c) = d.at(hr - 1 - r, hc - 1 - c);
    for (int64_t r = 0; r < hr; ++r)
        for (int64_t c = 0; c < hc; ++c) h.at(hr - 1 + r, hc - 1 + c) = d.at(r, c);
    const double s = fspecial_detail::sum_column_major(h) + kEps * len * len;
    for (double& v : h.h) v /= s;
    if (cosphi > 0) {
        for (int64_t r = 0; r < h.rows / 2; ++r)
            for (int64_t c = 0; c < h.cols; ++c) std::swap(h.at(r, c), h.at(h.rows - 1 - r, c));
    }
    return h;
}

}  // namespace ipt::common
