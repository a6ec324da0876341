// SPDX-License-Identifier: Apache-2.0
// ipt.imwarp as the front-end plans it (common/ops/imwarp.hpp), sampled by the
// shared resampler (common/warp.cuh).
#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/warp.cuh"
#include "common/ops/imwarp.hpp"

namespace ipt::cuda {
namespace {

void run_imwarp(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::WarpPlan plan = ipt::frontend::plan_imwarp(args);
    const ipt_tensor* out = args.output("B", plan.dtype, plan.out_rows, plan.out_cols, plan.channels);
    const ipt_tensor* rb = args.wanted("RB") ? args.output("RB", IPT_DOUBLE, 1, 6, 1) : nullptr;
    warp(dev, plan, out, "ipt.imwarp");
    // After the resampling's launch, so the device does not wait for it. The
    // driver stages the pageable source before the copy returns; a stream
    // synchronisation here would make every call wait for the kernels queued
    // before it.
    if (rb)
        check(cudaMemcpyAsync(rb->data, plan.ref.data(), 6 * sizeof(double), cudaMemcpyHostToDevice, dev.stream),
              "ipt.imwarp: copy RB to the device");
}

IPT_CUDA_OP("ipt.imwarp", "", 100, run_imwarp)

}  // namespace
}  // namespace ipt::cuda
