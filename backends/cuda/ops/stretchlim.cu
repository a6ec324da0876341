// SPDX-License-Identifier: Apache-2.0
// stretchlim as the front-end plans it (common/ops/stretchlim.hpp), on the
// device (common/stretchlim.cuh).
#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/stretchlim.cuh"
#include "common/ops/stretchlim.hpp"

namespace ipt::cuda {
namespace {

void run_stretchlim(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::StretchlimPlan plan = ipt::frontend::plan_stretchlim(args);
    const ipt_tensor* out = args.output("LOWHIGH", plan.out_dtype, plan.out_rows, plan.out_cols, 1);
    stretchlim_async(plan, dptr<double>(out), dev.stream, "ipt.stretchlim");
}

IPT_CUDA_OP("ipt.stretchlim", "", 100, run_stretchlim)

}  // namespace
}  // namespace ipt::cuda
