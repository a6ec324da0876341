// SPDX-License-Identifier: Apache-2.0
// ipt.stretchlim's front-end: LOWHIGH = stretchlim(I, tol), the limits for
// contrast stretching, one column [low; high] per channel, double, on the
// [0,1] scale (docs/matlab-semantics.md#stretchlim). Also the default input
// limits of ipt.imadjust, which plans them with stretchlim_plan_for.
//
// The schema enforces tol's count (1 or 2) and range ([0, 1]); a scalar t
// means [t, 1-t]. An empty I has no histogram to read limits from, and the
// catalogue flags cannot say so: planning rejects it.
#pragma once

#include <cstdint>

#include "../intensity.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct StretchlimPlan {
    const ipt_tensor* I = nullptr;
    int32_t dtype = 0;
    int64_t channels = 1;
    int64_t plane = 0;  // values per channel (rows * cols)
    double tol_low = 0.01, tol_high = 0.99;
    // Bins of imhist (256 for uint8, 65536 for every other class), each value
    // binned by ipt::common::histogram_bin.
    int64_t nbins = 0;
    // False when tol_low >= tol_high (or I is empty): every channel is [0; 1]
    // without a histogram.
    bool needs_histogram = true;
    // The smallest cumulative count whose cdf = count/plane passes tol_low
    // (>) and tol_high (>=), evaluated as the reference evaluates cdf, so that
    // a device may compare integer counts instead of quotients. Valid when
    // needs_histogram.
    int64_t count_low = 0, count_high = 0;
    // LOWHIGH: 2 x channels, double; row 0 holds low, row 1 high.
    int32_t out_dtype = IPT_DOUBLE;
    int64_t out_rows = 2, out_cols = 1;
};

namespace detail {

// Smallest count c in [0, total] with c/total > tol (strict) or >= tol.
inline int64_t first_passing_count(int64_t total, double tol, bool strict) {
    auto passes = [&](int64_t c) {
        const double cdf = static_cast<double>(c) / static_cast<double>(total);
        return strict ? cdf > tol : cdf >= tol;
    };
    if (passes(0)) return 0;
    int64_t lo = 0, hi = total;  // passes(total): cdf = 1 > tol_low (< tol_high <= 1), 1 >= tol_high
    while (hi - lo > 1) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (passes(mid)) hi = mid;
        else lo = mid;
    }
    return hi;
}

}  // namespace detail

// stretchlim(I, [tol_low tol_high]) of an image (imadjust's default is
// [0.01 0.99]). Never throws: an empty I gives [0; 1] per channel.
inline StretchlimPlan stretchlim_plan_for(const ipt_tensor* I, double tol_low, double tol_high) {
    StretchlimPlan p;
    p.I = I;
    p.dtype = I->dtype;
    p.channels = I->channels;
    p.plane = I->rows * I->cols;
    p.tol_low = tol_low;
    p.tol_high = tol_high;
    p.nbins = I->dtype == IPT_UINT8 ? 256 : 65536;
    p.needs_histogram = tol_low < tol_high && p.plane > 0;
    if (p.needs_histogram) {
        p.count_low = detail::first_passing_count(p.plane, tol_low, true);
        p.count_high = detail::first_passing_count(p.plane, tol_high, false);
    }
    p.out_cols = I->channels;
    return p;
}

inline StretchlimPlan plan_stretchlim(const ipt::plugin::KernelArgs& args) {
    const ipt_tensor* I = args.image("I");
    if (I->rows == 0 || I->cols == 0) ipt::plugin::invalid("ipt.stretchlim: parameter 'I' must not be empty");
    const auto [low, high] = ipt::common::stretchlim_tolerance(args.floats("tol"), args.count("tol"));
    return stretchlim_plan_for(I, low, high);
}

}  // namespace ipt::frontend
