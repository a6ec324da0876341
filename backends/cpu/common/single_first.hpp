// SPDX-License-Identifier: Apache-2.0
// Filters of integer images whose MATLAB result is a double sum rounded to
// the class (imfilter; imgaussfilt, which calls it): the values of uint8,
// uint16, int16 and logical images are exact in single, so the sums run in
// single (twice the vector width of double, half the memory traffic) and an
// output is recomputed in double only where the single sum might round
// otherwise than the double sum: within `margin` of a half-integer (of 0 for
// logical). Every other output rounds as the double sum does.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "convert.hpp"
#include "correlate.hpp"

namespace ipt::cpu {

template <class T>
constexpr bool kSingleFirst = std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> ||
                              std::is_same_v<T, int16_t> || std::is_same_v<T, bool>;

// The largest magnitude of the class.
template <class T>
constexpr double class_magnitude() {
    if constexpr (std::is_same_v<T, bool>) return 1;
    else return std::max(-static_cast<double>(std::numeric_limits<T>::lowest()),
                         static_cast<double>(std::numeric_limits<T>::max()));
}

// The distance between the single and the double results of a kr x kc
// filter whose inputs are at most `magnitude` and whose taps sum to
// `abs_sum` in magnitude: 2 (kr + kc + 4) 2^-24 magnitude abs_sum covers the
// single sums (the taps rounded to single, a separable split included) with
// a factor 2 to spare, plus 2^-40 of the same for the double sum.
inline float single_first_margin(double magnitude, double abs_sum, int64_t kr, int64_t kc) {
    const double bound = magnitude * abs_sum;
    const double m = bound * (2.0 * static_cast<double>(kr + kc + 4) * 0x1p-24 + 0x1p-40);
    return std::nextafter(static_cast<float>(m), std::numeric_limits<float>::infinity());
}

// Output (o, j) of the kernel in double, taps by kernel row as the
// correlation engine runs them; at(r, q) is padded row r, padded column q.
template <class At>
double exact_filter_at(const TapKernel<double>& taps, int64_t o, int64_t j, At&& at) {
    double acc = 0;
    for (const auto& kr : taps.tap_rows) {
        double part = 0;
        for (int32_t t = kr.begin; t < kr.end; ++t) part += taps.w[t] * at(o + kr.row, j + taps.col[t]);
        acc += part;
    }
    return acc;
}

// dst[j] = T(v[j]) for j < n, and exact(j) (T's value of the double sum)
// where v[j] lies within `margin` of a rounding boundary.
template <class T, class Exact>
void store_single_first(const float* v, T* dst, int64_t n, float margin, Exact&& exact) {
    constexpr int64_t kBlock = 1024;
    uint8_t unsure[kBlock];
    for (int64_t j0 = 0; j0 < n; j0 += kBlock) {
        const int64_t m = std::min(kBlock, n - j0);
        if (convert_row_checked(v + j0, dst + j0, m, margin, unsure) == 0) continue;
        // Flags are rare: skip them eight at a time (a fixed-size copy, which
        // compiles to one load; only the last, partial word takes a call).
        for (int64_t j = 0; j < m; j += 8) {
            uint64_t word = 0;
            if (j + 8 <= m) std::memcpy(&word, unsure + j, 8);
            else std::memcpy(&word, unsure + j, static_cast<size_t>(m - j));
            if (word == 0) continue;
            for (int64_t k = j; k < std::min<int64_t>(j + 8, m); ++k)
                if (unsure[k]) dst[j0 + k] = exact(j0 + k);
        }
    }
}

}  // namespace ipt::cpu
