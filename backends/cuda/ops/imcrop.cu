// SPDX-License-Identifier: Apache-2.0
// ipt.imcrop as the front-end plans it (common/ops/imcrop.hpp): the shared
// padded copy (common/pad_copy.cuh) with the crop's corner as a negative
// padding, so every index falls inside I.
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/pad_copy.cuh"
#include "common/ops/imcrop.hpp"

namespace ipt::cuda {
namespace {

void run_imcrop(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::ImcropPlan plan = ipt::frontend::plan_imcrop(args);
    const ipt_tensor* J = args.output("J", plan.out_dtype, plan.out_rows, plan.out_cols, plan.channels);
    if (plan.empty) return;
    PadCopy g;
    g.rows = plan.I->rows;
    g.cols = plan.I->cols;
    g.out_rows = plan.out_rows;
    g.out_cols = plan.out_cols;
    g.planes = plan.channels;
    g.top = -plan.row0;
    g.left = -plan.col0;
    visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        pad_copy<T>(dptr<const T>(plan.I), dptr<T>(J), g, T{}, dev.stream);
    });
    check_launch("ipt.imcrop");
}

IPT_CUDA_OP("ipt.imcrop", "", 100, run_imcrop)

}  // namespace
}  // namespace ipt::cuda
