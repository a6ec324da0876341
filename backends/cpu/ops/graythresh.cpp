// SPDX-License-Identifier: Apache-2.0
// ipt.graythresh as the front-end plans it (common/ops/graythresh.hpp): the
// 256-bin histogram of im2uint8 values over every element, then Otsu's
// threshold on the host.
#include <type_traits>
#include <vector>

#include "common/histogram.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/ops/graythresh.hpp"

namespace {

void run_graythresh(const ipt::plugin::KernelArgs& args) {
    using ipt::frontend::GraythreshPlan;
    const GraythreshPlan plan = ipt::frontend::plan_graythresh(args);
    std::vector<uint64_t> counts(GraythreshPlan::nbins, 0);
    if (plan.needs_histogram)
        ipt::cpu::visit_dtype(plan.dtype, [&](auto tag) {
            using T = decltype(tag);
            if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t>) {
                ipt::plugin::unsupported("ipt.graythresh: 32-bit integer images are not handled");
            } else {
            const auto in = ipt::cpu::view<T>(plan.I);
            counts = ipt::cpu::histogram_by(in.data, in.numel(), GraythreshPlan::nbins,
                                            [](T v) { return ipt::frontend::graythresh_bin(v); });
            }
        });
    const ipt::common::OtsuResult r = ipt::frontend::graythresh_result(plan, counts.data());
    *static_cast<double*>(args.output("T", plan.out_dtype, 1, 1, 1)->data) = r.T;
    if (args.wanted("EM")) *static_cast<double*>(args.output("EM", plan.out_dtype, 1, 1, 1)->data) = r.EM;
}

}  // namespace

IPT_CPU_OP("ipt.graythresh", "", 100, run_graythresh)
