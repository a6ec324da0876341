// SPDX-License-Identifier: Apache-2.0
// ipt.imrotate as the front-end plans it (common/ops/imrotate.hpp), sampled by the
// shared resampler (common/warp.cuh).
#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/warp.cuh"
#include "common/ops/imrotate.hpp"

namespace ipt::cuda {
namespace {

void run_imrotate(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::WarpPlan plan = ipt::frontend::plan_imrotate(args);
    const ipt_tensor* out = args.output("J", plan.dtype, plan.out_rows, plan.out_cols, plan.channels);
    warp(dev, plan, out, "ipt.imrotate");
}

IPT_CUDA_OP("ipt.imrotate", "", 100, run_imrotate)

}  // namespace
}  // namespace ipt::cuda
