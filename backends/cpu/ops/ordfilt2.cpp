// ipt.ordfilt2: the order-th smallest of A(p + d) (+ S(d)) over the nonzero
// cells d of the domain, centred at floor((size+1)/2), with zero or symmetric
// padding (MATLAB_SEMANTICS.md, ordfilt2). B has the class of A, or double
// when the offsets S are given (MathWorks: "the class of B is the same as the
// class of A, unless the additive offset form is used, in which case the
// class of B is double"). Kernels: common/order_filter.hpp.
#include <string>

#include "common/op_registry.hpp"
#include "common/order_filter.hpp"

namespace {

using ipt::plugin::invalid;
namespace ord = ipt::cpu::order;

void run_ordfilt2(const ipt::plugin::KernelArgs& args) {
    const ipt_tensor* a = args.image("A");
    const ipt_tensor* d = args.image("domain");
    const ipt_tensor* s = args.image("S");
    if (d->dtype != IPT_LOGICAL || d->channels != 1 || d->rows < 1 || d->cols < 1)
        invalid("ipt.ordfilt2: parameter 'domain' must be a nonempty 2-D logical array");
    ord::Domain dom;
    dom.rows = d->rows;
    dom.cols = d->cols;
    dom.bits.resize(static_cast<size_t>(d->rows * d->cols));
    const auto* db = static_cast<const uint8_t*>(d->data);
    for (size_t i = 0; i < dom.bits.size(); ++i) dom.bits[i] = db[i] != 0;
    const int64_t n = dom.count();
    const int64_t order = args.integer("order");
    if (order < 1 || order > n)
        invalid("ipt.ordfilt2: parameter 'order' must be between 1 and nnz(domain) = " + std::to_string(n));
    if (s && (s->dtype != IPT_DOUBLE || s->rows != d->rows || s->cols != d->cols || s->channels != 1))
        invalid("ipt.ordfilt2: parameter 'S' must be a double array of the size of domain");
    ord::Padding pad;
    pad.kind = args.is("padopt", "symmetric") ? ord::PadKind::Symmetric : ord::PadKind::Constant;
    pad.value = 0;

    const int32_t out_class = s ? IPT_DOUBLE : a->dtype;
    const ipt_tensor* b = args.output("B", out_class, a->rows, a->cols, a->channels);
    const int64_t plane = a->rows * a->cols;
    ipt::cpu::visit_dtype(a->dtype, [&](auto tag) {
        using T = decltype(tag);
        for (int64_t ch = 0; ch < a->channels; ++ch) {
            const T* src = static_cast<const T*>(a->data) + ch * plane;
            if (s)
                ord::filter_offsets(src, static_cast<double*>(b->data) + ch * plane, a->rows, a->cols, dom, order - 1,
                                    static_cast<const double*>(s->data), pad);
            else
                ord::filter(src, static_cast<T*>(b->data) + ch * plane, a->rows, a->cols, dom, order - 1, pad);
        }
    });
}

}  // namespace

IPT_CPU_OP("ipt.ordfilt2", "", 100, run_ordfilt2)
