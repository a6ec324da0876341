// SPDX-License-Identifier: Apache-2.0
// ipt.intlut as the front-end plans it (common/ops/intlut.hpp): every channel
// plane through the one table.
#include <type_traits>

#include "common/image.hpp"
#include "common/lut.hpp"
#include "common/op_registry.hpp"
#include "common/ops/intlut.hpp"

namespace {

void run_intlut(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::IntlutPlan plan = ipt::frontend::plan_intlut(args);
    const ipt_tensor* b = args.output("B", plan.dtype, plan.rows, plan.cols, plan.channels);
    ipt::cpu::visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t>)
            ipt::cpu::apply_lut(static_cast<const T*>(plan.A->data), static_cast<T*>(b->data), plan.numel,
                                static_cast<const T*>(plan.LUT->data));
    });
}

}  // namespace

IPT_CPU_OP("ipt.intlut", "", 100, run_intlut)
