// SPDX-License-Identifier: Apache-2.0
// The rank-1 test every backend applies to a filter before running it as a
// column pass then a row pass, written once so that all of them take the same
// route as the CPU reference (integer outputs must match it bit for bit):
// u = h(:, pc), v = h(pr, :) / h(pr, pc) at the first largest |h|, accepted
// when u * v^T reproduces every tap to within `rel_tol` relative (zeros
// exactly), i.e. where the separable path changes the result by no more than
// rounding. h is row-major, rows x cols.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace ipt::common {

struct Rank1 {
    bool ok = false;
    std::vector<double> u, v;  // u: rows, v: cols
};

inline Rank1 find_rank1(const double* h, int64_t rows, int64_t cols, double rel_tol) {
    Rank1 out;
    int64_t pr = 0, pc = 0;
    double best = 0;
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
            const double a = std::abs(h[i * cols + j]);
            if (!std::isfinite(a)) return out;
            if (a > best) best = a, pr = i, pc = j;
        }
    if (best == 0) return out;
    out.u.resize(static_cast<size_t>(rows));
    out.v.resize(static_cast<size_t>(cols));
    const double pivot = h[pr * cols + pc];
    for (int64_t i = 0; i < rows; ++i) out.u[static_cast<size_t>(i)] = h[i * cols + pc];
    for (int64_t j = 0; j < cols; ++j) out.v[static_cast<size_t>(j)] = h[pr * cols + j] / pivot;
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
            const double want = h[i * cols + j];
            const double got = out.u[static_cast<size_t>(i)] * out.v[static_cast<size_t>(j)];
            if (want == 0 ? got != 0 : std::abs(got - want) > rel_tol * std::abs(want)) return out;
        }
    out.ok = true;
    return out;
}

// The reference's route for filtering with h (row-major kr x kc, turned by
// 180 degrees when `turn`, for convolution): a column pass then a row pass
// when h has 12 taps or more, both sides at least 2, and is exactly rank 1
// (4 eps per tap); ok is false where the filter runs as one 2-D pass.
// The sizes for which the reference tries the two passes at all.
inline bool separable_candidate(int64_t kr, int64_t kc) { return kr >= 2 && kc >= 2 && kr * kc >= 12; }

template <class T>
Rank1 separable_route(const T* h, int64_t kr, int64_t kc, bool turn) {
    if (!separable_candidate(kr, kc)) return {};
    std::vector<double> taps(static_cast<size_t>(kr * kc));
    for (int64_t i = 0; i < kr; ++i)
        for (int64_t j = 0; j < kc; ++j) {
            const int64_t si = turn ? kr - 1 - i : i, sj = turn ? kc - 1 - j : j;
            taps[static_cast<size_t>(i * kc + j)] = static_cast<double>(h[si * kc + sj]);
        }
    return find_rank1(taps.data(), kr, kc, 4 * std::numeric_limits<double>::epsilon());
}

}  // namespace ipt::common
