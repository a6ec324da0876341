// SPDX-License-Identifier: Apache-2.0
// An independent resampler for the imrotate, imtranslate and imwarp suites,
// written from MATLAB's description of imwarp: each output pixel's world
// centre (xmin + (j - 0.5) * dx, ymin + (i - 0.5) * dy) is taken back
// through the inverse transform and the image is interpolated there
// (nearest, bilinear, or Keys' bicubic with a = -0.5). With smooth edges
// (imrotate, imtranslate, imwarp's SmoothEdges) A is padded by two pixels of
// the fill value on every side first and a point outside the padded image
// is the fill value; with sharp edges (imwarp's default) a point outside
// A's pixel centres is the fill value, and bicubic reads interp2's grid:
// one row above and below extrapolated as 3 v1 - 3 v2 + v3, then one column
// on either side of those rows alike.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace warp_reference {

struct Planes {
    int64_t rows = 0, cols = 0, channels = 1;
    std::vector<double> v;  // row-major planes
};

using Inverse = std::function<void(double x, double y, double* u, double* v)>;

inline double keys(double s) {
    const double a = std::fabs(s);
    if (a <= 1) return 1.5 * std::pow(a, 3.0) - 2.5 * a * a + 1;
    if (a <= 2) return -0.5 * std::pow(a, 3.0) + 2.5 * a * a - 4 * a + 2;
    return 0;
}

// ref: [numrows numcols xmin xmax ymin ymax] of the output.
// The output planes of the grid ref for A's planes.
inline Planes output_planes(const Planes& a, const double* ref) {
    Planes out;
    out.rows = static_cast<int64_t>(ref[0]);
    out.cols = static_cast<int64_t>(ref[1]);
    out.channels = a.channels;
    out.v.resize(static_cast<size_t>(out.rows * out.cols * a.channels));
    return out;
}

// The sharp rule's grid: A with one extrapolated row and column on each
// side (lines of 3 or more; shorter lines repeat their end), 1-based.
inline std::vector<double> extended(const std::vector<double>& plane, int64_t rows, int64_t cols) {
    const int64_t er = rows + 2, ec = cols + 2;
    std::vector<double> e(static_cast<size_t>(er * ec), 0);
    auto E = [&](int64_t r, int64_t c) -> double& { return e[static_cast<size_t>(r * ec + c)]; };
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) E(r + 1, c + 1) = plane[static_cast<size_t>(r * cols + c)];
    for (int64_t c = 1; c <= cols; ++c) {
        E(0, c) = rows >= 3 ? 3 * E(1, c) - 3 * E(2, c) + E(3, c) : E(1, c);
        E(rows + 1, c) = rows >= 3 ? 3 * E(rows, c) - 3 * E(rows - 1, c) + E(rows - 2, c) : E(rows, c);
    }
    for (int64_t r = 0; r < er; ++r) {
        E(r, 0) = cols >= 3 ? 3 * E(r, 1) - 3 * E(r, 2) + E(r, 3) : E(r, 1);
        E(r, cols + 1) = cols >= 3 ? 3 * E(r, cols) - 3 * E(r, cols - 1) + E(r, cols - 2) : E(r, cols);
    }
    return e;
}

inline Planes warp_sharp(const Planes& a, const double* ref, const Inverse& inverse, const std::string& method,
                         const std::vector<double>& fill) {
    Planes out = output_planes(a, ref);
    const double dx = (ref[3] - ref[2]) / ref[1], dy = (ref[5] - ref[4]) / ref[0];
    const int64_t ec = a.cols + 2;
    for (int64_t ch = 0; ch < a.channels; ++ch) {
        const double f = fill[fill.size() == 1 ? 0 : ch];
        const std::vector<double> plane(a.v.begin() + ch * a.rows * a.cols, a.v.begin() + (ch + 1) * a.rows * a.cols);
        const std::vector<double> e = extended(plane, a.rows, a.cols);
        // 1-based pixel (r, c) of A, clamped into the extended grid.
        auto at = [&](int64_t r, int64_t c) {
            r = std::clamp<int64_t>(r, 0, a.rows + 1);
            c = std::clamp<int64_t>(c, 0, a.cols + 1);
            return e[static_cast<size_t>(r * ec + c)];
        };
        auto clamped = [&](int64_t r, int64_t c) {
            return at(std::clamp<int64_t>(r, 1, a.rows), std::clamp<int64_t>(c, 1, a.cols));
        };
        for (int64_t i = 1; i <= out.rows; ++i)
            for (int64_t j = 1; j <= out.cols; ++j) {
                double x, y;
                inverse(ref[2] + (j - 0.5) * dx, ref[4] + (i - 0.5) * dy, &x, &y);
                double s = f;
                if (x >= 1 && x <= a.cols && y >= 1 && y <= a.rows) {
                    const int64_t x0 = static_cast<int64_t>(std::floor(x)), y0 = static_cast<int64_t>(std::floor(y));
                    if (method == "nearest") {
                        s = at(std::llround(y), std::llround(x));
                    } else if (method == "bilinear" || method == "linear") {
                        const double fx = x - x0, fy = y - y0;
                        s = (1 - fy) * ((1 - fx) * clamped(y0, x0) + fx * clamped(y0, x0 + 1)) +
                            fy * ((1 - fx) * clamped(y0 + 1, x0) + fx * clamped(y0 + 1, x0 + 1));
                    } else {
                        s = 0;
                        for (int64_t r = y0 - 1; r <= y0 + 2; ++r)
                            for (int64_t c = x0 - 1; c <= x0 + 2; ++c) s += keys(y - r) * keys(x - c) * at(r, c);
                    }
                }
                out.v[static_cast<size_t>((ch * out.rows + i - 1) * out.cols + j - 1)] = s;
            }
    }
    return out;
}

