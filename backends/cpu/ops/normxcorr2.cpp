// SPDX-License-Identifier: Apache-2.0
// ipt.normxcorr2 as the front-end plans it (common/ops/normxcorr2.hpp): the
// template's statistics and A's shift on the host, then one of the
// front-end's two ways to the numerators and denominators, the largest
// denominator, and the coefficients:
//  - direct window sums per output (the front-end's arithmetic, shared with
//    the GPU backends), for small templates or images and builds without
//    FFTW;
//  - otherwise the numerator by FFT (fft_convolve.hpp's overlap-save tiles,
//    the zero-mean template over A centred by a constant) and the window sums
//    s1, s2 as exact running sums: int64 for classes of at most 16 bits,
//    double-double for the others.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "common/fft_convolve.hpp"
#include "common/fft_limits.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/parallel.hpp"
#include "common/ops/normxcorr2.hpp"

namespace {

using ipt::frontend::Normxcorr2Plan;
using ipt::frontend::Normxcorr2Template;

template <class T>
Normxcorr2Template read_template(const Normxcorr2Plan& p) {
    return ipt::frontend::normxcorr2_template(p, static_cast<const T*>(p.T->data));
}

template <class A, class Load>
void run_direct(const Normxcorr2Plan& p, const Normxcorr2Template& tp, Load load, double* C) {
    std::vector<double> denom(static_cast<size_t>(p.out_rows * p.out_cols));
    std::vector<double> row_max(static_cast<size_t>(p.out_rows), 0.0);
    ipt::cpu::parallel_for(0, p.out_rows, [&](int64_t r) {
        double mx = 0;
        for (int64_t c = 0; c < p.out_cols; ++c) {
            const int64_t i = r * p.out_cols + c;
            ipt::frontend::normxcorr2_terms(p, tp.t.data(), tp.sum, tp.denom_t, r, c, load, C[i], denom[i]);
            mx = std::max(mx, denom[i]);
        }
        row_max[r] = mx;
    }, 2);
    const double tol = ipt::frontend::normxcorr2_tolerance(*std::max_element(row_max.begin(), row_max.end()));
    ipt::cpu::parallel_for(0, p.out_rows, [&](int64_t r) {
        for (int64_t c = 0; c < p.out_cols; ++c) {
            const int64_t i = r * p.out_cols + c;
            C[i] = ipt::frontend::normxcorr2_value(C[i], denom[i], tol);
        }
    }, 16);
}

#ifdef IPT_HAVE_FFTW

// Window sums of integers below 2^16 and of their squares: int64 is exact
// in any order (2^31 windows of 2^32 would be needed to overflow).
struct IntSum {
    int64_t v = 0;
    void add(int64_t x) { v += x; }
    void sub(int64_t x) { v -= x; }
    void add_square(int64_t x) { v += x * x; }
    void sub_square(int64_t x) { v -= x * x; }
    void add(const IntSum& o) { v += o.v; }
    void sub(const IntSum& o) { v -= o.v; }
    ipt::frontend::Normxcorr2Sum exact() const {
        const double hi = static_cast<double>(v);
        return {hi, static_cast<double>(v - static_cast<int64_t>(hi))};
    }
};

// Any other class: double-double.
struct DdSum : ipt::frontend::Normxcorr2Sum {
    void add(double x) { Normxcorr2Sum::add(x); }
    void sub(double x) { Normxcorr2Sum::sub(x); }
    void add(const DdSum& o) { Normxcorr2Sum::add(o); }
    void sub(const DdSum& o) { Normxcorr2Sum::sub(o); }
    const Normxcorr2Sum& exact() const { return *this; }
};

// Classes whose shifted values are integers below 2^16.
template <class A>
constexpr bool kSmallIntegers = std::is_integral_v<A> && sizeof(A) <= 2;

// denom(r, c) for every output from the exact window sums s1 = sum(a), s2 =
// sum(a.^2) (normxcorr2_denom_exact); row_max(r)
// the largest of row r. Output rows are split into chunks; each chunk's
// column sums start from a direct sum of the rows above it, then slide: add
// A's row r, drop row r - m. Along a row the window slides the same way over
// the column sums.
template <class Acc, class Value>
void window_denominators(const Normxcorr2Plan& p, double denom_t, Value value, double* denom, double* row_max) {
    const int64_t rows_per = std::max<int64_t>(32, p.m);
    const int64_t chunks = (p.out_rows + rows_per - 1) / rows_per;
    ipt::cpu::parallel_for(0, chunks, [&](int64_t k) {
        const int64_t r0 = k * rows_per, r1 = std::min(p.out_rows, r0 + rows_per);
        std::vector<Acc> c1(static_cast<size_t>(p.q)), c2(static_cast<size_t>(p.q));
        // Column windows of output row r cover A's rows r-m+1 .. r; start at r0-1's.
        for (int64_t y = std::max<int64_t>(0, r0 - p.m); y < std::min(p.p, r0); ++y)
            for (int64_t x = 0; x < p.q; ++x) {
                const auto v = value(y * p.q + x);
                c1[x].add(v);
                c2[x].add_square(v);
            }
        for (int64_t r = r0; r < r1; ++r) {
            if (r < p.p)
                for (int64_t x = 0; x < p.q; ++x) {
                    const auto v = value(r * p.q + x);
                    c1[x].add(v);
                    c2[x].add_square(v);
                }
            if (r - p.m >= 0)  // r - m <= p - 2: always a row of A
                for (int64_t x = 0; x < p.q; ++x) {
                    const auto v = value((r - p.m) * p.q + x);
                    c1[x].sub(v);
                    c2[x].sub_square(v);
                }
            Acc h1, h2;
            double mx = 0;
            double* out = denom + r * p.out_cols;
            for (int64_t c = 0; c < p.out_cols; ++c) {
                if (c < p.q) {
                    h1.add(c1[c]);
                    h2.add(c2[c]);
                }
                if (c - p.n >= 0) {  // c - n <= q - 2
                    h1.sub(c1[c - p.n]);
                    h2.sub(c2[c - p.n]);
                }
                out[c] = ipt::frontend::normxcorr2_denom_exact(p, denom_t, h1.exact(), h2.exact());
                mx = std::max(mx, out[c]);
            }
            row_max[r] = mx;
        }
    });
}

template <class A>
void run_fft(const Normxcorr2Plan& p, const Normxcorr2Template& tp, const A* a, double shift, double* C) {
    const int64_t count = p.p * p.q;
    // A centred by c (an integer for integer classes, so the centred values
    // stay exact): the FFT's error scales with the values' magnitude.
    double total = 0;
    for (int64_t i = 0; i < count; ++i) total += static_cast<double>(a[i]) - shift;
    double centre = total / static_cast<double>(count);
    if constexpr (std::is_integral_v<A>) centre = std::round(centre);
    auto centred = ipt::cpu::fft::alloc<double>(count);
    ipt::cpu::parallel_for(0, p.p, [&](int64_t y) {
        for (int64_t x = 0; x < p.q; ++x) centred[y * p.q + x] = (static_cast<double>(a[y * p.q + x]) - shift) - centre;
    }, 64);

    // The full convolution with the turned template is the output.
    const std::vector<double> k = ipt::frontend::normxcorr2_fft_kernel(p, tp);
    ipt::cpu::fft::Geometry g;
    g.ma = p.p;
    g.na = p.q;
    g.kr = p.m;
    g.kc = p.n;
    g.out_rows = p.out_rows;
    g.out_cols = p.out_cols;
    ipt::cpu::fft::convolve_2d(centred.get(), k.data(), g, [&](int64_t r, int64_t c, const double* v, int64_t n) {
        std::memcpy(C + r * p.out_cols + c, v, static_cast<size_t>(n) * sizeof(double));
    });
    centred.reset();

    std::vector<double> denom(static_cast<size_t>(p.out_rows * p.out_cols));
    std::vector<double> row_max(static_cast<size_t>(p.out_rows), 0.0);
    if constexpr (kSmallIntegers<A>) {
        const int64_t ishift = static_cast<int64_t>(shift);
        window_denominators<IntSum>(p, tp.denom_t, [&](int64_t i) { return static_cast<int64_t>(a[i]) - ishift; },
                                    denom.data(), row_max.data());
    } else {
        window_denominators<DdSum>(p, tp.denom_t, [&](int64_t i) { return static_cast<double>(a[i]) - shift; },
                                   denom.data(), row_max.data());
    }
    const double tol = ipt::frontend::normxcorr2_tolerance(*std::max_element(row_max.begin(), row_max.end()));
    ipt::cpu::parallel_for(0, p.out_rows, [&](int64_t r) {
        for (int64_t c = 0; c < p.out_cols; ++c) {
            const int64_t i = r * p.out_cols + c;
            const double num = C[i] + ipt::frontend::normxcorr2_border_term(p, tp.t0_sum.data(), centre, r, c);
            C[i] = ipt::frontend::normxcorr2_value(num, denom[i], tol);
        }
    }, 16);
}

// Whether the FFT way is expected to be faster. Costs in about nanoseconds
// (2 threads, measured at 64^2 to 1024^2, uint8): a direct window element
// ~1; an FFT tile of S x T points, two transforms and the product, ~0.25
// S T log2(S T); the running sums and the last pass ~12 per output. The FFT
// way wins from about 4x4 templates; below 16 template elements the direct
// way is kept whatever the image size.
bool fft_cheaper(const Normxcorr2Plan& p) {
    if (p.mn < 16) return false;
    const int64_t S = ipt::cpu::fft::tile_size(p.m, p.out_rows), T = ipt::cpu::fft::tile_size(p.n, p.out_cols);
    const int64_t tiles = ((p.out_rows + S - p.m) / (S - p.m + 1)) * ((p.out_cols + T - p.n) / (T - p.n + 1));
    const double outputs = static_cast<double>(p.out_rows) * static_cast<double>(p.out_cols);
    const double points = static_cast<double>(S) * static_cast<double>(T);
    const double fft = static_cast<double>(tiles) * 0.25 * points * std::log2(points) + 12.0 * outputs;
    return fft < outputs * p.mn;
}

#endif  // IPT_HAVE_FFTW

template <class A>
void run_class(const Normxcorr2Plan& p, const Normxcorr2Template& tp, double* C) {
    const A* a = static_cast<const A*>(p.A->data);
    const int64_t count = p.p * p.q;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    bool finite = true;
    for (int64_t i = 0; i < count; ++i) {
        const double v = static_cast<double>(a[i]);
        finite = finite && std::isfinite(v);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    const double shift = ipt::frontend::normxcorr2_a_shift(p, lo, finite);
#ifdef IPT_HAVE_FFTW
    double t_max = 0;
    for (double v : tp.t0) t_max = std::max(t_max, std::abs(v));
    const bool in_range = std::max(std::abs(lo), std::abs(hi)) <= ipt::common::kFftInputLimit &&
                          t_max <= ipt::common::kFftInputLimit;
    if (!tp.all_equal && in_range && fft_cheaper(p)) {
        run_fft<A>(p, tp, a, shift, C);
        return;
    }
#endif
    run_direct<A>(p, tp, [&](int64_t i) { return static_cast<double>(a[i]) - shift; }, C);
}

void run_normxcorr2(const ipt::plugin::KernelArgs& args) {
    const Normxcorr2Plan p = ipt::frontend::plan_normxcorr2(args);
    const Normxcorr2Template tp = ipt::cpu::visit_dtype(p.t_dtype, [&](auto tag) {
        using T = decltype(tag);
        return read_template<T>(p);
    });
    const ipt_tensor* C = args.output("C", IPT_DOUBLE, p.out_rows, p.out_cols, 1);
    ipt::cpu::visit_dtype(p.a_dtype, [&](auto tag) {
        using A = decltype(tag);
        run_class<A>(p, tp, static_cast<double*>(C->data));
    });
}

}  // namespace

IPT_CPU_OP("ipt.normxcorr2", "", 100, run_normxcorr2)
