// ipt.imcomplement as the front-end plans it (common/ops/imcomplement.hpp):
// every element, every channel, through imcomplement_value in I's class.
#include <algorithm>
#include <cstdint>

#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/parallel.hpp"
#include "common/ops/imcomplement.hpp"

namespace {

constexpr int64_t kChunk = 1 << 15;

template <class T>
void complement(const T* in, T* out, int64_t n) {
    const int64_t chunks = (n + kChunk - 1) / kChunk;
    ipt::cpu::parallel_for(0, chunks, [&](int64_t c) {
        const int64_t b = c * kChunk, e = std::min(n, b + kChunk);
        for (int64_t i = b; i < e; ++i) out[i] = ipt::frontend::imcomplement_value(in[i]);
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
