// SPDX-License-Identifier: Apache-2.0
// ipt.imregionalmax on Vulkan: plateaus labelled by lock-free union-find, a
// plateau disqualified by any strictly higher neighbour of any of its pixels
// (shaders/imregionalmax.comp). Five dispatches, no host round trip.
#include "common/ops/imregionalmax.hpp"
#include "op_support.hpp"

namespace {

using namespace ipt::vk;

struct Push {
    uint64_t a, labels, flags, bw;
    int32_t rows, cols;
};

void run_imregionalmax(OpContext& ctx) {
    const auto& args = ctx.args;
    const ipt::frontend::ImregionalmaxPlan plan = ipt::frontend::plan_imregionalmax(args);
    const ipt_tensor* a = args.image("I");
    const int64_t n = plan.rows * plan.cols;
    check_size("ipt.imregionalmax", n);
    const ipt_tensor* bw = args.output("BW", IPT_LOGICAL, plan.rows, plan.cols, 1);
    if (n == 0) return;
    Recorder rec(ctx.device);
    Buffer* labels = rec.scratch(uint64_t(n) * 4);
    Buffer* flags = rec.scratch(uint64_t(n) * 4);
    rec.fill(flags, 0, uint64_t(n) * 4, 0);
    Push p{ctx.address(a), labels->address, flags->address, ctx.address(bw), int32_t(plan.rows), int32_t(plan.cols)};
    const uint32_t gx = ctx.tuning.group_x, gy = ctx.tuning.group_y;
    for (uint32_t pass = 0; pass < 5; ++pass)
        rec.dispatch(ctx.pipeline("imregionalmax", gx, gy, {uint32_t(plan.dtype), uint32_t(plan.conn), pass}), &p, sizeof p,
                     div_up(plan.cols, gx), div_up(plan.rows, gy));
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.imregionalmax", "wave32", 60, run_imregionalmax)
IPT_VK_OP("ipt.imregionalmax", "wave64", 50, run_imregionalmax)
