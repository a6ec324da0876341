// SPDX-License-Identifier: Apache-2.0
// ipt.padarray on Vulkan as the front-end plans it (common/ops/padarray.hpp),
// through the shared padded copy (common/pad_copy.hpp).
#include "op_support.hpp"
#include "common/pad_copy.hpp"
#include "common/ops/padarray.hpp"

namespace {

using namespace ipt::vk;

void run_padarray(OpContext& ctx) {
    const ipt::frontend::PadarrayPlan plan = ipt::frontend::plan_padarray(ctx.args);
    check_size("ipt.padarray", plan.channels * plan.out_rows * plan.out_cols);
    PadCopy copy;
    copy.A = plan.A;
    copy.B = ctx.args.output("B", plan.dtype, plan.out_rows, plan.out_cols, plan.channels);
    copy.dtype = plan.dtype;
    copy.rows = plan.rows;
    copy.cols = plan.cols;
    copy.out_rows = plan.out_rows;
    copy.out_cols = plan.out_cols;
    copy.planes = plan.channels;
    copy.top = plan.top;
    copy.left = plan.left;
    copy.method = plan.method;
    copy.fill = plan.pad_value;
    run_pad_copy(ctx, copy);
}

}  // namespace

IPT_VK_OP("ipt.padarray", "wave32", 60, run_padarray)
IPT_VK_OP("ipt.padarray", "wave64", 50, run_padarray)
