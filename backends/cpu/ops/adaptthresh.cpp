// SPDX-License-Identifier: Apache-2.0
// ipt.adaptthresh as the front-end plans it (common/ops/adaptthresh.hpp):
// the converted image's local mean through imboxfilt's integral-image route,
// scaled and clipped (common/adaptthresh.hpp).
#include "common/adaptthresh.hpp"
#include "common/op_registry.hpp"

namespace {

void run_adaptthresh(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::AdaptthreshPlan plan = ipt::frontend::plan_adaptthresh(args);
    const ipt_tensor* T = args.output("T", IPT_DOUBLE, plan.rows, plan.cols, 1);
    ipt::cpu::adaptthresh_into(plan, static_cast<double*>(T->data));
}

}  // namespace

IPT_CPU_OP("ipt.adaptthresh", "", 100, run_adaptthresh)
