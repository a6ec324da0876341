// ipt.medfilt2: the median of each m x n neighbourhood (centre
// floor((size+1)/2)), with zero, symmetric or 'indexed' padding (1 for
// double, 0 otherwise). For an even m*n MATLAB's medfilt2 computes
//     b = imlincomb(0.5, ordfilt2(A, N/2, ...), 0.5, ordfilt2(A, N/2+1, ...))
// (b1 | b2 for logical), so integer results are (a+b)/2 computed in double and
// rounded half away from zero; its documentation's "fractional parts are
// discarded" does not describe that code (docs/cpu-morphology.md).
// Kernels: common/order_filter.hpp.
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "common/op_registry.hpp"
#include "common/order_filter.hpp"
#include "common/rounding.hpp"

namespace {

using ipt::plugin::invalid;
namespace ord = ipt::cpu::order;

void run_medfilt2(const ipt::plugin::KernelArgs& args) {
    const ipt_tensor* a = args.image("A");
    if (args.count("size") != 2) invalid("ipt.medfilt2: parameter 'size' must be [m n]");
    const double mv = args.floats("size")[0], nv = args.floats("size")[1];
    if (!(mv >= 1 && nv >= 1 && mv <= 4096 && nv <= 4096) || mv != std::floor(mv) || nv != std::floor(nv))
        invalid("ipt.medfilt2: parameter 'size' must hold whole numbers from 1 to 4096");
    const auto m = static_cast<int64_t>(mv), n = static_cast<int64_t>(nv);
    ord::Domain dom;
    dom.rows = m;
    dom.cols = n;
    dom.bits.assign(static_cast<size_t>(m * n), 1);
    ord::Padding pad;
    if (args.is("padopt", "symmetric")) {
        pad.kind = ord::PadKind::Symmetric;
    } else {
        pad.kind = ord::PadKind::Constant;
        pad.value = args.is("padopt", "indexed") && a->dtype == IPT_DOUBLE ? 1.0 : 0.0;
    }

    const ipt_tensor* b = args.output("B", a->dtype, a->rows, a->cols, a->channels);
    const int64_t plane = a->rows * a->cols;
    const int64_t count = m * n;
    ipt::cpu::visit_dtype(a->dtype, [&](auto tag) {
        using T = decltype(tag);
        for (int64_t ch = 0; ch < a->channels; ++ch) {
            const T* src = static_cast<const T*>(a->data) + ch * plane;
            T* dst = static_cast<T*>(b->data) + ch * plane;
            if (count % 2 == 1) {
                ord::filter(src, dst, a->rows, a->cols, dom, count / 2, pad);
            } else if constexpr (std::is_same_v<T, bool>) {
                // b1 | b2 is the upper of the two middle orders.
                ord::filter(src, dst, a->rows, a->cols, dom, count / 2, pad);
            } else {
                std::vector<T> upper(static_cast<size_t>(plane));
                ord::filter(src, dst, a->rows, a->cols, dom, count / 2 - 1, pad);
                ord::filter(src, upper.data(), a->rows, a->cols, dom, count / 2, pad);
                ipt::cpu::parallel_for(
                    0, a->rows,
                    [&](int64_t r) {
                        T* lo = dst + r * a->cols;
                        const T* hi = upper.data() + r * a->cols;
                        for (int64_t c = 0; c < a->cols; ++c) {
                            const double v = 0.5 * static_cast<double>(lo[c]) + 0.5 * static_cast<double>(hi[c]);
                            lo[c] = ipt::cpu::saturate_round<T>(v);
                        }
                    },
                    16);
            }
        }
    });
}

}  // namespace

IPT_CPU_OP("ipt.medfilt2", "", 100, run_medfilt2)
