// SPDX-License-Identifier: Apache-2.0
// ipt.multithresh as the front-end plans it (common/ops/multithresh.hpp):
// the limits of A, the codes' counts, Otsu's search on the host.
#include <cstring>
#include <type_traits>
#include <vector>

#include "common/histogram.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/ops/multithresh.hpp"

namespace {

using ipt::frontend::MultithreshLimits;
using ipt::frontend::MultithreshPlan;
using ipt::frontend::MultithreshResult;

template <class T>
MultithreshLimits limits_of(const T* a, int64_t n) {
    MultithreshLimits l;
    for (int64_t i = 0; i < n; ++i) {
        const double v = static_cast<double>(a[i]);
        if (std::isnan(v)) continue;
        l.lo_all = std::min(l.lo_all, v);
        l.hi_all = std::max(l.hi_all, v);
        if (std::isinf(v)) continue;
        l.lo = std::min(l.lo, v);
        l.hi = std::max(l.hi, v);
    }
    return l;
}

void run_multithresh(const ipt::plugin::KernelArgs& args) {
    const MultithreshPlan plan = ipt::frontend::plan_multithresh(args);
    MultithreshResult r;
    ipt::cpu::visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t> ||
                      std::is_floating_point_v<T>) {
            const T* a = static_cast<const T*>(plan.A->data);
            const MultithreshLimits l = limits_of(a, plan.numel);
            if (ipt::frontend::multithresh_without_histogram(plan, l, r)) return;
            const std::vector<uint64_t> codes =
                ipt::cpu::histogram_by(a, plan.numel, MultithreshPlan::ncodes, [&](T v) {
                    return static_cast<int64_t>(ipt::frontend::multithresh_code(v, l.lo, l.hi));
                });
            r = ipt::frontend::multithresh_from_counts(plan, l, codes.data());
        }
    });
    const std::vector<unsigned char> bytes = ipt::frontend::multithresh_bytes(r, plan.dtype);
    const ipt_tensor* t = args.output("thresh", plan.dtype, 1, plan.N, 1);
    std::memcpy(t->data, bytes.data(), bytes.size());
    if (args.wanted("metric")) *static_cast<double*>(args.output("metric", IPT_DOUBLE, 1, 1, 1)->data) = r.metric;
}

}  // namespace

IPT_CPU_OP("ipt.multithresh", "", 100, run_multithresh)
