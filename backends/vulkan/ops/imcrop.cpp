// SPDX-License-Identifier: Apache-2.0
// ipt.imcrop on Vulkan as the front-end plans it (common/ops/imcrop.hpp): the
// shared padded copy (common/pad_copy.hpp) with the crop's corner as a
// negative padding, so every index falls inside I.
#include "op_support.hpp"
#include "common/pad_copy.hpp"
#include "common/ops/imcrop.hpp"

namespace {

using namespace ipt::vk;

void run_imcrop(OpContext& ctx) {
    const ipt::frontend::ImcropPlan plan = ipt::frontend::plan_imcrop(ctx.args);
    const ipt_tensor* J = ctx.args.output("J", plan.out_dtype, plan.out_rows, plan.out_cols, plan.channels);
    if (plan.empty) return;
    PadCopy copy;
    copy.A = plan.I;
    copy.B = J;
    copy.dtype = plan.dtype;
    copy.rows = plan.I->rows;
    copy.cols = plan.I->cols;
    copy.out_rows = plan.out_rows;
    copy.out_cols = plan.out_cols;
    copy.planes = plan.channels;
    copy.top = -plan.row0;
    copy.left = -plan.col0;
    run_pad_copy(ctx, copy);
}

}  // namespace

IPT_VK_OP("ipt.imcrop", "wave32", 60, run_imcrop)
IPT_VK_OP("ipt.imcrop", "wave64", 50, run_imcrop)
