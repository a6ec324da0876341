// SPDX-License-Identifier: Apache-2.0
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
// Two ways to the same terms, chosen per backend by cost:
//  - direct: per output the three window sums, in one order (rows of the
//    template in turn, left to right, each product rounded on its own;
//    normxcorr2_terms);
//  - FFT (Lewis, "Fast Normalized Cross-Correlation", as normxcorr2.m does
//    when cheaper): num = sum((t - mean(t)) .* a) over the window, which is
//    the numerator above, by FFT on A centred by a constant c (c times the
//    zero-mean template's sum over the part inside A added back,
//    normxcorr2_border_term), and s1, s2 as exact running sums of a and of
//    the unrounded a.^2 (Normxcorr2Sum), m*n*s2 - s1^2 formed exactly
//    (normxcorr2_denom_exact).
// The "no variance" decision compares the denominator with a tolerance. On
// the FFT way a window without variance has a denominator of 0 (not the
// rounding noise of s2 - s1^2/(m*n)), so C = 0 there whatever the FFT's
// rounding does to its numerator; elsewhere the two ways' denominators agree
// to a few roundings. Backends taking the same way get the same
// denominators and decisions. A template whose values are all equal (std
// above 0 only by rounding, C noise either way) takes the direct way on
// every backend. The template's statistics and the tolerance
// are computed once on the host by the functions below.
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
    double mean = 0;        // sum / (m*n)
    std::vector<double> t0;      // t - mean, the FFT way's correlation kernel
    std::vector<double> t0_sum;  // (m+1) x (n+1): t0_sum(i, j) = sum(t0(1:i, 1:j))
    // Every value the same, std(t) above 0 only by the mean's rounding: C is
    // then rounding noise either way, so every backend takes the direct way
    // for it and they agree.
    bool all_equal = false;
};

// The FFT way's convolution kernel: correlation with t0 is convolution with
// t0 turned by 180 degrees (row-major m x n).
inline std::vector<double> normxcorr2_fft_kernel(const Normxcorr2Plan& p, const Normxcorr2Template& tp) {
    std::vector<double> k(static_cast<size_t>(p.m * p.n));
    for (int64_t i = 0; i < p.m; ++i)
        for (int64_t j = 0; j < p.n; ++j) k[i * p.n + j] = tp.t0[(p.m - 1 - i) * p.n + (p.n - 1 - j)];
    return k;
}

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
    r.mean = mean;
    r.all_equal = true;
    for (double v : r.t) r.all_equal = r.all_equal && v == r.t[0];
    r.t0.resize(static_cast<size_t>(k));
    for (int64_t i = 0; i < k; ++i) r.t0[i] = r.t[i] - mean;
    r.t0_sum.assign(static_cast<size_t>((p.m + 1) * (p.n + 1)), 0.0);
    for (int64_t i = 0; i < p.m; ++i)
        for (int64_t j = 0; j < p.n; ++j)
            r.t0_sum[(i + 1) * (p.n + 1) + j + 1] = r.t0[i * p.n + j] + r.t0_sum[i * (p.n + 1) + j + 1] +
                                                    r.t0_sum[(i + 1) * (p.n + 1) + j] - r.t0_sum[i * (p.n + 1) + j];
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

// The denominator of a window from its sums s1 = sum(a), s2 = sum(a.^2)
// (normxcorr2.m's max(diff_local_sums, 0)).
IPT_NXC_FN double normxcorr2_denom(const Normxcorr2Plan& p, double denom_t, double s1, double s2) {
    const double diff = s2 - ipt::common::product_rn(s1, s1) / p.mn;
    const double denom_a = diff > 0 ? sqrt(diff) : 0.0;
    return ipt::common::product_rn(denom_t, denom_a);
}

// The numerator and denominator of output (r, c) by direct sums; a(y, x)
// gives A's shifted value as a double, t the shifted template.
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
    denom = normxcorr2_denom(p, denom_t, s1, s2);
    num = x - ipt::common::product_rn(s1, sum_t) / p.mn;
}

