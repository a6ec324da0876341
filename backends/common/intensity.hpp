// SPDX-License-Identifier: Apache-2.0
// Intensity value rules shared by imhist, stretchlim, imadjust, otsuthresh,
// graythresh and histeq (docs/matlab-semantics.md#imhist-bins, #stretchlim,
// #imadjust, #otsuthresh): imhist's bin of a value and its bin locations, the
// limits read off the cumulative histogram, imadjust's transfer curve and
// Otsu's threshold. The operators' front-ends (ops/*.hpp) plan calls with them.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "ipt/ipt.h"

namespace ipt::common {

// 0-based bin of a value in imhist(I, nbins), as MATLAB bins it:
//  - uint8 with 256 bins and uint16 with 65536 bins: the value itself;
//    other bin counts scale the value from the class's range,
//    trunc(v * ((nbins-1)/top) + 0.5) with top 255 or 65535, at most nbins-1;
//  - int16: value + 32768, then the uint16 rule (imhist converts int16 to
//    uint16 first);
//  - int32/uint32: int32 is offset to uint32, then the scaled rule with
//    top 2^32-1;
//  - logical: false in the first bin, true in the last, i.e. the values 0
//    and 1 on the [0,1] scale;
//  - single/double: trunc(x*(nbins-1) + 0.5), evaluated in the class of x,
//    with values below 0 (and -Inf) in the first bin, above 1 (and Inf) in the
//    last, and NaN in the first bin.
inline int64_t scaled_histogram_bin(double u, double top, int64_t nbins) {
    const double scale = static_cast<double>(nbins - 1) / top;
    const int64_t idx = static_cast<int64_t>(u * scale + 0.5);
    return idx > nbins - 1 ? nbins - 1 : idx;
}

template <class T>
inline int64_t histogram_bin(T v, int64_t nbins) {
    if constexpr (std::is_same_v<T, bool>) {
        return v ? nbins - 1 : 0;
    } else if constexpr (std::is_same_v<T, uint8_t>) {
        return nbins == 256 ? v : scaled_histogram_bin(v, 255.0, nbins);
    } else if constexpr (std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t>) {
        const int64_t u = std::is_same_v<T, int16_t> ? static_cast<int64_t>(v) + 32768 : static_cast<int64_t>(v);
        return nbins == 65536 ? u : scaled_histogram_bin(static_cast<double>(u), 65535.0, nbins);
    } else if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t>) {
        const double u = std::is_same_v<T, int32_t> ? static_cast<double>(v) + 2147483648.0
                                                    : static_cast<double>(v);
        return scaled_histogram_bin(u, 4294967295.0, nbins);
    } else {
        static_assert(std::is_floating_point_v<T>);
        if (std::isnan(v)) return 0;
        const T idx = v * static_cast<T>(nbins - 1) + T(0.5);
        if (idx < 0) return 0;
        if (idx > static_cast<T>(nbins - 1) || std::isinf(v)) return nbins - 1;
        return static_cast<int64_t>(idx);
    }
}

// The smallest and largest value of a class on imhist's axis: [0, 1] for
// logical and floating classes, the integer range otherwise.
inline std::pair<double, double> imhist_range(int32_t dtype) {
    switch (dtype) {
    case IPT_UINT8: return {0.0, 255.0};
    case IPT_UINT16: return {0.0, 65535.0};
    case IPT_INT16: return {-32768.0, 32767.0};
    case IPT_INT32: return {-2147483648.0, 2147483647.0};
    case IPT_UINT32: return {0.0, 4294967295.0};
    default: return {0.0, 1.0};
    }
}

// binLocations(k+1) of imhist: linspace(lo, hi, nbins) over the class's range,
// lo + k*(hi-lo)/(nbins-1) with the ends exact; one bin sits at hi (MATLAB's
// linspace(lo, hi, 1)). Logical's two bins are 0 and 1.
inline double imhist_bin_location(int32_t dtype, int64_t k, int64_t nbins) {
    const auto [lo, hi] = imhist_range(dtype);
    if (k == nbins - 1) return hi;
    if (k == 0) return lo;
    const double n1 = static_cast<double>(nbins - 1);
    return lo + static_cast<double>(k) * (hi - lo) / n1;
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

// otsuthresh(counts): Otsu's threshold T in [0,1] and the effectiveness
// metric EM of a histogram of nbins counts (docs/matlab-semantics.md#otsuthresh),
// evaluated as MATLAB's otsuthresh evaluates it, in double, in bin order:
//   p = counts/sum(counts); omega = cumsum(p); mu = cumsum(p .* (1:n)');
//   sigma_b^2 = (mu_t*omega - mu).^2 ./ (omega .* (1 - omega));
// the maximum ignores NaN; several bins at the maximum give the mean of
// their (1-based) indices idx, T = (idx-1)/(n-1), and
// EM = max / (sum(p .* (1:n)'.^2) - mu_t^2). When the maximum is not finite
// (a single occupied bin, one bin, all counts zero) T and EM are 0.
struct OtsuResult {
    double T = 0, EM = 0;
};

template <class Count>
inline OtsuResult otsu_threshold(const Count* counts, int64_t nbins) {
    double total = 0;
    for (int64_t i = 0; i < nbins; ++i) total += static_cast<double>(counts[i]);
    double omega = 0, mu = 0;
    std::vector<double> sigma(static_cast<size_t>(nbins));
    std::vector<double> p(static_cast<size_t>(nbins));
    for (int64_t i = 0; i < nbins; ++i) p[i] = static_cast<double>(counts[i]) / total;
    double mu_t = 0;
    for (int64_t i = 0; i < nbins; ++i) mu_t += p[i] * static_cast<double>(i + 1);
    bool any = false;
    double maxval = 0;
    for (int64_t i = 0; i < nbins; ++i) {
        omega += p[i];
        mu += p[i] * static_cast<double>(i + 1);
        const double d = mu_t * omega - mu;
        sigma[i] = (d * d) / (omega * (1.0 - omega));
        if (!std::isnan(sigma[i]) && (!any || sigma[i] > maxval)) {
            maxval = sigma[i];
            any = true;
        }
    }
    OtsuResult r;
    if (!any || std::isinf(maxval)) return r;
    double index_sum = 0, hits = 0;
    for (int64_t i = 0; i < nbins; ++i)
        if (sigma[i] == maxval) {
            index_sum += static_cast<double>(i + 1);
            hits += 1;
        }
    const double idx = index_sum / hits;
    r.T = (idx - 1.0) / static_cast<double>(nbins - 1);
    double second = 0;
    for (int64_t i = 0; i < nbins; ++i) {
        const double k = static_cast<double>(i + 1);
        second += p[i] * (k * k);
    }
    r.EM = maxval / (second - mu_t * mu_t);
    return r;
}

}  // namespace ipt::common
