// SPDX-License-Identifier: Apache-2.0
// ipt.imgaussfilt's front-end: B = imgaussfilt(A, sigma, 'FilterSize', n,
// 'Padding', p, 'FilterDomain', d) turned into one of MATLAB's two spatial
// routes (docs/matlab-semantics.md#imgaussfilt).
//
// sigma is [sr sc] (a scalar for both); FilterSize defaults to
// 2*ceil(2*sigma)+1 per dimension and must be odd. The taps are MATLAB's:
// exp(-x^2/(2 sigma^2)) on -r..r, taps below eps*max set to 0, divided by
// their sum (column-major). MATLAB then takes one of two routes:
//  - Direct: imfilter(A, h, padding, 'conv', 'same') with the 2-D kernel h,
//    when a side of the filter is 1 or it has fewer than 49 taps (double A)
//    or 289 taps (every other class). imfilter's rules apply: the constant
//    is converted to A's class and integer sums are rounded once.
//  - Separable: A converted to single (8- and 16-bit classes) or double
//    (32-bit), padded once (the constant in that class), conv2(hcol, hrow,
//    padded, 'valid'): a column pass then a row pass in that class, rounded
//    to A's class at the end.
// FilterDomain selects nothing: the result is always computed spatially
// ('frequency' is the same filter up to rounding).
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "ipt/ipt_plugin.hpp"
#include "imfilter.hpp"

