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
    if (args.wanted("RB")) {
        const ipt_tensor* rb = args.output("RB", IPT_DOUBLE, 1, 6, 1);
        check(cudaMemcpyAsync(rb->data, plan.ref.data(), 6 * sizeof(double), cudaMemcpyHostToDevice, dev.stream),
              "cudaMemcpyAsync (RB)");
        check(cudaStreamSynchronize(dev.stream), "cudaStreamSynchronize (RB)");
    }
    warp(dev, plan, out, "ipt.imwarp");
}

IPT_CUDA_OP("ipt.imwarp", "", 100, run_imwarp)

}  // namespace
}  // namespace ipt::cuda