// c * sum(t0) over the template's elements that fall inside A at output
// (r, c): the part of the numerator that centring A by c removed (zero up to
// rounding where the window lies wholly inside A). t0_sum is the template's
// (m+1) x (n+1) table of zero-mean sums.
IPT_NXC_FN double normxcorr2_border_term(const Normxcorr2Plan& p, const double* t0_sum, double centre, int64_t r,
                                         int64_t c) {
    // Template rows i with 0 <= r - (m-1) + i < p, columns likewise.
    const int64_t i0 = r < p.m - 1 ? p.m - 1 - r : 0, i1 = r - (p.m - 1) + p.m <= p.p ? p.m : p.p + p.m - 1 - r;
    const int64_t j0 = c < p.n - 1 ? p.n - 1 - c : 0, j1 = c - (p.n - 1) + p.n <= p.q ? p.n : p.q + p.n - 1 - c;
    const int64_t w = p.n + 1;
    const double s = t0_sum[i1 * w + j1] - t0_sum[i0 * w + j1] - t0_sum[i1 * w + j0] + t0_sum[i0 * w + j0];
    return centre * s;
}

// An exact-enough running sum: double-double (hi + lo, |lo| <= ulp(hi)/2),
// each step's error about 2^-106 of the magnitudes involved, so a sum that
// slides over a whole image still holds the exact window sum to far below
// one rounding. Integers below 2^53 stay exact with lo = 0.
// The rounding error of the product a*b = h (exact but for overflow): a
// fused multiply-add on the device; on the host Dekker's splitting, which
// needs no FMA instruction and gives the same exact value.
IPT_NXC_FN double normxcorr2_product_error(double a, double b, double h) {
#if defined(__CUDA_ARCH__)
    return fma(a, b, -h);
#else
    const double ca = 134217729.0 * a, cb = 134217729.0 * b;  // 2^27 + 1
    const double ah = ca - (ca - a), al = a - ah, bh = cb - (cb - b), bl = b - bh;
    return ((ah * bh - h) + ah * bl + al * bh) + al * bl;
#endif
}

struct Normxcorr2Sum {
    double hi = 0, lo = 0;
    IPT_NXC_FN void add(double v) {
        const double s = hi + v, bb = s - hi, e = (hi - (s - bb)) + (v - bb);
        set(s, lo + e);
    }
    IPT_NXC_FN void add(const Normxcorr2Sum& o) {
        const double s = hi + o.hi, bb = s - hi, e = (hi - (s - bb)) + (o.hi - bb);
        set(s, e + (lo + o.lo));
    }
    IPT_NXC_FN void sub(const Normxcorr2Sum& o) { add(Normxcorr2Sum{-o.hi, -o.lo}); }
    IPT_NXC_FN void sub(double v) { add(-v); }
    // v * v exactly.
    IPT_NXC_FN void add_square(double v) {
        const double h = v * v;
        add(h);
        add(normxcorr2_product_error(v, v, h));
    }
    IPT_NXC_FN void sub_square(double v) {
        const double h = v * v;
        add(-h);
        add(-normxcorr2_product_error(v, v, h));
    }
    // Two-sum, not fast-two-sum: after cancellation |s| may be below |e|.
    IPT_NXC_FN void set(double s, double e) {
        hi = s + e;
        const double bb = hi - s;
        lo = (s - (hi - bb)) + (e - bb);
    }
    IPT_NXC_FN double value() const { return hi + lo; }
};

// The FFT way's denominator from exact window sums s1 = sum(a) and s2 =
// sum(a.^2) (squares unrounded): the same formula as normxcorr2_denom, with
// m*n*s2 - s1^2 formed in double-double and rounded once, so a window
// without variance gives 0 (to ~2^-100 of s2), not the rounding noise of
// two nearly equal doubles, and the tolerance then gives C = 0 there.
IPT_NXC_FN double normxcorr2_denom_exact(const Normxcorr2Plan& p, double denom_t, const Normxcorr2Sum& s1,
                                         const Normxcorr2Sum& s2) {
    Normxcorr2Sum d;  // m*n * s2
    const double h = s2.hi * p.mn;
    d.set(h, normxcorr2_product_error(s2.hi, p.mn, h) + s2.lo * p.mn);
    Normxcorr2Sum sq;  // s1^2
    const double k = s1.hi * s1.hi;
    sq.set(k, normxcorr2_product_error(s1.hi, s1.hi, k) + 2 * s1.hi * s1.lo);
    d.sub(sq);
    const double diff = d.value() / p.mn;
    const double denom_a = diff > 0 ? sqrt(diff) : 0.0;
    return ipt::common::product_rn(denom_t, denom_a);
}

IPT_NXC_FN double normxcorr2_value(double num, double denom, double tol) {
    if (!(denom > tol)) return 0.0;
    const double v = num / denom;
    // sqrt(eps(1)) = 2^-26.
    return (v < 0 ? -v : v) - 1 > 1.0 / 67108864.0 ? 0.0 : v;
}

}  // namespace ipt::frontend
