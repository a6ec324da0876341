// SPDX-License-Identifier: Apache-2.0
// ipt.medfilt2 on Vulkan: the plan's median over an m x n rectangle generated
// in the shader; for an even window the two middle orders combined by the
// plan's rule (rules: common/ops/medfilt2.hpp; engine:
// common/order_filter.cpp, whose shader applies it: 0.5*v1 + 0.5*v2 in
// double stored once, integers rounded half away; logical the upper order).
#include "common/ops/medfilt2.hpp"
#include "common/order_filter.hpp"

namespace {

using namespace ipt::vk;

void run_medfilt2(OpContext& ctx) {
    const ipt::frontend::Medfilt2Plan plan = ipt::frontend::plan_medfilt2(ctx.args);
    OrderFilter f;
    f.a = ctx.args.image("A");
    f.rect = true;
    f.rect_rows = plan.window_rows;
    f.rect_cols = plan.window_cols;
    f.origin_r = plan.centre_row;
    f.origin_c = plan.centre_col;
    f.order = plan.order;
    f.median_even = plan.two_orders();
    f.set_padding(plan.pad);
    f.out_dtype = plan.a_class;
    record_order_filter(ctx, f);
}

}  // namespace

IPT_VK_OP("ipt.medfilt2", "wave32", 60, run_medfilt2)
IPT_VK_OP("ipt.medfilt2", "wave64", 50, run_medfilt2)
