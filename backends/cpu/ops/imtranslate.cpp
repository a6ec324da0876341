// SPDX-License-Identifier: Apache-2.0
// ipt.imtranslate as the front-end plans it (common/ops/imtranslate.hpp), sampled by the
// shared resampler (common/warp.hpp).
#include "common/op_registry.hpp"
#include "common/warp.hpp"
#include "common/ops/imtranslate.hpp"

namespace {

void run_imtranslate(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::WarpPlan plan = ipt::frontend::plan_imtranslate(args);
    const ipt_tensor* out = args.output("B", plan.dtype, plan.out_rows, plan.out_cols, plan.channels);
    ipt::cpu::warp(plan, out);
}

}  // namespace

IPT_CPU_OP("ipt.imtranslate", "", 100, run_imtranslate)
