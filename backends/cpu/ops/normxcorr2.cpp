// ipt.normxcorr2 as the front-end plans it (common/ops/normxcorr2.hpp): the
// template's statistics and A's shift on the host, then per output the
// direct window sums (the front-end's arithmetic, shared with the GPU
// backends), the largest denominator, and the coefficients.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/parallel.hpp"
#include "common/ops/normxcorr2.hpp"

namespace {

using ipt::frontend::Normxcorr2Plan;

template <class T>
ipt::frontend::Normxcorr2Template read_template(const Normxcorr2Plan& p) {
    return ipt::frontend::normxcorr2_template(p, static_cast<const T*>(p.T->data));
}

template <class A>
void run_class(const Normxcorr2Plan& p, const ipt::frontend::Normxcorr2Template& tp, double* C) {
    const A* a = static_cast<const A*>(p.A->data);
    const int64_t count = p.p * p.q;
    double lo = std::numeric_limits<double>::infinity();
    bool finite = true;
    for (int64_t i = 0; i < count; ++i) {
        const double v = static_cast<double>(a[i]);
        finite = finite && std::isfinite(v);
        lo = std::min(lo, v);
    }
    const double shift = ipt::frontend::normxcorr2_a_shift(p, lo, finite);
    const auto load = [&](int64_t i) { return static_cast<double>(a[i]) - shift; };
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

void run_normxcorr2(const ipt::plugin::KernelArgs& args) {
    const Normxcorr2Plan p = ipt::frontend::plan_normxcorr2(args);
    const ipt::frontend::Normxcorr2Template tp = ipt::cpu::visit_dtype(p.t_dtype, [&](auto tag) {
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
