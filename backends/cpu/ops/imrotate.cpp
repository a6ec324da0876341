// SPDX-License-Identifier: Apache-2.0
// ipt.imrotate as the front-end plans it (common/ops/imrotate.hpp), sampled by the
// shared resampler (common/warp.hpp).
#include "common/op_registry.hpp"
#include "common/warp.hpp"
#include "common/ops/imrotate.hpp"

namespace {

void run_imrotate(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::WarpPlan plan = ipt::frontend::plan_imrotate(args);
    const ipt_tensor* out = args.output("J", plan.dtype, plan.out_rows, plan.out_cols, plan.channels);
    ipt::cpu::warp(plan, out);
}

}  // namespace

IPT_CPU_OP("ipt.imrotate", "", 100, run_imrotate)
