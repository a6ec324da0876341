// SPDX-License-Identifier: Apache-2.0
// ipt.strel: the neighbourhood of a structuring element and, on request, its
// decomposition; the plan (backends/common/ops/strel.hpp) holds both, built
// by the shared construction (docs/matlab-semantics.md#strel).
#include <cstring>

#include "common/op_registry.hpp"
#include "common/ops/strel.hpp"

namespace {

void run_strel(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::StrelPlan plan = ipt::frontend::plan_strel(args);
    const ipt::common::StrelMask& nh = plan.strel.nhood;
    const ipt_tensor* nhood = args.output("nhood", IPT_LOGICAL, nh.rows, nh.cols, 1);
    if (!nh.bits.empty()) std::memcpy(nhood->data, nh.bits.data(), nh.bits.size());
    if (plan.factor_count) {
        const ipt_tensor* dec = args.output("decomposition", IPT_LOGICAL, nh.rows, nh.cols, plan.factor_count);
        if (!plan.planes.empty()) std::memcpy(dec->data, plan.planes.data(), plan.planes.size());
    }
}

}  // namespace

IPT_CPU_OP("ipt.strel", "", 100, run_strel)
