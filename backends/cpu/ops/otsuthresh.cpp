// SPDX-License-Identifier: Apache-2.0
// ipt.otsuthresh: the front-end computes T and EM on the host
// (common/ops/otsuthresh.hpp); this writes them.
#include "common/op_registry.hpp"
#include "common/ops/otsuthresh.hpp"

namespace {

void run_otsuthresh(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::OtsuthreshPlan plan = ipt::frontend::plan_otsuthresh(args);
    *static_cast<double*>(args.output("T", plan.out_dtype, 1, 1, 1)->data) = plan.T;
    if (args.wanted("EM")) *static_cast<double*>(args.output("EM", plan.out_dtype, 1, 1, 1)->data) = plan.EM;
}

}  // namespace

IPT_CPU_OP("ipt.otsuthresh", "", 100, run_otsuthresh)
