// The gradient operators of edge's sobel, prewitt and roberts methods, built
// once for every backend: MATLAB's edge filters the image with op for the
// vertical gradient by and with op' for bx, where op is fspecial('sobel')/8,
// fspecial('prewitt')/6, or Roberts' [0 1; -1 0]/2 (bx: [1 0; 0 -1]/2), and
// takes the automatic cutoff as scale * mean(b), scale 4 (6 for roberts).
#pragma once

#include <cstdint>
#include <vector>

#include "fspecial.hpp"

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

}  // namespace ipt::common
