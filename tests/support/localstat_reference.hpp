// SPDX-License-Identifier: Apache-2.0
// Brute-force neighbourhood statistics for the tests of ipt.stdfilt,
// ipt.rangefilt and ipt.entropyfilt, written from MATLAB's definitions and
// independently of the library: each pixel's neighbourhood gathered from the
// image padded by mirroring (symmetric: ... b a | a b c | c b ...), then the
// statistic by its textbook formula.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <type_traits>
#include <vector>

#include "ipt_test.hpp"

namespace localstat_test {

// Elements as stored: logical as one byte 0/1.
template <class T>
using Elem = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;

template <class T>
ipt::Image upload(int64_t rows, int64_t cols, const std::vector<Elem<T>>& v, int64_t channels = 1) {
    return ipt_test::context().upload(ipt::dtype_of<T>(), rows, cols, v.data(), channels);
}

inline ipt::Image nhood(int64_t rows, int64_t cols, const std::vector<int>& v) {
    return ipt_test::logical(rows, cols, v);
}

// Mirror an index into [0, n) by reflecting at each edge as often as needed.
inline int64_t mirror(int64_t i, int64_t n) {
    while (i < 0 || i >= n) i = i < 0 ? -i - 1 : 2 * n - 1 - i;
    return i;
}

// The values of the neighbourhood of (r, c) in one plane: nhood cells
// (i, j) set, centre floor((size+1)/2) (1-based), symmetric padding.
template <class V>
std::vector<V> window(const std::vector<V>& plane, int64_t rows, int64_t cols, int64_t r, int64_t c,
                      int64_t nr, int64_t nc, const std::vector<int>& mask) {
    std::vector<V> out;
    const int64_t orow = (nr + 1) / 2 - 1, ocol = (nc + 1) / 2 - 1;
    for (int64_t i = 0; i < nr; ++i)
        for (int64_t j = 0; j < nc; ++j)
            if (mask[i * nc + j])
                out.push_back(plane[mirror(r + i - orow, rows) * cols + mirror(c + j - ocol, cols)]);
    return out;
}

template <class T>
std::vector<Elem<T>> random_values(size_t n, std::mt19937& rng, bool small_range = false) {
    std::vector<Elem<T>> v(n);
    for (auto& x : v) {
        if constexpr (std::is_same_v<T, bool>)
            x = static_cast<uint8_t>(rng() & 1);
        else if constexpr (std::is_floating_point_v<T>)
            x = static_cast<T>(std::uniform_real_distribution<double>(small_range ? 0 : -2, small_range ? 1 : 2)(rng));
        else if (small_range)
            x = static_cast<T>(rng() % 7);
        else
            x = static_cast<T>(rng());
    }
    return v;
}

}  // namespace localstat_test
