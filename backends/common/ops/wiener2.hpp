// SPDX-License-Identifier: Apache-2.0
// ipt.wiener2's front-end: [J, noise] = wiener2(I, [m n], noise)
// (docs/matlab-semantics.md#wiener2), as wiener2.m computes it. I is taken to
// double by im2double (g); over the m x n window that filter2(ones([m n]), .)
// centres on each pixel, zero outside I (rows from r - (m-1)/2, columns from
// c - (n-1)/2, integer halves):
//   mu  = sum(g) / (m*n)
//   var = sum(g.^2) / (m*n) - mu.^2
//   noise = mean2(var) unless given
//   f = ((g - mu) ./ max(var, noise)) .* max(var - noise, 0) + mu
// with MATLAB's max, which ignores a NaN operand; f goes back to I's class as
// MATLAB's class change does (integers round(top * f), saturated).
//
// Every backend runs the same operations in the same order so that integer
// outputs agree bit for bit: the window is summed row by row, left to
// right, each product rounded on its own (no fused multiply-add); the noise
// is the sum over columns, in order, of each column's variances summed top to
// bottom, divided once by numel(I).
#pragma once

#include <cstdint>

#include "../class_scaling.hpp"
#include "ipt/ipt_plugin.hpp"

#if defined(__CUDACC__)
#define IPT_WIENER_FN __host__ __device__ inline
#else
#define IPT_WIENER_FN inline
#endif

namespace ipt::frontend {

struct Wiener2Plan {
    const ipt_tensor* I = nullptr;
    int32_t dtype = IPT_DOUBLE;  // of I and J
    int64_t rows = 0, cols = 0;
    int64_t m = 3, n = 3;        // window [rows cols]
    int64_t top = 1, left = 1;   // window rows before and columns left of the centre
    double count = 9;            // m * n, the divisor
    bool noise_given = false;
    double noise = 0;            // when given
};

inline Wiener2Plan plan_wiener2(const ipt::plugin::KernelArgs& args) {
    Wiener2Plan p;
    p.I = args.image("I");
    p.dtype = p.I->dtype;
    p.rows = p.I->rows;
    p.cols = p.I->cols;
    const double* s = args.floats("size");
    p.m = static_cast<int64_t>(s[0]);
    p.n = static_cast<int64_t>(s[1]);
    p.top = (p.m - 1) / 2;
    p.left = (p.n - 1) / 2;
    p.count = static_cast<double>(p.m * p.n);
    p.noise_given = args.present("noise");
    if (p.noise_given) p.noise = args.number("noise");
    return p;
}

// MATLAB's max(a, b) of two doubles: a NaN operand is ignored.
IPT_WIENER_FN double wiener2_max(double a, double b) {
    if (a != a) return b;
    if (b != b) return a;
    return a < b ? b : a;
}

// Local mean and variance of pixel (r, c) of plane g (rows x cols, T of I's
// class), each value taken to double by im2double.
template <class T>
IPT_WIENER_FN void wiener2_local(const T* g, int64_t rows, int64_t cols, int64_t r, int64_t c,
                                 const Wiener2Plan& p, double& mu, double& var) {
    double s1 = 0, s2 = 0;
    for (int64_t i = 0; i < p.m; ++i) {
        const int64_t y = r - p.top + i;
        if (y < 0 || y >= rows) continue;
        for (int64_t j = 0; j < p.n; ++j) {
            const int64_t x = c - p.left + j;
            if (x < 0 || x >= cols) continue;
            const double v = ipt::common::to_unit_scale<double>(g[y * cols + x]);
            s1 = s1 + v;
            s2 = s2 + ipt::common::product_rn(v, v);
        }
    }
    mu = s1 / p.count;
    var = s2 / p.count - ipt::common::product_rn(mu, mu);
}

// The filtered value of pixel value v (double) from its local statistics.
IPT_WIENER_FN double wiener2_value(double v, double mu, double var, double noise) {
    const double f = (v - mu) / wiener2_max(var, noise);
    return ipt::common::product_rn(f, wiener2_max(var - noise, 0.0)) + mu;
}

}  // namespace ipt::frontend
