// SPDX-License-Identifier: Apache-2.0
// ipt.strel on CUDA: the plan (backends/common/ops/strel.hpp) is built on
// the host and copied into the outputs on the device's stream. Registered
// below the CPU reference's priority: the measured selection decides where it
// runs.
#include <cstdint>

#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/ops/strel.hpp"

namespace ipt::cuda {
namespace {

void run_strel(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::StrelPlan plan = ipt::frontend::plan_strel(args);
    const ipt::common::StrelMask& nh = plan.strel.nhood;
    const ipt_tensor* nhood = args.output("nhood", IPT_LOGICAL, nh.rows, nh.cols, 1);
    const ipt_tensor* dec =
        plan.factor_count ? args.output("decomposition", IPT_LOGICAL, nh.rows, nh.cols, plan.factor_count) : nullptr;
    // From pageable memory: staged before each call returns.
    if (!nh.bits.empty())
        check(cudaMemcpyAsync(nhood->data, nh.bits.data(), nh.bits.size(), cudaMemcpyHostToDevice, dev.stream),
              "ipt.strel: copy nhood to the device");
    if (dec && !plan.planes.empty())
        check(cudaMemcpyAsync(dec->data, plan.planes.data(), plan.planes.size(), cudaMemcpyHostToDevice, dev.stream),
              "ipt.strel: copy the decomposition to the device");
}

}  // namespace

IPT_CUDA_OP("ipt.strel", "", 55, run_strel)

}  // namespace ipt::cuda
