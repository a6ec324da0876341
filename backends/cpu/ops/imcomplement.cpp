// SPDX-License-Identifier: Apache-2.0
// ipt.imcomplement as the front-end plans it (common/ops/imcomplement.hpp):
// every element, every channel, through imcomplement_value in I's class.
#include <cstdint>

#include "common/elementwise.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/ops/imcomplement.hpp"

namespace {

template <class T>
void complement(const T* in, T* out, int64_t n) {
    ipt::cpu::for_each_range(n, 2 * sizeof(T), [in, out](int64_t first, int64_t last) {
        const T* src = in;
        T* dst = out;
        for (int64_t i = first; i < last; ++i) dst[i] = ipt::frontend::imcomplement_value(src[i]);
    });
}

void run_imcomplement(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::ImcomplementPlan plan = ipt::frontend::plan_imcomplement(args);
    const ipt_tensor* J = args.output("J", plan.dtype, plan.rows, plan.cols, plan.channels);
    ipt::cpu::visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        complement(static_cast<const T*>(plan.I->data), static_cast<T*>(J->data), plan.numel);
    });
}

}  // namespace

IPT_CPU_OP("ipt.imcomplement", "", 100, run_imcomplement)