inline Planes warp(const Planes& a, const double* ref, const Inverse& inverse, const std::string& method,
                   const std::vector<double>& fill, bool smooth_edges = true) {
    if (!smooth_edges) return warp_sharp(a, ref, inverse, method, fill);
    const int64_t pr = a.rows + 4, pc = a.cols + 4;
    Planes out = output_planes(a, ref);
    const double dx = (ref[3] - ref[2]) / ref[1], dy = (ref[5] - ref[4]) / ref[0];
    for (int64_t ch = 0; ch < a.channels; ++ch) {
        const double f = fill[fill.size() == 1 ? 0 : ch];
        std::vector<double> p(static_cast<size_t>(pr * pc), f);
        for (int64_t r = 0; r < a.rows; ++r)
            for (int64_t c = 0; c < a.cols; ++c) p[(r + 2) * pc + c + 2] = a.v[(ch * a.rows + r) * a.cols + c];
        auto at = [&](int64_t r, int64_t c) {  // 1-based in the padded image, clamped
            r = std::clamp<int64_t>(r, 1, pr);
            c = std::clamp<int64_t>(c, 1, pc);
            return p[(r - 1) * pc + (c - 1)];
        };
        for (int64_t i = 1; i <= out.rows; ++i)
            for (int64_t j = 1; j <= out.cols; ++j) {
                double u, v;
                inverse(ref[2] + (j - 0.5) * dx, ref[4] + (i - 0.5) * dy, &u, &v);
                const double x = u + 2, y = v + 2;  // in the padded image
                double s = f;
                if (x >= 1 && x <= pc && y >= 1 && y <= pr) {
                    if (method == "nearest") {
                        s = at(std::llround(y), std::llround(x));
                    } else if (method == "bilinear" || method == "linear") {
                        const int64_t x0 = static_cast<int64_t>(std::floor(x)), y0 = static_cast<int64_t>(std::floor(y));
                        const double fx = x - x0, fy = y - y0;
                        s = (1 - fy) * ((1 - fx) * at(y0, x0) + fx * at(y0, x0 + 1)) +
                            fy * ((1 - fx) * at(y0 + 1, x0) + fx * at(y0 + 1, x0 + 1));
                    } else {
                        const int64_t x0 = static_cast<int64_t>(std::floor(x)), y0 = static_cast<int64_t>(std::floor(y));
                        s = 0;
                        for (int64_t r = y0 - 1; r <= y0 + 2; ++r)
                            for (int64_t c = x0 - 1; c <= x0 + 2; ++c) s += keys(y - r) * keys(x - c) * at(r, c);
                    }
                }
                out.v[(ch * out.rows + i - 1) * out.cols + j - 1] = s;
            }
    }
    return out;
}

// A random rows x cols x channels image of class T with values in [lo, hi]
// (whole numbers for integer classes): *values for the library, the same
// values as doubles in the returned planes.
template <class T>
Planes random_planes(int64_t rows, int64_t cols, int64_t channels, double lo, double hi, unsigned seed,
                     std::vector<T>* values) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    Planes a;
    a.rows = rows;
    a.cols = cols;
    a.channels = channels;
    for (int64_t k = 0; k < rows * cols * channels; ++k) {
        const T v = static_cast<T>(std::is_floating_point_v<T> ? u(rng) : std::round(u(rng)));
        values->push_back(v);
        a.v.push_back(static_cast<double>(v));
    }
    return a;
}

// What an output of class T holds for the reference's value w: w itself for
// floating classes, rounded and saturated for integer classes.
template <class T>
double in_class(double w) {
    if constexpr (std::is_floating_point_v<T>) return w;
    else return std::clamp(std::round(w), double(std::numeric_limits<T>::lowest()),
                           double(std::numeric_limits<T>::max()));
}

}  // namespace warp_reference
