// SPDX-License-Identifier: Apache-2.0
// ipt.imboxfilt's front-end: B = imboxfilt(A, filterSize, 'Padding', p,
// 'NormalizationFactor', f) (docs/matlab-semantics.md#imboxfilt), as
// MATLAB's integral-image route computes it: A padded in its own class by
// (filterSize-1)/2 on each side (the constant converted to A's class, as
// padarray does), the upright integral image J of the padded image
// (ops/integralimage.hpp: double, cumsum(cumsum(P, 1), 2)), then per output
//   B(r, c) = ((J(r+fr, c+fc) - J(r, c+fc)) - J(r+fr, c) + J(r, c)) * f
// (0-based, J with its zero first row and column), converted once to A's
// class (integers rounded half away from zero and saturated).
#pragma once

#include <cmath>
#include <cstdint>

#include "imfilter.hpp"
#include "ipt/ipt_plugin.hpp"

#if defined(__CUDACC__)
#define IPT_BOX_FN __host__ __device__ inline
#else
#define IPT_BOX_FN inline
#endif

namespace ipt::frontend {

struct ImboxfiltPlan {
    const ipt_tensor* A = nullptr;
    int64_t rows = 0, cols = 0, channels = 1;
    int32_t out_class = IPT_DOUBLE;
    int64_t fr = 3, fc = 3;           // filter size [rows cols]
    ImfilterBoundary boundary = ImfilterBoundary::Replicate;
    double pad_value = 0;             // in A's class
    double norm = 1.0 / 9;            // NormalizationFactor
    int64_t top = 1, left = 1;        // padding before the first row and column
    // The padded image and its integral image (one zero row and column more).
    int64_t padded_rows = 0, padded_cols = 0;
};

inline ImboxfiltPlan plan_imboxfilt(const ipt::plugin::KernelArgs& args) {
    ImboxfiltPlan p;
    p.A = args.image("A");
    p.rows = p.A->rows;
    p.cols = p.A->cols;
    p.channels = p.A->channels;
    p.out_class = p.A->dtype;
    if (args.present("filterSize")) {
        const double* n = args.floats("filterSize");
        const double nr = n[0], nc = args.count("filterSize") > 1 ? n[1] : n[0];
        if (std::fmod(nr, 2) != 1 || std::fmod(nc, 2) != 1)
            ipt::plugin::invalid("ipt.imboxfilt: parameter 'filterSize' must hold odd positive integers");
        p.fr = static_cast<int64_t>(nr);
        p.fc = static_cast<int64_t>(nc);
    }
    p.boundary = args.is("Padding", "symmetric")  ? ImfilterBoundary::Symmetric
                 : args.is("Padding", "circular") ? ImfilterBoundary::Circular
                 : args.is("Padding", "constant") ? ImfilterBoundary::Constant
                                                  : ImfilterBoundary::Replicate;
    p.pad_value = value_in_class(args.number("X"), p.out_class);
    p.norm = args.present("NormalizationFactor") ? args.number("NormalizationFactor")
                                                 : 1.0 / static_cast<double>(p.fr * p.fc);
    p.top = (p.fr - 1) / 2;
    p.left = (p.fc - 1) / 2;
    p.padded_rows = p.rows + p.fr - 1;
    p.padded_cols = p.cols + p.fc - 1;
    return p;
}

// One output from the four corners of its window in J (a row of J holds
// padded_cols + 1 values): the sum of the window, then the factor.
template <class Index>
IPT_BOX_FN double box_value(const double* J, Index stride, Index r, Index c, Index fr, Index fc, double norm) {
    const double s = ((J[(r + fr) * stride + c + fc] - J[r * stride + c + fc]) - J[(r + fr) * stride + c]) +
                     J[r * stride + c];
    return s * norm;
}

}  // namespace ipt::frontend
