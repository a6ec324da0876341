// SPDX-License-Identifier: Apache-2.0
// ipt.multithresh's front-end: [thresh, metric] = multithresh(A, N) for
// N = 1 and 2 (docs/matlab-semantics.md#multithresh). Every element of A
// (all channels) counts; NaN is ignored. With lo and hi the least and
// greatest finite values, each value is scaled to [0,1] as MATLAB does
// ((v - lo)/(hi - lo) in double for double, in single for single and, from
// the difference in A's saturating class, for the integer classes) and
// binned by im2uint8 (multithresh_code); Inf and -Inf land in the end bins.
// Otsu's criterion is then maximised over every threshold (N = 1) or pair
// (N = 2) on the host, and the mean bin of the maxima is mapped back as
// lo + t/255*(hi - lo) in A's class. Flat, empty, all-NaN and all-Inf
// inputs take MATLAB's degenerate thresholds. N > 2, which MATLAB finds
// with fminsearch, is declined.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <string>
#include <vector>

#include "../class_scaling.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct MultithreshPlan {
    const ipt_tensor* A = nullptr;
    int32_t dtype = 0;      // of A and of thresh
    int64_t numel = 0;      // every channel
    int64_t N = 1;
    bool is_float = false;
    static constexpr int64_t nbins = 256;
    // Codes per element (multithresh_code): bin, bin + 256 for a finite value
    // strictly between lo and hi, kNaN for NaN.
    static constexpr uint32_t kInside = 256, kNaN = 512, ncodes = 513;
};

inline MultithreshPlan plan_multithresh(const ipt::plugin::KernelArgs& args) {
    MultithreshPlan p;
    p.A = args.image("A");
    p.dtype = p.A->dtype;
    if (p.dtype != IPT_UINT8 && p.dtype != IPT_UINT16 && p.dtype != IPT_INT16 && p.dtype != IPT_SINGLE &&
        p.dtype != IPT_DOUBLE)
        ipt::plugin::invalid("ipt.multithresh: parameter 'A' must be uint8, uint16, int16, single or double");
    p.numel = p.A->rows * p.A->cols * p.A->channels;
    p.N = args.integer("N");
    if (p.N > 2)
        ipt::plugin::unsupported("ipt.multithresh: N > 2 (MATLAB's fminsearch optimisation) is not implemented");
    p.is_float = p.dtype == IPT_SINGLE || p.dtype == IPT_DOUBLE;
    return p;
}

// The code of one value given the finite limits lo < hi.
template <class T>
IPT_SCALING_FN uint32_t multithresh_code(T v, double lo, double hi) {
    using ipt::common::to_uint8_scale;
    uint32_t bin;
    if constexpr (std::is_same_v<T, double>) {
        if (v != v) return MultithreshPlan::kNaN;
        const double d = v - lo, r = hi - lo;
        bin = to_uint8_scale(d / r);
    } else if constexpr (std::is_same_v<T, float>) {
        if (v != v) return MultithreshPlan::kNaN;
        const float d = v - static_cast<float>(lo), r = static_cast<float>(hi) - static_cast<float>(lo);
        bin = to_uint8_scale(d / r);
    } else {
        // A - lo in A's class: int16 saturates at 32767.
        int32_t d = static_cast<int32_t>(v) - static_cast<int32_t>(lo);
        int32_t r = static_cast<int32_t>(hi) - static_cast<int32_t>(lo);
        if constexpr (std::is_same_v<T, int16_t>) {
            d = d > 32767 ? 32767 : d;
            r = r > 32767 ? 32767 : r;
        }
        bin = to_uint8_scale(static_cast<float>(d) / static_cast<float>(r));
    }
    const double x = static_cast<double>(v);
    return bin + (x > lo && x < hi ? MultithreshPlan::kInside : 0u);
}

// The limits a backend measures: the least and greatest finite value and
// the least and greatest value that is not NaN (+Inf, -Inf when none).
struct MultithreshLimits {
    double lo = INFINITY, hi = -INFINITY;          // finite values
    double lo_all = INFINITY, hi_all = -INFINITY;  // values that are not NaN
};

