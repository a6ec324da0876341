// SPDX-License-Identifier: Apache-2.0
// Upright integral image of a (possibly padded) plane, shared by
// integralImage and imboxfilt: J is (pm+1) x (pn+1) doubles with a zero first
// row and column, J(r+1, c+1) = sum of P(0..r, 0..c), formed as MATLAB's
// cumsum(cumsum(P, 1), 2): running sums down each column, then running sums
// of those along each row (docs/matlab-semantics.md#integralimage).
// P(r, c) = A(border(r - top), border(c - left)), or `pad` where the border
// rule gives the constant.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "padding.hpp"
#include "parallel.hpp"

namespace ipt::cpu {

template <class T>
void integral_image(const T* A, int64_t m, int64_t n, Border border, double pad, int64_t top, int64_t left,
                    int64_t pm, int64_t pn, double* J) {
    const int64_t stride = pn + 1;
    std::fill(J, J + stride, 0.0);
    if (pm == 0) return;
    std::vector<int64_t> colmap(static_cast<size_t>(pn));
    for (int64_t c = 0; c < pn; ++c) colmap[static_cast<size_t>(c)] = border_index(border, c - left, n);
    // Column sums, a block of columns per task (rows in order inside it).
    constexpr int64_t kCols = 256;
    parallel_for(0, (pn + kCols - 1) / kCols, [&](int64_t b) {
        const int64_t c0 = b * kCols, c1 = std::min(pn, c0 + kCols);
        for (int64_t r = 0; r < pm; ++r) {
            const int64_t ar = border_index(border, r - top, m);
            double* out = J + (r + 1) * stride + 1;
            const double* above = J + r * stride + 1;
            for (int64_t c = c0; c < c1; ++c) {
                const int64_t ac = colmap[static_cast<size_t>(c)];
                const double v = (ar < 0 || ac < 0) ? pad : static_cast<double>(A[ar * n + ac]);
                out[c] = above[c] + v;
            }
        }
    });
    // Row sums of the column sums.
    parallel_for(1, pm + 1, [&](int64_t r) {
        double* row = J + r * stride;
        row[0] = 0;
        for (int64_t c = 1; c <= pn; ++c) row[c] = row[c - 1] + row[c];
    }, 16);
}

}  // namespace ipt::cpu
