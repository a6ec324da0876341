// SPDX-License-Identifier: Apache-2.0
// Conversion of a double to a MATLAB class: round half away from zero, then
// saturate; NaN becomes 0 (docs/matlab-semantics.md#rounding). Floating classes
// are a plain conversion.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace ipt::cpu {

template <class T>
inline T saturate_round(double v) {
    if constexpr (std::is_same_v<T, bool>) {
        return v != 0 && !std::isnan(v);
    } else if constexpr (std::is_floating_point_v<T>) {
        return static_cast<T>(v);
    } else {
        if (std::isnan(v)) return T(0);
        constexpr double lo = static_cast<double>(std::numeric_limits<T>::lowest());
        constexpr double hi = static_cast<double>(std::numeric_limits<T>::max());
        double r = std::round(v);  // half away from zero
        if (r <= lo) return std::numeric_limits<T>::lowest();
        if (r >= hi) return std::numeric_limits<T>::max();
        return static_cast<T>(r);
    }
}

// Range of a class on MATLAB's [0,1] intensity scale (im2double).
template <class T>
inline double to_unit(T v) {
    if constexpr (std::is_same_v<T, bool>) return v ? 1.0 : 0.0;
    else if constexpr (std::is_floating_point_v<T>) return static_cast<double>(v);
    else if constexpr (std::is_same_v<T, int16_t>) return (static_cast<double>(v) + 32768.0) / 65535.0;
    else return static_cast<double>(v) / static_cast<double>(std::numeric_limits<T>::max());
}

}  // namespace ipt::cpu