struct MultithreshResult {
    std::vector<double> thresh;  // N values, each exact in the output class
    double metric = 0;
};

// The value of MATLAB's cast(x, 'like', A).
inline double multithresh_cast(double x, int32_t dtype) {
    auto sat = [](double v, double a, double b) {
        if (std::isnan(v)) return 0.0;
        const double r = std::trunc(v) + (v - std::trunc(v) >= 0.5 ? 1 : (v - std::trunc(v) <= -0.5 ? -1 : 0));
        return r < a ? a : (r > b ? b : r);
    };
    switch (dtype) {
    case IPT_UINT8: return sat(x, 0, 255);
    case IPT_UINT16: return sat(x, 0, 65535);
    case IPT_INT16: return sat(x, -32768, 32767);
    case IPT_SINGLE: return static_cast<double>(static_cast<float>(x));
    default: return x;
    }
}

// MATLAB's thresholds for inputs without a usable histogram: the sorted
// unique values, then 1, 2, ... below the first value, then the smallest
// positive integers not among the values, sorted.
inline std::vector<double> multithresh_degenerate(const std::vector<double>& unique, int64_t N, int32_t dtype) {
    std::vector<double> t;
    if (unique.empty()) {
        for (int64_t k = 1; k <= N; ++k) t.push_back(multithresh_cast(double(k), dtype));
        return t;
    }
    t = unique;
    const int64_t need1 = N - int64_t(t.size());
    if (need1 > 0 && unique[0] > 1) {
        const double upto = std::min(double(need1), std::ceil(unique[0]) - 1);
        std::vector<double> front;
        for (double k = 1; k <= upto; ++k) front.push_back(multithresh_cast(k, dtype));
        t.insert(t.begin(), front.begin(), front.end());
    }
    int64_t need2 = N - int64_t(t.size());
    double candidate = std::max(std::floor(unique[0]), 0.0);
    while (need2 > 0) {
        candidate += 1;
        bool taken = false;
        for (double u : unique)
            taken = taken || std::abs(u - candidate) < std::nextafter(candidate, INFINITY) - candidate;
        if (taken) continue;
        t.push_back(candidate);
        --need2;
    }
    std::sort(t.begin(), t.end());
    return t;
}

// Thresholds that need no histogram (empty, all NaN, no finite value, one
// finite value), or none when the histogram decides.
inline bool multithresh_without_histogram(const MultithreshPlan& p, const MultithreshLimits& l,
                                          MultithreshResult& r) {
    r.metric = 0;
    if (p.numel == 0 || (p.is_float && !(l.lo_all <= l.hi_all))) {
        // Empty: cast(1:N, 'like', A). All NaN: MATLAB returns 1:N in double;
        // here in A's class, as every other case.
        r.thresh = multithresh_degenerate({}, p.N, p.dtype);
        return true;
    }
    if (!(l.lo <= l.hi)) {  // no finite value: Inf and -Inf only
        if (p.N == 1) r.thresh = {l.lo_all};
        else if (l.lo_all == l.hi_all) r.thresh = multithresh_degenerate({l.lo_all}, p.N, p.dtype);
        else r.thresh = multithresh_degenerate({l.lo_all, l.hi_all}, p.N, p.dtype);
        return true;
    }
    if (l.lo == l.hi) {
        r.thresh = p.N == 1 ? std::vector<double>{l.lo} : multithresh_degenerate({l.lo}, p.N, p.dtype);
        return true;
    }
    return false;
}

