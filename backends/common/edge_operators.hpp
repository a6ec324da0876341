// The gradient operators of edge's sobel, prewitt and roberts methods, built
// once for every backend: MATLAB's edge filters the image with op for the
// vertical gradient by and with op' for bx, where op is fspecial('sobel')/8,
// fspecial('prewitt')/6, or Roberts' [0 1; -1 0]/2 (bx: [1 0; 0 -1]/2), and
// takes the automatic cutoff as scale * mean(b), scale 4 (6 for roberts).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "fspecial_filters.hpp"
#include "ipt/ipt_plugin.h"

namespace ipt::common {

enum class GradientMethod { Sobel, Prewitt, Roberts };

struct GradientOperators {
    int64_t size = 0;       // the operators are size x size, row-major
    std::vector<double> x;  // correlation kernel of bx
    std::vector<double> y;  // correlation kernel of by
    double scale = 0;       // automatic cutoff = scale * mean(b)
};

inline GradientOperators gradient_operators(GradientMethod method) {
    GradientOperators g;
    if (method == GradientMethod::Roberts) {
        g.size = 2;
        g.x = {0.5, 0, 0, -0.5};  // [1 0; 0 -1]/2
        g.y = {0, 0.5, -0.5, 0};  // [0 1; -1 0]/2
        g.scale = 6;
        return g;
    }
    const Filter2D op = method == GradientMethod::Sobel ? fspecial_sobel() : fspecial_prewitt();
    const double div = method == GradientMethod::Sobel ? 8 : 6;
    g.size = 3;
    g.x.resize(9);
    g.y.resize(9);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
            g.y[r * 3 + c] = op.at(r, c) / div;
            g.x[c * 3 + r] = op.at(r, c) / div;  // op'
        }
    g.scale = 4;
    return g;
}

// The filter of edge's log method, fspecial('log', 2*ceil(3*sigma)+1, sigma),
// or zerocross's h (row-major, single or double), made to sum to zero as
// MATLAB's edge does: op - sum(op(:))/numel(op), the sum in column-major order.
inline Filter2D zero_crossing_operator(double sigma, const ipt_tensor* h) {
    Filter2D op;
    if (!h) {
        const int64_t size = static_cast<int64_t>(std::ceil(sigma * 3)) * 2 + 1;
        op = fspecial_log(size, size, sigma);
    } else {
        op.rows = h->rows;
        op.cols = h->cols;
        for (int64_t i = 0; i < op.rows * op.cols; ++i)
            op.h.push_back(h->dtype == IPT_SINGLE ? static_cast<double>(static_cast<const float*>(h->data)[i])
                                                  : static_cast<const double*>(h->data)[i]);
    }
    double sum = 0;
    for (int64_t c = 0; c < op.cols; ++c)
        for (int64_t r = 0; r < op.rows; ++r) sum += op.at(r, c);
    const double mean = sum / static_cast<double>(op.rows * op.cols);
    for (double& v : op.h) v -= mean;
    return op;
}

}  // namespace ipt::common
