// SPDX-License-Identifier: Apache-2.0
// ipt.imlincomb as the front-end plans it (common/ops/imlincomb.hpp): the
// terms summed in double from left to right, the offset last, converted once
// to the output class; channels (RGB) are combined element by element like
// any other dimension.
//
// Compiled for the baseline ISA on purpose: without FMA every product is
// rounded before it is added, so the one rounding to the output class sees
// the same double sum on every machine.
#include <algorithm>
#include <cstdint>

#include "common/convert.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/parallel.hpp"
#include "common/ops/imlincomb.hpp"

namespace {

using ipt::frontend::ImlincombPlan;

constexpr int64_t kChunk = 2048;

// acc[i] += k * A[i] for one chunk.
template <class T>
void accumulate(double* acc, const void* data, int64_t begin, int64_t n, double k, bool first) {
    const T* a = static_cast<const T*>(data) + begin;
    if (first)
        for (int64_t i = 0; i < n; ++i) acc[i] = k * static_cast<double>(a[i]);
    else
        for (int64_t i = 0; i < n; ++i) acc[i] += k * static_cast<double>(a[i]);
}

void accumulate_any(int32_t dtype, double* acc, const void* data, int64_t begin, int64_t n, double k, bool first) {
    switch (dtype) {
    case IPT_LOGICAL: accumulate<uint8_t>(acc, data, begin, n, k, first); break;
    case IPT_UINT8: accumulate<uint8_t>(acc, data, begin, n, k, first); break;
    case IPT_UINT16: accumulate<uint16_t>(acc, data, begin, n, k, first); break;
    case IPT_INT16: accumulate<int16_t>(acc, data, begin, n, k, first); break;
    case IPT_INT32: accumulate<int32_t>(acc, data, begin, n, k, first); break;
    case IPT_UINT32: accumulate<uint32_t>(acc, data, begin, n, k, first); break;
    case IPT_SINGLE: accumulate<float>(acc, data, begin, n, k, first); break;
    default: accumulate<double>(acc, data, begin, n, k, first); break;
    }
}

template <class Out>
void combine(const ImlincombPlan& plan, Out* z) {
    const int64_t n = plan.numel;
    const int64_t chunks = (n + kChunk - 1) / kChunk;
    ipt::cpu::parallel_for(0, chunks, [&](int64_t c) {
        double acc[kChunk];
        const int64_t b = c * kChunk, m = std::min(kChunk, n - b);
        for (size_t t = 0; t < plan.images.size(); ++t)
            accumulate_any(plan.in_dtype, acc, plan.images[t]->data, b, m, plan.k[t], t == 0);
        if (plan.has_offset)
            for (int64_t i = 0; i < m; ++i) acc[i] += plan.offset;
        Out* dst = z + b;
        for (int64_t i = 0; i < m; ++i) dst[i] = ipt::cpu::to_class<Out>(acc[i]);
    });
}

void run_imlincomb(const ipt::plugin::KernelArgs& args) {
    const ImlincombPlan plan = ipt::frontend::plan_imlincomb(args);
    const ipt_tensor* Z = args.output("Z", plan.out_dtype, plan.rows, plan.cols, plan.channels);
    ipt::cpu::visit_dtype(plan.out_dtype, [&](auto tag) {
        using Out = decltype(tag);
        if constexpr (!std::is_same_v<Out, bool>) combine(plan, static_cast<Out*>(Z->data));
    });
}

}  // namespace

IPT_CPU_OP("ipt.imlincomb", "", 100, run_imlincomb)
