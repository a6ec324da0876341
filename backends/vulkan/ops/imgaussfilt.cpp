// SPDX-License-Identifier: Apache-2.0
// ipt.imgaussfilt on Vulkan: the front-end's route and taps
// (common/ops/imgaussfilt.hpp) on the correlation engine, as the CPU
// reference computes them (common/imgaussfilt.cpp).
#include "common/imgaussfilt.hpp"

namespace {

using namespace ipt::vk;
using ipt::frontend::ImgaussfiltPlan;

void run_imgaussfilt(OpContext& ctx) {
    const ImgaussfiltPlan p = ipt::frontend::plan_imgaussfilt(ctx.args);
    const ipt_tensor* A = p.A;
    const ipt_tensor* B = ctx.args.output("B", p.out_class, p.rows, p.cols, p.channels);
    if (p.rows * p.cols * p.channels == 0) return;
    Recorder rec(ctx.device);
    record_imgaussfilt(ctx, rec, p, ctx.address(A), A->dtype, ctx.address(B));
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.imgaussfilt", "wave32", 60, run_imgaussfilt)
IPT_VK_OP("ipt.imgaussfilt", "wave64", 50, run_imgaussfilt)
