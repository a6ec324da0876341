// SPDX-License-Identifier: Apache-2.0
// ipt.conv2: C = conv2(A,B,shape) and C = conv2(u,v,A,shape).
//
// Two implementations:
//  - "" (direct): the shared correlation engine (common/correlate.hpp) with
//    the kernel rotated by 180 degrees; separable passes for conv2(u,v,A) and
//    for a B that is exactly rank 1. Accumulates in the output class (float
//    for single, double otherwise), error <= gamma(kr + kc) (|A|*|B|)(p).
//  - "fft": FFTW in double precision (common/fft_convolve.hpp). Preferred by
//    priority, but declines (IPT_ERR_UNSUPPORTED) below the measured
//    crossover, for non-finite values, and for empty operands.
//
// Sizes, offsets and the output class come from the front-end
// (common/ops/conv2.hpp).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "common/correlate.hpp"
#include "common/fft_limits.hpp"
#include "common/fft_convolve.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/ops/conv2.hpp"

namespace {

using ipt::frontend::Conv2Plan;
using ipt::plugin::KernelArgs;

int64_t numel(const ipt_tensor* t) { return t->rows * t->cols; }

template <class T>
bool all_finite(const ipt_tensor* t) {
    const T* p = static_cast<const T*>(t->data);
    const int64_t n = numel(t);
    bool ok = true;
    for (int64_t i = 0; i < n; ++i) ok &= std::isfinite(p[i]);
    return ok;
}
bool all_finite(const ipt_tensor* t) {
    if (!t) return true;
    return t->dtype == IPT_SINGLE ? all_finite<float>(t) : all_finite<double>(t);
}

#ifdef IPT_HAVE_FFTW
using ipt::common::kFftInputLimit;

template <class T>
bool fft_safe(const ipt_tensor* t) {
    const T* p = static_cast<const T*>(t->data);
    const int64_t n = numel(t);
    bool ok = true;
    for (int64_t i = 0; i < n; ++i) ok &= std::abs(static_cast<double>(p[i])) <= kFftInputLimit;  // false for NaN
    return ok;
}
bool fft_safe(const ipt_tensor* t) {
    if (!t) return true;
    return t->dtype == IPT_SINGLE ? fft_safe<float>(t) : fft_safe<double>(t);
}
#endif  // IPT_HAVE_FFTW
bool has_zero(const ipt_tensor* t) {
    if (!t) return false;
    const int64_t n = numel(t);
    if (t->dtype == IPT_SINGLE) {
        const float* p = static_cast<const float*>(t->data);
        return std::any_of(p, p + n, [](float x) { return x == 0; });
    }
    const double* p = static_cast<const double*>(t->data);
    return std::any_of(p, p + n, [](double x) { return x == 0; });
}

template <class T>
T element(const ipt_tensor* t, int64_t i) {
    return t->dtype == IPT_SINGLE ? static_cast<T>(static_cast<const float*>(t->data)[i])
                                  : static_cast<T>(static_cast<const double*>(t->data)[i]);
}

// MATLAB's definition summed over the overlapping terms only, every product
// included (a zero weight times Inf is NaN, and nothing outside A is
// multiplied). Used when the kernel holds Inf or NaN, or holds zeros while A
// holds Inf or NaN, where zero padding or dropped zero taps would differ.
template <class Out>
void conv2_exact(const Conv2Plan& c, Out* C) {
    auto a = [&](int64_t i, int64_t j) { return element<double>(c.A, i * c.na + j); };
    if (!c.separable) {
        ipt::cpu::parallel_for(0, c.out_rows, [&](int64_t o) {
            const int64_t p = o + c.first_r;
            for (int64_t oc = 0; oc < c.out_cols; ++oc) {
                const int64_t q = oc + c.first_c;
                double s = 0;
                for (int64_t i = std::max<int64_t>(0, p - c.kr + 1); i <= std::min(c.ma - 1, p); ++i)
                    for (int64_t j = std::max<int64_t>(0, q - c.kc + 1); j <= std::min(c.na - 1, q); ++j)
                        s += a(i, j) * element<double>(c.B, (p - i) * c.kc + (q - j));
                C[o * c.out_cols + oc] = static_cast<Out>(s);
            }
        });
        return;
    }
    // conv2(u,v,A): the columns with u, then the rows of the result with v.
    std::vector<double> T(static_cast<size_t>(c.out_rows * c.na));
    ipt::cpu::parallel_for(0, c.out_rows, [&](int64_t o) {
        const int64_t p = o + c.first_r;
        for (int64_t j = 0; j < c.na; ++j) {
            double s = 0;
            for (int64_t i = std::max<int64_t>(0, p - c.kr + 1); i <= std::min(c.ma - 1, p); ++i)
                s += a(i, j) * element<double>(c.u, p - i);
            T[static_cast<size_t>(o * c.na + j)] = s;
        }
        for (int64_t oc = 0; oc < c.out_cols; ++oc) {
            const int64_t q = oc + c.first_c;
            double s = 0;
            for (int64_t j = std::max<int64_t>(0, q - c.kc + 1); j <= std::min(c.na - 1, q); ++j)
                s += T[static_cast<size_t>(o * c.na + j)] * element<double>(c.v, q - j);
            C[o * c.out_cols + oc] = static_cast<Out>(s);
        }
    });
}

// Kernel values of a tensor as doubles (any float class), row-major.
std::vector<double> as_doubles(const ipt_tensor* t) {
    std::vector<double> out(static_cast<size_t>(numel(t)));
    for (int64_t i = 0; i < numel(t); ++i) out[static_cast<size_t>(i)] = element<double>(t, i);
    return out;
}

template <class Acc, class TA>
void conv2_engine(const Conv2Plan& c, Acc* C) {
    ipt::cpu::FilterPlan<Acc> plan;
    if (c.separable) {
        const auto u = as_doubles(c.u), v = as_doubles(c.v);
        plan = ipt::cpu::make_separable_plan<Acc>(u.data(), c.kr, v.data(), c.kc, true);
    } else {
        const auto b = as_doubles(c.B);
        plan = ipt::cpu::make_filter_plan<Acc>(b.data(), c.kr, c.kc, true, true);
    }
    // Padded row p holds A's row p - top; column q holds A's column q - left.
    const int64_t top = c.top(), left = c.left();
    const int64_t pcols = c.out_cols + c.kc - 1;
    const TA* A = static_cast<const TA*>(c.A->data);
    const int64_t c0 = std::clamp<int64_t>(left, 0, pcols);
    const int64_t c1 = std::clamp<int64_t>(left + c.na, c0, pcols);
    auto fill = [&](int64_t p, Acc* dst) {
        const int64_t r = p - top;
        if (r < 0 || r >= c.ma) {
            std::fill(dst, dst + pcols, Acc(0));
            return;
        }
        std::fill(dst, dst + c0, Acc(0));
        const TA* src = A + r * c.na + (c0 - left);
        for (int64_t q = c0; q < c1; ++q) dst[q] = static_cast<Acc>(src[q - c0]);
        std::fill(dst + c1, dst + pcols, Acc(0));
    };
    ipt::cpu::run_filter_plan_into(plan, c.out_rows, c.out_cols, fill, C, c.out_cols);
}

template <class Acc>
void conv2_direct(const Conv2Plan& c, Acc* C) {
    const int64_t n = c.out_rows * c.out_cols;
    if (n == 0) return;
    if (c.operand_empty()) {
        std::fill(C, C + n, Acc(0));
        return;
    }
    const bool kernel_finite = all_finite(c.B) && all_finite(c.u) && all_finite(c.v);
    const bool kernel_zeros = has_zero(c.B) || has_zero(c.u) || has_zero(c.v);
    if (!kernel_finite || (kernel_zeros && !all_finite(c.A))) {
        conv2_exact(c, C);
        return;
    }
    if (c.A->dtype == IPT_SINGLE) conv2_engine<Acc, float>(c, C);
    else conv2_engine<Acc, double>(c, C);
}

void run_conv2(const KernelArgs& args) {
    const Conv2Plan c = ipt::frontend::plan_conv2(args);
    const ipt_tensor* C = args.output("C", c.out_class, c.out_rows, c.out_cols, 1);
    if (c.out_class == IPT_SINGLE) conv2_direct(c, static_cast<float*>(C->data));
    else conv2_direct(c, static_cast<double*>(C->data));
}

#ifdef IPT_HAVE_FFTW

// Crossover between the direct engine and the FFT on this machine (2 cores
// of a Xeon with AVX-512, shared), measured as process CPU time of each path
// alone on square random images of 256^2, 1024^2 and 2048^2 with square
// kernels 7..25 and separable kernels 31..101 (docs/cpu-backend.md has the
// table). The FFT costs about the same for any kernel, the direct engine grows
// with the taps; they meet at about 11x11-13x13 taps in double and 15x15 in
// single (the direct engine runs twice as wide in single), and at
// numel(u)+numel(v) ~ 200 for conv2(u,v,A) in double (single: never up to
// 101+101). Below these, the fft variant declines.
constexpr int64_t kFftMinTaps2D[2] = {144, 225};          // {double, single} output
constexpr int64_t kFftMinTapsSeparable[2] = {200, 400};  // numel(u) + numel(v)

template <class Out>
void conv2_fft_store(const Conv2Plan& c, Out* C) {
    auto store = [&](int64_t o, int64_t c0, const double* values, int64_t n) {
        Out* dst = C + o * c.out_cols + c0;
        for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<Out>(values[i]);
    };
    // conv2(u,v,A) is conv2(A, u(:)*v(:).'); the kernel's spectrum is taken
    // once per call at tile size, so the outer product costs nothing extra.
    std::vector<double> k;
    if (c.separable) {
        const auto u = as_doubles(c.u), v = as_doubles(c.v);
        for (double a : u)
            for (double b : v) k.push_back(a * b);
    } else {
        k = as_doubles(c.B);
    }
    ipt::cpu::fft::Geometry g;
    g.ma = c.ma, g.na = c.na, g.kr = c.kr, g.kc = c.kc;
    g.off_r = c.first_r, g.off_c = c.first_c;
    g.out_rows = c.out_rows, g.out_cols = c.out_cols;
    if (c.A->dtype == IPT_SINGLE) ipt::cpu::fft::convolve_2d(static_cast<const float*>(c.A->data), k.data(), g, store);
    else ipt::cpu::fft::convolve_2d(static_cast<const double*>(c.A->data), k.data(), g, store);
}

void run_conv2_fft(const KernelArgs& args) {
    const Conv2Plan c = ipt::frontend::plan_conv2(args);
    if (c.output_empty() || c.operand_empty())
        ipt::plugin::unsupported("ipt.conv2 (fft): empty operand, the direct variant handles it");
    const int single = c.out_class == IPT_SINGLE ? 1 : 0;
    if (c.separable ? c.kr + c.kc < kFftMinTapsSeparable[single] : c.kr * c.kc < kFftMinTaps2D[single])
        ipt::plugin::unsupported("ipt.conv2 (fft): kernel below the FFT crossover");
    if (!fft_safe(c.A) || !fft_safe(c.B) || !fft_safe(c.u) || !fft_safe(c.v))
        ipt::plugin::unsupported("ipt.conv2 (fft): Inf, NaN or a magnitude above 2^448 would spread over the whole output");
    const ipt_tensor* C = args.output("C", c.out_class, c.out_rows, c.out_cols, 1);
    if (c.out_class == IPT_SINGLE) conv2_fft_store(c, static_cast<float*>(C->data));
    else conv2_fft_store(c, static_cast<double*>(C->data));
}

#endif  // IPT_HAVE_FFTW

}  // namespace

IPT_CPU_OP("ipt.conv2", "", 100, run_conv2)
#ifdef IPT_HAVE_FFTW
IPT_CPU_OP("ipt.conv2", "fft", 110, run_conv2_fft)
#endif
