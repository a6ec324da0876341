// SPDX-License-Identifier: Apache-2.0
// ipt.histeq's front-end: J = histeq(I, n) or histeq(I, hgram), [J, T]
// (docs/matlab-semantics.md#histeq). The indexed form histeq(X, map) is not
// offered.
//
// MATLAB's histeq counts imhist(I, 256) (int16 through uint16), builds a
// 256-entry transformation T on the host from that histogram and the target
// histogram hgram (n equal bins of numel(I)/n when n is given; default 64),
// and maps every value through T: for integer classes
// J = floor(top*T(bin+1) + 0.5) with top 255 or 65535 (int16 through uint16),
// for floating classes J = T(bin+1), where bin is imhist's 256-bin bin of the
// value. A backend counts the histogram, calls histeq_transform and
// histeq_table here, and applies the table per element by the value's bin
// (ipt::common::histogram_bin with 256 bins).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "../intensity.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct HisteqPlan {
    const ipt_tensor* I = nullptr;
    int32_t dtype = 0;
    int64_t plane = 0;  // values per channel
    int64_t channels = 1;
    int64_t numel = 0;
    static constexpr int64_t nbins = 256;  // MATLAB's NPTS
    // The target histogram scaled to sum numel(I), as MATLAB scales it.
    std::vector<double> hgram;
    // J: class and size of I; T: 1 x 256 double.
    int32_t out_dtype = 0;
    int64_t t_rows = 1, t_cols = 256;
};

// Sizes and classes only (the registry's output check); checks n and hgram.
inline HisteqPlan plan_histeq_output(const ipt::plugin::KernelArgs& args) {
    HisteqPlan p;
    p.I = args.image("I");
    p.dtype = p.I->dtype;
    p.out_dtype = p.dtype;
    p.plane = p.I->rows * p.I->cols;
    p.channels = p.I->channels;
    p.numel = p.plane * p.channels;
    if (args.present("n") && args.present("hgram"))
        ipt::plugin::invalid("ipt.histeq: parameter 'hgram' and parameter 'n' cannot both be given");
    return p;
}

inline HisteqPlan plan_histeq(const ipt::plugin::KernelArgs& args) {
    HisteqPlan p = plan_histeq_output(args);
    const double numel = static_cast<double>(p.numel);
    if (args.present("hgram")) {
        const double* h = args.floats("hgram");
        p.hgram.assign(h, h + args.count("hgram"));
    } else {
        const int64_t m = args.present("n") ? args.integer("n") : 64;
        p.hgram.assign(static_cast<size_t>(m), numel / static_cast<double>(m));
    }
    // hgram = hgram*(numel(I)/sum(hgram)), the sum taken in order.
    double sum = 0;
    for (double v : p.hgram) sum += v;
    const double scale = numel / sum;
    for (double& v : p.hgram) v *= scale;
    return p;
}

// T (256 entries in [0,1]) from the input's 256-bin counts: the level i
// (of m = numel(hgram)) whose cumulative target count cumd(i) is closest to
// the input's cum(j) from above, allowing half the bin's own count:
//   err(i,j) = (cumd(i) - cum(j)) + tol(j), tol(j) = nn(j)/2 except 0 for the
//   first and last bins; err below -numel*sqrt(eps) counts as numel;
//   T(j) = (argmin_i err(i,j) - 1)/(m-1), the first index at the minimum,
//   NaN ignored (all NaN: the first).
template <class Count>
inline std::vector<double> histeq_transform(const HisteqPlan& plan, const Count* counts) {
    const int64_t n = HisteqPlan::nbins;
    const int64_t m = static_cast<int64_t>(plan.hgram.size());
    std::vector<double> cumd(static_cast<size_t>(m));
    double run = 0;
    for (int64_t i = 0; i < m; ++i) cumd[i] = run += plan.hgram[i];
    const double numel = static_cast<double>(plan.numel);
    const double below = -numel * 0x1p-26;  // -numel(a)*sqrt(eps): sqrt(2^-52) = 2^-26
    std::vector<double> T(static_cast<size_t>(n));
    double cum = 0;
    for (int64_t j = 0; j < n; ++j) {
        const double nn = static_cast<double>(counts[j]);
        cum += nn;
        const double tol = (j == 0 || j == n - 1) ? 0.0 : nn / 2;
        int64_t best = 0;
        double best_err = std::nan("");
        for (int64_t i = 0; i < m; ++i) {
            double err = (cumd[i] - cum) + tol;
            if (err < below) err = numel;
            if (!std::isnan(err) && (std::isnan(best_err) || err < best_err)) {
                best_err = err;
                best = i;
            }
        }
        T[j] = static_cast<double>(best) / static_cast<double>(m - 1);
    }
    return T;
}

// The value J takes for each of the 256 bins, in J's class.
template <class Out>
inline std::vector<Out> histeq_table(const std::vector<double>& T) {
    std::vector<Out> table(T.size());
    for (size_t k = 0; k < T.size(); ++k) {
        if constexpr (std::is_floating_point_v<Out>) {
            table[k] = static_cast<Out>(T[k]);
        } else {
            const double top = std::is_same_v<Out, uint8_t> ? 255.0 : 65535.0;
            const double v = std::floor(top * T[k] + 0.5);
            const double clamped = std::isnan(v) ? 0.0 : std::fmin(top, std::fmax(0.0, v));
            // int16 goes through uint16 and back: im2int16 subtracts 32768.
            table[k] = static_cast<Out>(std::is_same_v<Out, int16_t> ? clamped - 32768.0 : clamped);
        }
    }
    return table;
}

}  // namespace ipt::frontend
