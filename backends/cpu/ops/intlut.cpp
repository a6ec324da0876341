// ipt.intlut: B = LUT(A+1) for uint8 and uint16, B = LUT(A+32769) for int16
// (MATLAB_SEMANTICS.md, intlut). Every channel plane uses the same table.
#include <type_traits>

#include "common/image.hpp"
#include "common/lut.hpp"
#include "common/op_registry.hpp"
#include "intensity.hpp"

namespace {

using ipt::plugin::KernelArgs;

void run_intlut(const KernelArgs& args) {
    const ipt_tensor* a = args.image("A");
    const ipt_tensor* lut = args.image("LUT");
    ipt::common::check_intlut_args(args);
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
