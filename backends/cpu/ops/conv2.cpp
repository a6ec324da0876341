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
// Sizes follow MATLAB's conv2 help: 'full' is max([ma+mb-1, ma, mb]) by
// max([na+nb-1, na, nb]); 'same' is size(A), taken from full at
// (floor(mb/2), floor(nb/2)) (MATLAB_SEMANTICS.md pitfall 4); 'valid' is
// max(ma - max(0, mb-1), 0) by max(na - max(0, nb-1), 0) and may be empty.
// For conv2(u,v,A), mb = numel(u) and nb = numel(v).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "common/correlate.hpp"
#include "common/fft_convolve.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"

namespace {

using ipt::plugin::invalid;
using ipt::plugin::KernelArgs;

enum class Shape { Full, Same, Valid };

// Everything a conv2 call needs, checked before any output is allocated.
struct Conv2Call {
    const ipt_tensor* A = nullptr;
    const ipt_tensor* B = nullptr;  // non-separable kernel
    const ipt_tensor* u = nullptr;  // separable kernels
    const ipt_tensor* v = nullptr;
    Shape shape = Shape::Full;
    int32_t out_dtype = IPT_DOUBLE;
    int64_t kr = 0, kc = 0;
    ipt::cpu::fft::Geometry g;  // plain struct; used by both variants

