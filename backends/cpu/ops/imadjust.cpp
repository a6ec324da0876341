// SPDX-License-Identifier: Apache-2.0
// ipt.imadjust as the front-end plans it (common/ops/imadjust.hpp): single
// and double through the curve per element, uint8, uint16 and int16 through
// the front-end's table. Without low_high_in the limits are stretchlim(I) per
// channel (common/histogram.hpp), and the table is built from them.
#include <algorithm>
#include <type_traits>
#include <vector>

#include "common/histogram.hpp"
#include "common/image.hpp"
#include "common/lut.hpp"
#include "common/op_registry.hpp"
#include "common/ops/imadjust.hpp"

namespace {

using ipt::common::AdjustCurve;
using ipt::frontend::ImadjustPlan;

template <class T>
void adjust_floats(const T* in, T* out, int64_t n, const AdjustCurve& curve) {
    constexpr int64_t kBlock = 1 << 14;
    ipt::cpu::parallel_for(0, (n + kBlock - 1) / kBlock, [&](int64_t b) {
        const int64_t begin = b * kBlock, end = std::min(n, begin + kBlock);
        for (int64_t i = begin; i < end; ++i) out[i] = static_cast<T>(curve(static_cast<double>(in[i])));
    });
}

// stretchlim(I) per channel: 2 x channels, row 0 low, row 1 high.
template <class T>
std::vector<double> default_limits(const ImadjustPlan& plan, const ipt::cpu::View<const T>& in) {
    const auto& s = plan.default_limits;
    std::vector<double> limits(static_cast<size_t>(2 * plan.channels));
    for (int64_t ch = 0; ch < plan.channels; ++ch) {
        const auto [low, high] = ipt::cpu::stretchlim_plane(in.plane(ch), s.plane, s.nbins, s.tol_low, s.tol_high);
        limits[ch] = low;
        limits[plan.channels + ch] = high;
    }
    return limits;
}

void run_imadjust(const ipt::plugin::KernelArgs& args) {
    const ImadjustPlan plan = ipt::frontend::plan_imadjust(args);
    const ipt_tensor* out = args.output("J", plan.dtype, plan.rows, plan.cols, plan.channels);
    if (plan.plane == 0) return;
    ipt::cpu::visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        const auto in = ipt::cpu::view<T>(plan.I);
        const auto j = ipt::cpu::mutable_view<T>(out);
        if constexpr (std::is_floating_point_v<T>) {
            std::vector<AdjustCurve> curves = plan.curves;
            if (!plan.limits_given) {
                const std::vector<double> limits = default_limits(plan, in);
                for (int64_t ch = 0; ch < plan.channels; ++ch) {
                    curves[ch].low_in = limits[ch];
                    curves[ch].high_in = limits[plan.channels + ch];
                }
            }
            for (int64_t ch = 0; ch < plan.channels; ++ch)
                adjust_floats(in.plane(ch), j.plane(ch), plan.plane, curves[ch]);
        } else if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> ||
                             std::is_same_v<T, int16_t>) {
            ipt::frontend::ImadjustTable from_limits;
            if (!plan.limits_given) from_limits = ipt::frontend::imadjust_table(plan, default_limits(plan, in).data());
            const ipt::frontend::ImadjustTable& table = plan.limits_given ? plan.table : from_limits;
            for (int64_t ch = 0; ch < plan.channels; ++ch)
                ipt::cpu::apply_lut(in.plane(ch), j.plane(ch), plan.plane, table.channel<T>(ch));
        }
    });
}

}  // namespace

IPT_CPU_OP("ipt.imadjust", "", 100, run_imadjust)
