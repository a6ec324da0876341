// ipt.intlut: B = LUT(A+1) for uint8 and uint16, B = LUT(A+32769) for int16
// (MATLAB_SEMANTICS.md, intlut). Every channel plane uses the same table.
#include <string>
#include <type_traits>

#include "common/image.hpp"
#include "common/lut.hpp"
#include "common/op_registry.hpp"

namespace {

using ipt::plugin::KernelArgs;

void run_intlut(const KernelArgs& args) {
    const ipt_tensor* a = args.image("A");
    const ipt_tensor* lut = args.image("LUT");
    // The registry checks these (IPT_P_LUT, IPT_P_SAME_DTYPE); the table is read
    // without bounds checks, so check again.
    if (a->dtype != IPT_UINT8 && a->dtype != IPT_UINT16 && a->dtype != IPT_INT16)
        ipt::plugin::invalid("ipt.intlut: parameter 'A' must be uint8, uint16 or int16");
    if (lut->dtype != a->dtype)
        ipt::plugin::invalid("ipt.intlut: parameter 'LUT' must have the class of A");
    const int64_t entries = a->dtype == IPT_UINT8 ? 256 : 65536;
    if (lut->rows * lut->cols * lut->channels != entries || lut->channels != 1 ||
        (lut->rows != 1 && lut->cols != 1))
        ipt::plugin::invalid("ipt.intlut: parameter 'LUT' must be a vector of " +
                             std::to_string(entries) + " entries");

    const ipt_tensor* b = args.output("B", a->dtype, a->rows, a->cols, a->channels);
    const int64_t n = a->rows * a->cols * a->channels;
    ipt::cpu::visit_dtype(a->dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> ||
                      std::is_same_v<T, int16_t>)
            ipt::cpu::apply_lut(static_cast<const T*>(a->data), static_cast<T*>(b->data), n,
                                static_cast<const T*>(lut->data));
    });
}

}  // namespace

IPT_CPU_OP("ipt.intlut", "", 100, run_intlut)
