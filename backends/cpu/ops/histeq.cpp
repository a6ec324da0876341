// SPDX-License-Identifier: Apache-2.0
// ipt.histeq as the front-end plans it (common/ops/histeq.hpp): imhist's
// 256-bin histogram over every element, the transformation and its table on
// the host, then each value replaced by the table entry of its bin (uint8:
// intlut's table pass, the value being the bin).
#include <cstring>
#include <type_traits>
#include <vector>

#include "common/elementwise.hpp"
#include "common/histogram.hpp"
#include "common/image.hpp"
#include "common/lut.hpp"
#include "common/op_registry.hpp"
#include "common/ops/histeq.hpp"

namespace {

using ipt::frontend::HisteqPlan;

template <class T>
void equalize(const HisteqPlan& plan, const ipt_tensor* J, std::vector<double>& T_out) {
    const T* in = static_cast<const T*>(plan.I->data);
    const std::vector<uint64_t> counts = ipt::cpu::histogram(in, plan.numel, HisteqPlan::nbins);
    T_out = ipt::frontend::histeq_transform(plan, counts.data());
    const std::vector<T> table = ipt::frontend::histeq_table<T>(T_out);
    T* out = static_cast<T*>(J->data);
    const T* lut = table.data();
    if constexpr (std::is_same_v<T, uint8_t>) {
        ipt::cpu::apply_lut(in, out, plan.numel, lut);  // 256 bins: the value is the bin
        return;
    }
    ipt::cpu::for_each_range(plan.numel, 2 * sizeof(T), [in, out, lut](int64_t first, int64_t last) {
        const T* src = in;
        const T* t = lut;
        T* dst = out;
        for (int64_t i = first; i < last; ++i) dst[i] = t[ipt::common::histogram_bin(src[i], HisteqPlan::nbins)];
    });
}

void run_histeq(const ipt::plugin::KernelArgs& args) {
    const HisteqPlan plan = ipt::frontend::plan_histeq(args);
    const ipt_tensor* J = args.output("J", plan.out_dtype, plan.I->rows, plan.I->cols, plan.channels);
    std::vector<double> T;
    ipt::cpu::visit_dtype(plan.dtype, [&](auto tag) {
        using C = decltype(tag);
        if constexpr (std::is_same_v<C, uint8_t> || std::is_same_v<C, uint16_t> || std::is_same_v<C, int16_t> ||
                      std::is_floating_point_v<C>)
            equalize<C>(plan, J, T);
        else
            ipt::plugin::unsupported("ipt.histeq: class not handled");
    });
    if (args.wanted("T")) {
        const ipt_tensor* t = args.output("T", IPT_DOUBLE, plan.t_rows, plan.t_cols, 1);
        std::memcpy(t->data, T.data(), T.size() * sizeof(double));
    }
}

}  // namespace

IPT_CPU_OP("ipt.histeq", "", 100, run_histeq)
