// Intensity value rules shared by stretchlim and imadjust
// (docs/matlab-semantics.md#stretchlim and #imadjust): imhist's bin of a value, the limits read off the
// cumulative histogram, and imadjust's transfer curve. The operators'
// front-ends (ops/stretchlim.hpp, ops/imadjust.hpp) plan calls with them.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace ipt::common {

// 0-based bin of a value in imhist(I, nbins), as MATLAB bins it:
//  - uint8/uint16 with 256/65536 bins: the value itself; int16: value + 32768
//    (imhist converts int16 to uint16 first);
//  - int32/uint32 (not accepted by MATLAB's stretchlim; imhist's rule):
//    int32 is offset to uint32, then trunc(u * (nbins-1)/(2^32-1) + 0.5);
//  - logical (not accepted by MATLAB's stretchlim): false in the first bin,
//    true in the last, i.e. the values 0 and 1 on the [0,1] scale;
//  - single/double: trunc(x*(nbins-1) + 0.5), evaluated in the class of x,
//    with values below 0 (and -Inf) in the first bin, above 1 (and Inf) in the
//    last, and NaN in the first bin (imhist's rule).
template <class T>
inline int64_t histogram_bin(T v, int64_t nbins) {
    if constexpr (std::is_same_v<T, bool>) {
        return v ? nbins - 1 : 0;
    } else if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t>) {
        return v;  // callers use nbins = 256 (uint8) or 65536
    } else if constexpr (std::is_same_v<T, int16_t>) {
        return static_cast<int64_t>(v) + 32768;
    } else if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t>) {
        const double u = std::is_same_v<T, int32_t> ? static_cast<double>(v) + 2147483648.0
                                                    : static_cast<double>(v);
        const double scale = static_cast<double>(nbins - 1) / 4294967295.0;
        const int64_t idx = static_cast<int64_t>(u * scale + 0.5);
        return idx > nbins - 1 ? nbins - 1 : idx;
    } else {
        static_assert(std::is_floating_point_v<T>);
        if (std::isnan(v)) return 0;
        const T idx = v * static_cast<T>(nbins - 1) + T(0.5);
        if (idx < 0) return 0;
        if (idx > static_cast<T>(nbins - 1) || std::isinf(v)) return nbins - 1;
        return static_cast<int64_t>(idx);
    }
}

// stretchlim's tolerance: a scalar t means [t, 1-t].
inline std::pair<double, double> stretchlim_tolerance(const double* tol, uint64_t count) {
    if (count == 1) return {tol[0], 1.0 - tol[0]};
    return {tol[0], tol[1]};
}

// Limits [low, high] on the [0,1] scale from an nbins histogram (counts of
// any arithmetic type). cdf = cumsum(N)/sum(N); ilow is the first bin with
// cdf > tol_low, ihigh the first with cdf >= tol_high; equal bins give
// [0, 1]; tol_low >= tol_high gives [0, 1]. sum(N) must be > 0.
template <class Count>
inline std::pair<double, double> stretchlim_from_histogram(const Count* counts, int64_t nbins,
                                                           double tol_low, double tol_high) {
    if (!(tol_low < tol_high)) return {0.0, 1.0};
    double total = 0;
    for (int64_t i = 0; i < nbins; ++i) total += static_cast<double>(counts[i]);
    int64_t ilow = -1, ihigh = -1;
    double cumulative = 0;  // exact: counts are integers below 2^53
    for (int64_t i = 0; i < nbins && ihigh < 0; ++i) {
        cumulative += static_cast<double>(counts[i]);
        const double cdf = cumulative / total;
        if (ilow < 0 && cdf > tol_low) ilow = i;
        if (cdf >= tol_high) ihigh = i;
    }
    if (ilow == ihigh) return {0.0, 1.0};
    const double last = static_cast<double>(nbins - 1);
    return {static_cast<double>(ilow) / last, static_cast<double>(ihigh) / last};
}

// imadjust's curve for one value x on the [0,1] scale. The clamp comes first
// and, like MATLAB's max/min, ignores NaN (a NaN input becomes high_in).
// low_out > high_out gives a negative (inverted) image.
struct AdjustCurve {
    double low_in = 0, high_in = 1, low_out = 0, high_out = 1, gamma = 1;

    double operator()(double x) const {
        x = std::fmax(low_in, std::fmin(high_in, x));
        double y = (x - low_in) / (high_in - low_in);
        if (gamma != 1.0) y = std::pow(y, gamma);
        return y * (high_out - low_out) + low_out;
    }
};

// The value imadjust's LUT of n entries evaluates the curve at: linspace(0,1,n).
inline double lut_abscissa(int64_t k, int64_t n) {
    return static_cast<double>(k) / static_cast<double>(n - 1);
}

}  // namespace ipt::common
