// ordfilt2: see common/order_filter.cuh.
#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/order_filter.cuh"

namespace ipt::cuda {
namespace {

void run_ordfilt2(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt_tensor* a = args.image("A");
    const ipt_tensor* dom = args.image("domain");
    const ipt_tensor* st = args.image("S");
    // Conformance on an H100 (2026-11-22) found every element wrong when S is
    // given; until that is fixed the CPU answers those calls.
    if (st) ipt::plugin::unsupported("ipt.ordfilt2: additive offsets S are not handled on CUDA yet");
    if (st && (st->rows != dom->rows || st->cols != dom->cols))
        ipt::plugin::invalid("ipt.ordfilt2: parameter 'S' must have the size of domain");
    // IPT_P_HOST: domain and S are host arrays.
    const Domain d = domain_from_mask(static_cast<const uint8_t*>(dom->data), dom->rows, dom->cols,
                                      st ? static_cast<const double*>(st->data) : nullptr);
    const int64_t order = args.integer("order");
    if (order < 1 || order > static_cast<int64_t>(d.dy.size()))
        ipt::plugin::invalid("ipt.ordfilt2: parameter 'order' must be between 1 and nnz(domain)");
    const Border border = args.is("padopt", "symmetric") ? Border::Symmetric : Border::Constant;
    const ipt_tensor* b = args.output("B", st ? IPT_DOUBLE : a->dtype, a->rows, a->cols, 1);
    visit_dtype(a->dtype, [&](auto tag) {
        using T = decltype(tag);
        if (st)
            order_filter_async<T, double, double>(dptr<const T>(a), dptr<double>(b), a->rows, a->cols, d,
                                                  static_cast<int>(order), 0, border, T(0), dev.stream,
                                                  "ipt.ordfilt2");
        else
            order_filter_async<T, T, T>(dptr<const T>(a), dptr<T>(b), a->rows, a->cols, d, static_cast<int>(order),
                                        0, border, T(0), dev.stream, "ipt.ordfilt2");
    });
}

IPT_CUDA_OP("ipt.ordfilt2", "", 100, run_ordfilt2)

}  // namespace
}  // namespace ipt::cuda
