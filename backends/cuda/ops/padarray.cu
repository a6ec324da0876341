// SPDX-License-Identifier: Apache-2.0
// ipt.padarray as the front-end plans it (common/ops/padarray.hpp), through
// the shared padded copy (common/pad_copy.cuh).
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/pad_copy.cuh"
#include "common/ops/padarray.hpp"

namespace ipt::cuda {
namespace {

void run_padarray(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::PadarrayPlan plan = ipt::frontend::plan_padarray(args);
    const ipt_tensor* B = args.output("B", plan.dtype, plan.out_rows, plan.out_cols, plan.channels);
    PadCopy g;
    g.rows = plan.rows;
    g.cols = plan.cols;
    g.out_rows = plan.out_rows;
    g.out_cols = plan.out_cols;
    g.planes = plan.channels;
    g.top = plan.top;
    g.left = plan.left;
    g.method = plan.method;
    visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        pad_copy<T>(plan.rows > 0 && plan.cols > 0 ? dptr<const T>(plan.A) : nullptr, dptr<T>(B), g,
                    static_cast<T>(plan.pad_value), dev.stream);
    });
    check_launch("ipt.padarray");
}

IPT_CUDA_OP("ipt.padarray", "", 100, run_padarray)

}  // namespace
}  // namespace ipt::cuda
