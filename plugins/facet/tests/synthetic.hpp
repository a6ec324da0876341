// SPDX-License-Identifier: Apache-2.0
// Synthetic test images in the manner of the paper's S1 and S2: step edges
// and four intersecting roof edges (a pyramid), then vertical stroke noise
// (S1) and impulse noise on top of it (S2). Values stay in [0, 1].
// Deterministic: a fixed-seed Mersenne twister, converted by hand so every
// standard library gives the same images.
#ifndef FACET_TESTS_SYNTHETIC_HPP
#define FACET_TESTS_SYNTHETIC_HPP

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace facet_test {

struct Image {
    int rows = 0, cols = 0;
    std::vector<double> v;
    double& at(int r, int c) { return v[static_cast<size_t>(r) * cols + c]; }
    double at(int r, int c) const { return v[static_cast<size_t>(r) * cols + c]; }
};

class Random {
public:
    explicit Random(uint32_t seed) : g_(seed) {}
    double uniform() { return static_cast<double>(g_()) / 4294967296.0; }  // [0, 1)
    int below(int n) { return static_cast<int>(uniform() * n); }

private:
    std::mt19937 g_;
};

// Where the clean image's features are, for the tests.
struct Layout {
    int rows, cols;
    int step_col;       // vertical step edge: columns < step_col are dark, the rest mid (rows < band_row)
    int band_row;       // horizontal step edge between the upper and the lower half
    int apex_r, apex_c; // pyramid apex; its four roof edges are the diagonals
    int half_width;     // pyramid half-width
};

inline Layout layout_for(int size) {
    Layout l;
    l.rows = l.cols = size;
    l.step_col = size / 4;
    l.band_row = size / 2;
    l.apex_r = size / 4;
    l.apex_c = (3 * size) / 4;
    l.half_width = size / 5;
    return l;
}

// Upper left: a vertical step edge (0.2 | 0.5). Upper right: a pyramid
// rising from 0.3 to 0.8 (four roof edges meet at the apex). Lower half: a
// bright square (0.75) on 0.35, giving four step edges and corners.
inline Image clean_image(const Layout& l) {
    Image im{l.rows, l.cols, std::vector<double>(static_cast<size_t>(l.rows) * l.cols)};
    for (int r = 0; r < l.rows; ++r)
        for (int c = 0; c < l.cols; ++c) {
            double v;
            if (r < l.band_row) {
                v = c < l.step_col ? 0.2 : 0.5;
                const int d = std::max(std::abs(r - l.apex_r), std::abs(c - l.apex_c));
                if (d <= l.half_width) v = 0.8 - 0.5 * d / l.half_width;
            } else {
                const int q0 = l.band_row + l.rows / 8, q1 = l.rows - l.rows / 8;
                const bool inside = r >= q0 && r < q1 && c >= l.cols / 8 && c < l.cols / 2;
                v = inside ? 0.75 : 0.35;
            }
            im.at(r, c) = v;
        }
    return im;
}

// Vertical strokes: segments one pixel wide and 2..4 pixels long, shifted by
// +-0.25, covering about `density` of the pixels.
inline Image add_vertical_strokes(Image im, double density, uint32_t seed, std::vector<uint8_t>* mask = nullptr) {
    Random rnd(seed);
    if (mask) mask->assign(im.v.size(), 0);
    const int strokes = static_cast<int>(density * im.rows * im.cols / 3.0);
    for (int s = 0; s < strokes; ++s) {
        const int len = 2 + rnd.below(3);
        const int r0 = rnd.below(im.rows - len + 1), c = rnd.below(im.cols);
        const double shift = rnd.uniform() < 0.5 ? -0.25 : 0.25;
        for (int r = r0; r < r0 + len; ++r) {
            im.at(r, c) = std::clamp(im.at(r, c) + shift, 0.0, 1.0);
            if (mask) (*mask)[static_cast<size_t>(r) * im.cols + c] = 1;
        }
    }
    return im;
}

// Salt and pepper: `density` of the pixels set to 0 or 1.
inline Image add_impulses(Image im, double density, uint32_t seed, std::vector<uint8_t>* mask = nullptr) {
    Random rnd(seed);
    if (mask) mask->assign(im.v.size(), 0);
    for (size_t i = 0; i < im.v.size(); ++i)
        if (rnd.uniform() < density) {
            im.v[i] = rnd.uniform() < 0.5 ? 0.0 : 1.0;
            if (mask) (*mask)[i] = 1;
        }
    return im;
}

// The paper's two noisy images.
inline Image s1_image(const Layout& l) { return add_vertical_strokes(clean_image(l), 0.03, 11); }
inline Image s2_image(const Layout& l) { return add_impulses(s1_image(l), 0.05, 12); }

// For timing: smooth shading with fine noise and 5% impulses, so that almost
// every window tries all four degrees (the piecewise-constant S1/S2 mostly
// stop at degree 0, where the median fits exactly). Like a natural photo,
// it is the expensive case.
inline Image textured_image(int rows, int cols, uint32_t seed = 13) {
    Random rnd(seed);
    Image im{rows, cols, std::vector<double>(static_cast<size_t>(rows) * cols)};
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            im.at(r, c) = 0.5 + 0.3 * std::sin(r / 7.0) * std::cos(c / 11.0) + 0.02 * (rnd.uniform() - 0.5);
    return add_impulses(im, 0.05, seed + 1);
}

}  // namespace facet_test

#endif  // FACET_TESTS_SYNTHETIC_HPP
