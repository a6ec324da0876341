// Branch-free conversions between MATLAB classes for inner loops that the
// compiler should vectorise. Same results as rounding.hpp's saturate_round
// (round half away from zero, saturate, NaN -> 0; logical: nonzero and not
// NaN -> true) without a call to std::round per element.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

namespace ipt::cpu {

// Double to a MATLAB class. Clamping first keeps every value in the range of
// the integer conversion; c - trunc(c) is exact, so comparing it with 0.5
// rounds half away from zero exactly.
template <class T>
inline T to_class(double v) {
    if constexpr (std::is_same_v<T, bool>) {
        return v != 0 && v == v;
    } else if constexpr (std::is_floating_point_v<T>) {
        return static_cast<T>(v);
    } else {
        constexpr double lo = static_cast<double>(std::numeric_limits<T>::lowest());
        constexpr double hi = static_cast<double>(std::numeric_limits<T>::max());
        double c = v < lo ? lo : v;
        c = c > hi ? hi : c;
        c = (v == v) ? c : 0.0;  // NaN -> 0
        using I = std::conditional_t<(sizeof(T) < 4) || std::is_same_v<T, int32_t>, int32_t, int64_t>;
        I i = static_cast<I>(c);
        const double f = c - static_cast<double>(i);
        i += static_cast<I>(f >= 0.5) - static_cast<I>(f <= -0.5);
        return static_cast<T>(i);
    }
}

// A MATLAB class to the accumulation type (logical -> 0/1).
template <class Acc, class T>
inline Acc to_acc(T v) {
    return static_cast<Acc>(v);
}

}  // namespace ipt::cpu
