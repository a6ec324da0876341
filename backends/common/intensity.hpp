// Intensity rules that every backend shares (MATLAB_SEMANTICS.md, intlut,
// stretchlim and imadjust): the class-dependent histogram bins of stretchlim,
// the limits read off the cumulative histogram, imadjust's transfer curve, and
// the argument checks the catalogue flags cannot express. Header only; the
// value rules are host and device agnostic, the checks run on the host.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ipt/ipt_plugin.hpp"

namespace ipt::common {

// stretchlim uses 256 bins for uint8 and 65536 for every other class.
template <class T>
constexpr int64_t stretchlim_bins() {
    return std::is_same_v<T, uint8_t> ? 256 : 65536;
}

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

// ---- argument checks (host side, before any output is allocated) ----------

// intlut: A is uint8/uint16/int16 and LUT a vector of its class with 256 or
// 65536 entries. The registry checks this too (IPT_P_LUT); implementations
// read the table without bounds checks, so they check again.
inline void check_intlut_args(const ipt::plugin::KernelArgs& args) {
    const ipt_tensor* a = args.image("A");
    const ipt_tensor* lut = args.image("LUT");
    if (a->dtype != IPT_UINT8 && a->dtype != IPT_UINT16 && a->dtype != IPT_INT16)
        ipt::plugin::invalid("ipt.intlut: parameter 'A' must be uint8, uint16 or int16");
    if (lut->dtype != a->dtype)
        ipt::plugin::invalid("ipt.intlut: parameter 'LUT' must have the class of A");
    const int64_t entries = a->dtype == IPT_UINT8 ? 256 : 65536;
    if (lut->rows * lut->cols * lut->channels != entries || lut->channels != 1 ||
        (lut->rows != 1 && lut->cols != 1))
        ipt::plugin::invalid("ipt.intlut: parameter 'LUT' must be a vector of " +
                             std::to_string(entries) + " entries");
}

// stretchlim: tol has 1 or 2 values in [0, 1] and I is not empty. Returns
// [tol_low, tol_high].
inline std::pair<double, double> stretchlim_args(const ipt::plugin::KernelArgs& args) {
    const double* tol = args.floats("tol");
    const uint64_t count = args.count("tol");
    if (count < 1 || count > 2)
        ipt::plugin::invalid("ipt.stretchlim: parameter 'tol' must have 1 or 2 elements");
    for (uint64_t i = 0; i < count; ++i)
        if (!(tol[i] >= 0.0 && tol[i] <= 1.0))
            ipt::plugin::invalid("ipt.stretchlim: parameter 'tol' must be in [0, 1]");
    const ipt_tensor* img = args.image("I");
    if (img->rows == 0 || img->cols == 0)
        ipt::plugin::invalid("ipt.stretchlim: parameter 'I' must not be empty");
    return stretchlim_tolerance(tol, count);
}

// imadjust: the class and channels of I, and one curve per channel from
// low_high_in (when present; otherwise the caller fills low_in/high_in with
// stretchlim(I)), low_high_out and gamma. low_high_in and low_high_out take 2
// values, or for RGB 6 in MATLAB's column-major 2x3 order
// [low_r high_r low_g high_g low_b high_b]; gamma takes 1 value, or 3 for
// RGB. Values in [0, 1], low_in < high_in (MATLAB errors too), gamma finite
// and >= 0; low_out > high_out is allowed (it inverts).
inline std::vector<AdjustCurve> imadjust_curves(const ipt::plugin::KernelArgs& args) {
    const ipt_tensor* img = args.image("I");
    const int32_t dt = img->dtype;
    if (dt != IPT_UINT8 && dt != IPT_UINT16 && dt != IPT_INT16 && dt != IPT_SINGLE &&
        dt != IPT_DOUBLE)
        ipt::plugin::invalid("ipt.imadjust: parameter 'I' must be uint8, uint16, int16, "
                             "single or double");
    const int64_t channels = img->channels;
    if (channels != 1 && channels != 3)
        ipt::plugin::invalid("ipt.imadjust: parameter 'I' must have 1 or 3 channels");
    std::vector<AdjustCurve> curves(static_cast<size_t>(channels));

    const double* gamma = args.floats("gamma");
    const uint64_t gamma_count = args.count("gamma");
    if (!(gamma_count == 1 || (channels == 3 && gamma_count == 3)))
        ipt::plugin::invalid(std::string("ipt.imadjust: parameter 'gamma' must have 1 value") +
                             (channels == 3 ? " or 3 (one per channel)" : " for a one-channel image"));
    for (int64_t ch = 0; ch < channels; ++ch) {
        const double g = gamma[gamma_count == 1 ? 0 : ch];
        if (!(g >= 0.0 && std::isfinite(g)))
            ipt::plugin::invalid("ipt.imadjust: parameter 'gamma' must be finite and >= 0");
        curves[ch].gamma = g;
    }
    auto read_pairs = [&](const char* name, bool is_input) {
        const double* v = args.floats(name);
        const uint64_t count = args.count(name);
        const std::string what = std::string("ipt.imadjust: parameter '") + name + "' must ";
        if (!(count == 2 || (channels == 3 && count == 6)))
            ipt::plugin::invalid(what + "have 2 " +
                                 (channels == 3 ? "or 6 values (RGB: [low_r high_r low_g high_g low_b high_b])"
                                                : "values for a one-channel image"));
        for (uint64_t i = 0; i < count; ++i)
            if (!(v[i] >= 0.0 && v[i] <= 1.0)) ipt::plugin::invalid(what + "be in [0, 1]");
        for (int64_t ch = 0; ch < channels; ++ch) {
            const double* pair = count == 2 ? v : v + 2 * ch;
            if (is_input && !(pair[0] < pair[1])) ipt::plugin::invalid(what + "have low < high");
            (is_input ? curves[ch].low_in : curves[ch].low_out) = pair[0];
            (is_input ? curves[ch].high_in : curves[ch].high_out) = pair[1];
        }
    };
    read_pairs("low_high_out", false);
    if (args.present("low_high_in")) read_pairs("low_high_in", true);
    return curves;
}

}  // namespace ipt::common
