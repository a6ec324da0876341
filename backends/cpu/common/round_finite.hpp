// SPDX-License-Identifier: Apache-2.0
// Double to a MATLAB class for values known to be finite (weighted sums of
// integer-class values with finite weights): convert_row's results without
// its NaN test, and for unsigned classes without the sign handling, which
// leaves fewer instructions per element in the resampling loops.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "convert.hpp"

namespace ipt::cpu {

// dst[i] = src[i] converted to To as convert_row does; `finite` says that no
// src[i] is NaN or infinite (otherwise convert_row's code runs).
template <bool finite, class To>
IPT_ALWAYS_INLINE IPT_NO_TRAPPING void convert_row_finite(const double* __restrict src, To* __restrict dst,
                                                          int64_t n) {
    if constexpr (finite && std::is_integral_v<To> && !std::is_same_v<To, bool> && sizeof(To) <= 2) {
        // Clamped into To's range, c + 0.5 - 2^-54 (with c's sign) truncates
        // to convert_row's result (convert.hpp); for c >= 0, or c = -0, the
        // sign is that of the constant. The range fits int32_t.
        constexpr double lo = static_cast<double>(std::numeric_limits<To>::lowest());
        constexpr double hi = static_cast<double>(std::numeric_limits<To>::max());
        for (int64_t i = 0; i < n; ++i) {
            double c = src[i] < lo ? lo : src[i];
            c = c > hi ? hi : c;
            if constexpr (std::is_signed_v<To>)
                c = c + __builtin_copysign(0.49999999999999994, c);
            else
                c = c + 0.49999999999999994;
            dst[i] = static_cast<To>(static_cast<int32_t>(c));
        }
    } else {
        convert_detail::convert_row_impl(src, dst, n);
    }
}

}  // namespace ipt::cpu
