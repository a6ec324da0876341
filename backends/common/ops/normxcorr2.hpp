// ipt.normxcorr2's front-end: C = normxcorr2(template, A)
// (docs/matlab-semantics.md#normxcorr2), as normxcorr2.m computes it.
// template (m x n, at least 2 elements, no larger than A) and A (p x q) are
// finite, taken to double, and each shifted by its minimum when that is
// negative and the class is not unsigned (MATLAB's shiftData); the template
// may not be constant. C is (p+m-1) x (q+n-1) double; for output (r, c)
// (0-based) the template covers A's rows r-m+1.. and columns c-n+1.., zero
// outside A, and with s1, s2 the sums of a and a.^2 and x the correlation
// sum(t .* a) over that window:
//   denom = sqrt(m*n - 1) * std(t(:)) * sqrt(max(s2 - s1.^2 / (m*n), 0))
//   num   = x - s1 * sum(t(:)) / (m*n)
//   C = num / denom where denom > sqrt(eps(max(denom(:)))), else 0; then 0
//   where |C| - 1 > sqrt(eps(1)).
//
// Every backend computes the window sums directly, in the same order (rows of
// the template in turn, left to right, each product rounded on its own), so
// that the "no variance" decision, which compares with a tolerance, is the
// same everywhere; the template's statistics and the tolerance are computed
// once on the host by the functions below.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "../class_scaling.hpp"
#include "ipt/ipt_plugin.hpp"

#if defined(__CUDACC__)
#define IPT_NXC_FN __host__ __device__ inline
#else
#define IPT_NXC_FN inline
#endif

namespace ipt::frontend {

struct Normxcorr2Plan {
    const ipt_tensor* T = nullptr;
    const ipt_tensor* A = nullptr;
    int32_t t_dtype = IPT_DOUBLE, a_dtype = IPT_DOUBLE;
    int64_t m = 0, n = 0;            // template rows, columns
    int64_t p = 0, q = 0;            // A's rows, columns
    int64_t out_rows = 0, out_cols = 0;
    double mn = 0;                   // m*n
};

// MATLAB's shiftData moves data with a negative minimum to start at 0 unless
// the class is unsigned.
inline bool normxcorr2_shifts(int32_t dtype) {
    return dtype != IPT_UINT8 && dtype != IPT_UINT16 && dtype != IPT_UINT32;
}

inline Normxcorr2Plan plan_normxcorr2(const ipt::plugin::KernelArgs& args) {
    Normxcorr2Plan p;
    p.T = args.image("template");
    p.A = args.image("A");
    if (p.T->channels != 1 || p.A->channels != 1)
        ipt::plugin::invalid("ipt.normxcorr2: parameters 'template' and 'A' must be 2-D");
    p.t_dtype = p.T->dtype;
    p.a_dtype = p.A->dtype;
    p.m = p.T->rows;
    p.n = p.T->cols;
    p.p = p.A->rows;
    p.q = p.A->cols;
    if (p.m * p.n < 2) ipt::plugin::invalid("ipt.normxcorr2: parameter 'template' must have at least 2 elements");
    if (p.p < p.m || p.q < p.n)
        ipt::plugin::invalid("ipt.normxcorr2: parameter 'template' must be no larger than A in rows and columns");
    p.out_rows = p.p + p.m - 1;
    p.out_cols = p.q + p.n - 1;
    p.mn = static_cast<double>(p.m * p.n);
    return p;
}

// What the host knows of the template once it has its values.
struct Normxcorr2Template {
    std::vector<double> t;  // shifted, row-major m x n
    double sum = 0;         // sum(t(:))
    double denom_t = 0;     // sqrt(m*n - 1) * std(t(:))
};

// Reads the template values (row-major, class dtype), checks them and forms
// the shifted values and their statistics.
template <class T>
Normxcorr2Template normxcorr2_template(const Normxcorr2Plan& p, const T* values) {
    Normxcorr2Template r;
    const int64_t k = p.m * p.n;
    r.t.resize(static_cast<size_t>(k));
    double lo = std::numeric_limits<double>::infinity();
    for (int64_t i = 0; i < k; ++i) {
        const double v = static_cast<double>(values[i]);
        if (!std::isfinite(v)) ipt::plugin::invalid("ipt.normxcorr2: parameter 'template' must be finite");
        r.t[i] = v;
        lo = v < lo ? v : lo;
    }
    if (normxcorr2_shifts(p.t_dtype) && lo < 0)
        for (double& v : r.t) v = v - lo;
    for (double v : r.t) r.sum = r.sum + v;
    const double mean = r.sum / p.mn;
    double ss = 0;
    for (double v : r.t) ss = ss + (v - mean) * (v - mean);
    const double sd = std::sqrt(ss / (p.mn - 1));
    if (sd == 0) ipt::plugin::invalid("ipt.normxcorr2: parameter 'template' cannot have all values the same");
    r.denom_t = std::sqrt(p.mn - 1) * sd;
    return r;
}

// A's shift from its minimum (and whether every value is finite).
inline double normxcorr2_a_shift(const Normxcorr2Plan& p, double a_min, bool finite) {
    if (!finite) ipt::plugin::invalid("ipt.normxcorr2: parameter 'A' must be finite");
    return normxcorr2_shifts(p.a_dtype) && a_min < 0 ? a_min : 0.0;
}

// sqrt(eps(x)) for the largest denominator x >= 0 (eps(0) is the smallest
// denormal).
inline double normxcorr2_tolerance(double max_denom) {
    const double e = std::nextafter(max_denom, std::numeric_limits<double>::infinity()) - max_denom;
    return std::sqrt(e);
}

// The numerator and denominator of output (r, c); a(y, x) gives A's shifted
// value as a double, t the shifted template.
template <class Load>
IPT_NXC_FN void normxcorr2_terms(const Normxcorr2Plan& p, const double* t, double sum_t, double denom_t,
                                 int64_t r, int64_t c, Load a, double& num, double& denom) {
    double x = 0, s1 = 0, s2 = 0;
    for (int64_t i = 0; i < p.m; ++i) {
        const int64_t y = r - (p.m - 1) + i;
        if (y < 0 || y >= p.p) continue;
        for (int64_t j = 0; j < p.n; ++j) {
            const int64_t xc = c - (p.n - 1) + j;
            if (xc < 0 || xc >= p.q) continue;
            const double v = a(y * p.q + xc);
            x = x + ipt::common::product_rn(t[i * p.n + j], v);
            s1 = s1 + v;
            s2 = s2 + ipt::common::product_rn(v, v);
        }
    }
    const double diff = s2 - ipt::common::product_rn(s1, s1) / p.mn;
    const double denom_a = diff > 0 ? sqrt(diff) : 0.0;
    denom = ipt::common::product_rn(denom_t, denom_a);
    num = x - ipt::common::product_rn(s1, sum_t) / p.mn;
}

IPT_NXC_FN double normxcorr2_value(double num, double denom, double tol) {
    if (!(denom > tol)) return 0.0;
    const double v = num / denom;
    // sqrt(eps(1)) = 2^-26.
    return (v < 0 ? -v : v) - 1 > 1.0 / 67108864.0 ? 0.0 : v;
}

}  // namespace ipt::frontend