namespace ipt::frontend {

struct ImgaussfiltPlan {
    const ipt_tensor* A = nullptr;
    int64_t rows = 0, cols = 0, channels = 1;
    int32_t out_class = IPT_DOUBLE;
    double sigma[2] = {0.5, 0.5};
    int64_t kr = 3, kc = 3;            // filter size [rows cols]
    ImfilterBoundary boundary = ImfilterBoundary::Replicate;
    bool separable = false;            // MATLAB's separable route
    // Direct route: the 2-D kernel (row-major, kr x kc, symmetric so
    // correlation equals convolution) and the constant in A's class.
    std::vector<double> h;
    // Separable route: column taps (kr) and row taps (kc); the working class
    // (single or double) and the constant in it.
    std::vector<double> hcol, hrow;
    int32_t work_class = IPT_DOUBLE;
    double pad_value = 0;              // in A's class (direct) or the working class (separable)
    int64_t top = 1, left = 1;         // kernel centre, 0-based
};

// MATLAB's 1-D Gaussian taps of an odd size n.
inline std::vector<double> gaussian_taps(double sigma, int64_t n) {
    const int64_t r = (n - 1) / 2;
    std::vector<double> h(static_cast<size_t>(n));
    double mx = 0;
    for (int64_t i = 0; i < n; ++i) {
        const double x = static_cast<double>(i - r);
        h[static_cast<size_t>(i)] = std::exp(-((x * x) / (sigma * sigma)) / 2);
        mx = std::max(mx, h[static_cast<size_t>(i)]);
    }
    double sum = 0;
    for (double& v : h) {
        if (v < DBL_EPSILON * mx) v = 0;
        sum += v;
    }
    if (sum != 0)
        for (double& v : h) v /= sum;
    return h;
}

// MATLAB's 2-D Gaussian kernel, kr x kc row-major: sigma[0] along rows,
// sigma[1] along columns, summed column by column for the normalisation.
inline std::vector<double> gaussian_kernel_2d(const double sigma[2], int64_t kr, int64_t kc) {
    const int64_t rr = (kr - 1) / 2, rc = (kc - 1) / 2;
    std::vector<double> h(static_cast<size_t>(kr * kc));
    double mx = 0;
    for (int64_t i = 0; i < kr; ++i)
        for (int64_t j = 0; j < kc; ++j) {
            const double y = static_cast<double>(i - rr), x = static_cast<double>(j - rc);
            const double arg = (x * x) / (sigma[1] * sigma[1]) + (y * y) / (sigma[0] * sigma[0]);
            const double v = std::exp(-arg / 2);
            h[static_cast<size_t>(i * kc + j)] = v;
            mx = std::max(mx, v);
        }
    double sum = 0;
    for (int64_t j = 0; j < kc; ++j)
        for (int64_t i = 0; i < kr; ++i) {
            double& v = h[static_cast<size_t>(i * kc + j)];
            if (v < DBL_EPSILON * mx) v = 0;
            sum += v;
        }
    if (sum != 0)
        for (double& v : h) v /= sum;
    return h;
}

// MATLAB's choice of route (getSeparableFilterThreshold).
inline bool imgaussfilt_separable(int32_t dtype, int64_t kr, int64_t kc) {
    if (kr == 1 || kc == 1) return false;
    return kr * kc >= (dtype == IPT_DOUBLE ? 49 : 289);
}

inline ImgaussfiltPlan plan_imgaussfilt(const ipt::plugin::KernelArgs& args) {
    ImgaussfiltPlan p;
    p.A = args.image("A");
    p.rows = p.A->rows;
    p.cols = p.A->cols;
    p.channels = p.A->channels;
    p.out_class = p.A->dtype;
    if (args.present("sigma")) {
        const double* s = args.floats("sigma");
        p.sigma[0] = s[0];
        p.sigma[1] = args.count("sigma") > 1 ? s[1] : s[0];
    }
    if (args.present("FilterSize")) {
        const double* n = args.floats("FilterSize");
        const double nr = n[0], nc = args.count("FilterSize") > 1 ? n[1] : n[0];
        if (std::fmod(nr, 2) != 1 || std::fmod(nc, 2) != 1)
            ipt::plugin::invalid("ipt.imgaussfilt: parameter 'FilterSize' must hold odd positive integers");
        p.kr = static_cast<int64_t>(nr);
        p.kc = static_cast<int64_t>(nc);
    } else {
        p.kr = 2 * static_cast<int64_t>(std::ceil(2 * p.sigma[0])) + 1;
        p.kc = 2 * static_cast<int64_t>(std::ceil(2 * p.sigma[1])) + 1;
        if (p.kr > 4097 || p.kc > 4097)
            ipt::plugin::invalid("ipt.imgaussfilt: parameter 'sigma' gives a filter over 4097 taps a side");
    }
    p.boundary = args.is("Padding", "symmetric")  ? ImfilterBoundary::Symmetric
                 : args.is("Padding", "circular") ? ImfilterBoundary::Circular
                 : args.is("Padding", "constant") ? ImfilterBoundary::Constant
                                                  : ImfilterBoundary::Replicate;
    p.top = imfilter_origin(p.kr);
    p.left = imfilter_origin(p.kc);
    p.separable = imgaussfilt_separable(p.out_class, p.kr, p.kc);
    const double X = args.number("X");
    if (p.separable) {
        p.work_class = (p.out_class == IPT_DOUBLE || p.out_class == IPT_INT32 || p.out_class == IPT_UINT32)
                           ? IPT_DOUBLE
                           : IPT_SINGLE;
        p.pad_value = value_in_class(X, p.work_class);
        p.hcol = gaussian_taps(p.sigma[0], p.kr);
        p.hrow = p.sigma[0] == p.sigma[1] && p.kr == p.kc ? p.hcol : gaussian_taps(p.sigma[1], p.kc);
    } else {
        p.work_class = p.out_class == IPT_SINGLE ? IPT_SINGLE : IPT_DOUBLE;
        p.pad_value = value_in_class(X, p.out_class);
        p.h = gaussian_kernel_2d(p.sigma, p.kr, p.kc);
    }
    return p;
}

// Sizes and class alone (for the registry's output check).
inline ImgaussfiltPlan plan_imgaussfilt_output(const ipt::plugin::KernelArgs& args) {
    ImgaussfiltPlan p;
    p.A = args.image("A");
    p.rows = p.A->rows;
    p.cols = p.A->cols;
    p.channels = p.A->channels;
    p.out_class = p.A->dtype;
    return p;
}

}  // namespace ipt::frontend
