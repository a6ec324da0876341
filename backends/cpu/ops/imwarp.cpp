// SPDX-License-Identifier: Apache-2.0
// ipt.imwarp as the front-end plans it (common/ops/imwarp.hpp), sampled by the
// shared resampler (common/warp.hpp).
#include "common/op_registry.hpp"
#include "common/warp.hpp"
#include "common/ops/imwarp.hpp"

namespace {

void run_imwarp(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::WarpPlan plan = ipt::frontend::plan_imwarp(args);
    const ipt_tensor* out = args.output("B", plan.dtype, plan.out_rows, plan.out_cols, plan.channels);
    if (args.wanted("RB")) {
        const ipt_tensor* rb = args.output("RB", IPT_DOUBLE, 1, 6, 1);
        for (int k = 0; k < 6; ++k) static_cast<double*>(rb->data)[k] = plan.ref[k];
    }
    ipt::cpu::warp(plan, out);
}

}  // namespace

IPT_CPU_OP("ipt.imwarp", "", 100, run_imwarp)
