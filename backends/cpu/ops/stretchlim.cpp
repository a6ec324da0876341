// SPDX-License-Identifier: Apache-2.0
// ipt.stretchlim as the front-end plans it (common/ops/stretchlim.hpp): a
// histogram per channel and the limits read off it (common/histogram.hpp,
// shared with ipt.imadjust).
//
// Classes beyond MATLAB's (its stretchlim takes uint8, uint16, int16, single
// and double): logical is the values 0 and 1 on the [0,1] scale in 65536 bins,
// which always gives [0; 1]; int32 and uint32 use imhist's scaled binning.

#include "common/histogram.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/ops/stretchlim.hpp"

namespace {

void run_stretchlim(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::StretchlimPlan plan = ipt::frontend::plan_stretchlim(args);
    const ipt_tensor* out = args.output("LOWHIGH", plan.out_dtype, plan.out_rows, plan.out_cols, 1);
    auto limits = ipt::cpu::mutable_view<double>(out);
    ipt::cpu::visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        const auto in = ipt::cpu::view<T>(plan.I);
        for (int64_t ch = 0; ch < plan.channels; ++ch) {
            const auto [low, high] =
                ipt::cpu::stretchlim_plane(in.plane(ch), plan.plane, plan.nbins, plan.tol_low, plan.tol_high);
            limits(0, ch) = low;
            limits(1, ch) = high;
        }
    });
}

}  // namespace

IPT_CPU_OP("ipt.stretchlim", "", 100, run_stretchlim)
