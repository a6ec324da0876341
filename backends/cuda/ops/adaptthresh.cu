// SPDX-License-Identifier: Apache-2.0
// adaptthresh as the front-end plans it (common/ops/adaptthresh.hpp): the
// converted image's local mean through imboxfilt's integral-image route,
// scaled and clipped, or its median or Gaussian-weighted mean scaled and
// clipped, in the CPU reference's order (common/adaptthresh.cuh).
#include "common/adaptthresh.cuh"
#include "common/context.hpp"
#include "common/op_registry.hpp"

namespace ipt::cuda {
namespace {

void run_adaptthresh(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::AdaptthreshPlan plan = ipt::frontend::plan_adaptthresh(args);
    adaptthresh_check(plan, "ipt.adaptthresh");
    const ipt_tensor* T = args.output("T", IPT_DOUBLE, plan.rows, plan.cols, 1);
    adaptthresh_async(plan, dptr<double>(T), dev.stream, "ipt.adaptthresh");
}

IPT_CUDA_OP("ipt.adaptthresh", "", 100, run_adaptthresh)

}  // namespace
}  // namespace ipt::cuda