    bool separable() const { return B == nullptr; }
};

int64_t numel(const ipt_tensor* t) { return t->rows * t->cols; }

// The class rule of the catalogue: single only when every input is single.
int32_t output_class(const Conv2Call& c) {
    bool all_single = c.A->dtype == IPT_SINGLE;
    for (const ipt_tensor* t : {c.B, c.u, c.v})
        if (t && t->dtype != IPT_SINGLE) all_single = false;
    return all_single ? IPT_SINGLE : IPT_DOUBLE;
}

Conv2Call parse(const KernelArgs& args) {
    Conv2Call c;
    c.A = args.image("A");
    c.B = args.image("B");
    c.u = args.image("u");
    c.v = args.image("v");
    if (!c.A) invalid("ipt.conv2: parameter 'A' is required");
    if (c.B && (c.u || c.v))
        invalid("ipt.conv2: give either parameter 'B' or parameters 'u' and 'v', not both");
    if (!c.B && !(c.u && c.v)) {
        if (c.u || c.v)
            invalid(std::string("ipt.conv2: parameter '") + (c.u ? "v" : "u") +
                    "' is required with '" + (c.u ? "u" : "v") + "' (conv2(u,v,A))");
        invalid("ipt.conv2: parameter 'B' (or 'u' and 'v') is required");
    }
    for (auto [name, t] : {std::pair{"A", c.A}, {"B", c.B}, {"u", c.u}, {"v", c.v}}) {
        if (!t) continue;
        if (t->dtype != IPT_SINGLE && t->dtype != IPT_DOUBLE)
            invalid(std::string("ipt.conv2: parameter '") + name + "' must be single or double");
        if (t->channels != 1)
            invalid(std::string("ipt.conv2: parameter '") + name + "' must have one channel");
    }
    for (auto [name, t] : {std::pair{"u", c.u}, {"v", c.v}})
        if (t && t->rows > 1 && t->cols > 1)
            invalid(std::string("ipt.conv2: parameter '") + name + "' must be a vector");
    if (!args.is("shape", "full") && !args.is("shape", "same") && !args.is("shape", "valid"))
        invalid("ipt.conv2: parameter 'shape' must be 'full', 'same' or 'valid'");
    c.shape = args.is("shape", "same") ? Shape::Same : args.is("shape", "valid") ? Shape::Valid : Shape::Full;
    c.out_dtype = output_class(c);
    c.kr = c.B ? c.B->rows : numel(c.u);
    c.kc = c.B ? c.B->cols : numel(c.v);

    auto& g = c.g;
    g.ma = c.A->rows;
    g.na = c.A->cols;
    g.kr = c.kr;
    g.kc = c.kc;
    switch (c.shape) {
    case Shape::Full:
        g.out_rows = std::max({g.ma + g.kr - 1, g.ma, g.kr});
        g.out_cols = std::max({g.na + g.kc - 1, g.na, g.kc});
        g.off_r = g.off_c = 0;
        break;
    case Shape::Same:
        g.out_rows = g.ma;
        g.out_cols = g.na;
        g.off_r = g.kr / 2;
        g.off_c = g.kc / 2;
        break;
    case Shape::Valid:
        g.out_rows = std::max<int64_t>(g.ma - std::max<int64_t>(0, g.kr - 1), 0);
        g.out_cols = std::max<int64_t>(g.na - std::max<int64_t>(0, g.kc - 1), 0);
        g.off_r = std::max<int64_t>(g.kr - 1, 0);
        g.off_c = std::max<int64_t>(g.kc - 1, 0);
        break;
    }
    return c;
}

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
void conv2_exact(const Conv2Call& c, Out* C) {
    const auto& g = c.g;
    auto a = [&](int64_t i, int64_t j) { return element<double>(c.A, i * g.na + j); };
    if (!c.separable()) {
        ipt::cpu::parallel_for(0, g.out_rows, [&](int64_t o) {
            const int64_t p = o + g.off_r;
            for (int64_t oc = 0; oc < g.out_cols; ++oc) {
                const int64_t q = oc + g.off_c;
                double s = 0;
                for (int64_t i = std::max<int64_t>(0, p - g.kr + 1); i <= std::min(g.ma - 1, p); ++i)
                    for (int64_t j = std::max<int64_t>(0, q - g.kc + 1); j <= std::min(g.na - 1, q); ++j)
                        s += a(i, j) * element<double>(c.B, (p - i) * g.kc + (q - j));
                C[o * g.out_cols + oc] = static_cast<Out>(s);
            }
        });
        return;
    }
    // conv2(u,v,A): the columns with u, then the rows of the result with v.
    std::vector<double> T(static_cast<size_t>(g.out_rows * g.na));
    ipt::cpu::parallel_for(0, g.out_rows, [&](int64_t o) {
        const int64_t p = o + g.off_r;
        for (int64_t j = 0; j < g.na; ++j) {
            double s = 0;
            for (int64_t i = std::max<int64_t>(0, p - g.kr + 1); i <= std::min(g.ma - 1, p); ++i)
                s += a(i, j) * element<double>(c.u, p - i);
            T[static_cast<size_t>(o * g.na + j)] = s;
        }
        for (int64_t oc = 0; oc < g.out_cols; ++oc) {
            const int64_t q = oc + g.off_c;
            double s = 0;
            for (int64_t j = std::max<int64_t>(0, q - g.kc + 1); j <= std::min(g.na - 1, q); ++j)
                s += T[static_cast<size_t>(o * g.na + j)] * element<double>(c.v, q - j);
            C[o * g.out_cols + oc] = static_cast<Out>(s);
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
void conv2_engine(const Conv2Call& c, Acc* C) {
    const auto& g = c.g;
    ipt::cpu::FilterPlan<Acc> plan;
    if (c.separable()) {
        const auto u = as_doubles(c.u), v = as_doubles(c.v);
        plan = ipt::cpu::make_separable_plan<Acc>(u.data(), c.kr, v.data(), c.kc, true);
    } else {
        const auto b = as_doubles(c.B);
        plan = ipt::cpu::make_filter_plan<Acc>(b.data(), c.kr, c.kc, true, true);
    }
    // Padded row p holds A's row p - top; column q holds A's column q - left.
    const int64_t top = g.kr - 1 - g.off_r, left = g.kc - 1 - g.off_c;
    const int64_t pcols = g.out_cols + g.kc - 1;
    const TA* A = static_cast<const TA*>(c.A->data);
    const int64_t c0 = std::clamp<int64_t>(left, 0, pcols);
    const int64_t c1 = std::clamp<int64_t>(left + g.na, c0, pcols);
    auto fill = [&](int64_t p, Acc* dst) {
        const int64_t r = p - top;
        if (r < 0 || r >= g.ma) {
            std::fill(dst, dst + pcols, Acc(0));
            return;
        }
        std::fill(dst, dst + c0, Acc(0));
        const TA* src = A + r * g.na + (c0 - left);
        for (int64_t q = c0; q < c1; ++q) dst[q] = static_cast<Acc>(src[q - c0]);
        std::fill(dst + c1, dst + pcols, Acc(0));
    };
    ipt::cpu::run_filter_plan_into(plan, g.out_rows, g.out_cols, fill, C, g.out_cols);
}

template <class Acc>
void conv2_direct(const Conv2Call& c, Acc* C) {
    const auto& g = c.g;
    const int64_t n = g.out_rows * g.out_cols;
    if (n == 0) return;
    if (g.ma == 0 || g.na == 0 || g.kr == 0 || g.kc == 0) {
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
    const Conv2Call c = parse(args);
    const ipt_tensor* C = args.output("C", c.out_dtype, c.g.out_rows, c.g.out_cols, 1);
    if (c.out_dtype == IPT_SINGLE) conv2_direct(c, static_cast<float*>(C->data));
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
void conv2_fft_store(const Conv2Call& c, Out* C) {
    auto store = [&](int64_t o, int64_t c0, const double* values, int64_t n) {
        Out* dst = C + o * c.g.out_cols + c0;
        for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<Out>(values[i]);
    };
    // conv2(u,v,A) is conv2(A, u(:)*v(:).'); the kernel's spectrum is taken
    // once per call at tile size, so the outer product costs nothing extra.
    std::vector<double> k;
    if (c.separable()) {
        const auto u = as_doubles(c.u), v = as_doubles(c.v);
        for (double a : u)
            for (double b : v) k.push_back(a * b);
    } else {
        k = as_doubles(c.B);
    }
    if (c.A->dtype == IPT_SINGLE) ipt::cpu::fft::convolve_2d(static_cast<const float*>(c.A->data), k.data(), c.g, store);
    else ipt::cpu::fft::convolve_2d(static_cast<const double*>(c.A->data), k.data(), c.g, store);
}

void run_conv2_fft(const KernelArgs& args) {
    const Conv2Call c = parse(args);
    const auto& g = c.g;
    if (g.out_rows * g.out_cols == 0 || g.ma * g.na == 0 || g.kr * g.kc == 0)
        ipt::plugin::unsupported("ipt.conv2 (fft): empty operand, the direct variant handles it");
    const int single = c.out_dtype == IPT_SINGLE ? 1 : 0;
    if (c.separable() ? c.kr + c.kc < kFftMinTapsSeparable[single] : c.kr * c.kc < kFftMinTaps2D[single])
        ipt::plugin::unsupported("ipt.conv2 (fft): kernel below the FFT crossover");
    if (!all_finite(c.A) || !all_finite(c.B) || !all_finite(c.u) || !all_finite(c.v))
        ipt::plugin::unsupported("ipt.conv2 (fft): Inf or NaN would spread over the whole output");
    const ipt_tensor* C = args.output("C", c.out_dtype, g.out_rows, g.out_cols, 1);
    if (c.out_dtype == IPT_SINGLE) conv2_fft_store(c, static_cast<float*>(C->data));
    else conv2_fft_store(c, static_cast<double*>(C->data));
}

#endif  // IPT_HAVE_FFTW

}  // namespace

IPT_CPU_OP("ipt.conv2", "", 100, run_conv2)
#ifdef IPT_HAVE_FFTW
IPT_CPU_OP("ipt.conv2", "fft", 110, run_conv2_fft)
#endif
