// SPDX-License-Identifier: Apache-2.0
// ipt.imtranslate as the front-end plans it (common/ops/imtranslate.hpp), sampled by the
// shared resampler (common/warp.cuh).
#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/warp.cuh"
#include "common/ops/imtranslate.hpp"

namespace ipt::cuda {
namespace {

void run_imtranslate(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::WarpPlan plan = ipt::frontend::plan_imtranslate(args);
    const ipt_tensor* out = args.output("B", plan.dtype, plan.out_rows, plan.out_cols, plan.channels);
    warp(dev, plan, out, "ipt.imtranslate");
}

IPT_CUDA_OP("ipt.imtranslate", "", 100, run_imtranslate)

}  // namespace
}  // namespace ipt::cuda