// From the codes' counts (ncodes of them) with finite lo < hi.
template <class Count>
inline MultithreshResult multithresh_from_counts(const MultithreshPlan& p, const MultithreshLimits& l,
                                                 const Count* codes) {
    constexpr int64_t n = MultithreshPlan::nbins;
    std::vector<double> c(n, 0.0);
    double inside = 0, total = 0;
    for (int64_t b = 0; b < n; ++b) {
        c[b] = static_cast<double>(codes[b]) + static_cast<double>(codes[b + MultithreshPlan::kInside]);
        inside += static_cast<double>(codes[b + MultithreshPlan::kInside]);
    }
    for (int64_t b = 0; b < n; ++b) total += c[b];
    std::vector<double> prob(n), omega(n), mu(n);
    double om = 0, m = 0;
    for (int64_t b = 0; b < n; ++b) {
        prob[b] = c[b] / total;
        om += prob[b];
        m += prob[b] * double(b + 1);
        omega[b] = om;
        mu[b] = m;
    }
    const double mu_t = mu[n - 1];
    double maxval = NAN;
    double sum_r = 0, sum_c = 0, hits = 0;
    auto consider = [&](double s, int64_t i, int64_t j) {
        if (std::isnan(s)) return;
        if (std::isnan(maxval) || s > maxval) {
            maxval = s;
            sum_r = sum_c = hits = 0;
        }
        if (s == maxval) {
            sum_r += double(i + 1);
            sum_c += double(j + 1);
            hits += 1;
        }
    };
    if (p.N == 1) {
        for (int64_t i = 0; i < n; ++i) {
            const double d = mu_t * omega[i] - mu[i];
            consider((d * d) / (omega[i] * (1 - omega[i])), i, 0);
        }
    } else {
        // Column-major order, as MATLAB's find lists the maxima (the sums of
        // integer indices do not depend on it).
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < j; ++i) {
                const double omega0 = omega[i];
                const double mu0t = mu_t - mu[i] / omega[i];
                const double omega1 = omega[j] - omega[i];
                const double mu1t = mu_t - (mu[j] - mu[i]) / omega1;
                const double term1 = omega0 * (mu0t * mu0t);
                const double term2 = omega1 * (mu1t * mu1t);
                double omega2 = 1 - (omega0 + omega1);
                if (omega2 <= 0) omega2 = NAN;
                const double q = omega0 * mu0t + omega1 * mu1t;
                const double term3 = (q * q) / omega2;
                consider(term1 + term2 + term3, i, j);
            }
    }
    MultithreshResult r;
    if (!std::isfinite(maxval)) {
        // Only lo and hi occur (no finite value between them): MATLAB's
        // degenerate thresholds, when there are no more of them than N.
        if (inside == 0 && p.N >= 2) {
            r.thresh = multithresh_degenerate({l.lo, l.hi}, p.N, p.dtype);
            return r;
        }
        ipt::plugin::unsupported("ipt.multithresh: Otsu's criterion does not converge for this image");
    }
    std::vector<double> t = {sum_r / hits - 1};
    if (p.N == 2) t.push_back(sum_c / hits - 1);
    for (double v : t) r.thresh.push_back(multithresh_cast(l.lo + v / 255 * (l.hi - l.lo), p.dtype));
    double spread = 0;
    for (int64_t b = 0; b < n; ++b) {
        const double d = double(b + 1) - mu_t;
        spread += prob[b] * (d * d);
    }
    r.metric = maxval / spread;
    return r;
}

// The thresholds as the bytes of a 1 x N array of the output class.
inline std::vector<unsigned char> multithresh_bytes(const MultithreshResult& r, int32_t dtype) {
    std::vector<unsigned char> out;
    auto put = [&](const void* p, size_t n) {
        const auto* b = static_cast<const unsigned char*>(p);
        out.insert(out.end(), b, b + n);
    };
    for (double v : r.thresh) {
        switch (dtype) {
        case IPT_UINT8: { const uint8_t x = static_cast<uint8_t>(v); put(&x, 1); break; }
        case IPT_UINT16: { const uint16_t x = static_cast<uint16_t>(v); put(&x, 2); break; }
        case IPT_INT16: { const int16_t x = static_cast<int16_t>(v); put(&x, 2); break; }
        case IPT_SINGLE: { const float x = static_cast<float>(v); put(&x, 4); break; }
        default: put(&v, 8); break;
        }
    }
    return out;
}

}  // namespace ipt::frontend
