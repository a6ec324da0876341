// SPDX-License-Identifier: Apache-2.0
// ipt.fspecial on CUDA: the front-end (backends/common/ops/fspecial.hpp)
// builds the filter on the host; it is copied into the output on the
// device's stream, so a filter made for a CUDA pipeline is already there.
// Registered below the CPU reference's priority: the measured selection
// decides where it runs.
#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/ops/fspecial.hpp"

namespace ipt::cuda {
namespace {

void run_fspecial(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::FspecialPlan plan = ipt::frontend::plan_fspecial(args);
    const ipt_tensor* out = args.output("h", IPT_DOUBLE, plan.h.rows, plan.h.cols, 1);
    if (plan.h.h.empty()) return;
    // From pageable memory: staged before the call returns, so `plan` may go.
    check(cudaMemcpyAsync(out->data, plan.h.h.data(), plan.h.h.size() * sizeof(double), cudaMemcpyHostToDevice,
                          dev.stream),
          "ipt.fspecial: copy to the device");
}

}  // namespace

IPT_CUDA_OP("ipt.fspecial", "", 55, run_fspecial)

}  // namespace ipt::cuda
