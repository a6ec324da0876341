// SPDX-License-Identifier: Apache-2.0
// ipt.ordfilt2 on Vulkan: the plan's order statistic over the domain's
// offsets (rules: common/ops/ordfilt2.hpp; engine: common/order_filter.cpp).
#include "common/ops/ordfilt2.hpp"
#include "common/order_filter.hpp"

namespace {

using namespace ipt::vk;

void run_ordfilt2(OpContext& ctx) {
    const ipt::frontend::Ordfilt2Plan plan = ipt::frontend::plan_ordfilt2(ctx.args);
    OrderFilter f;
    f.a = ctx.args.image("A");
    for (int64_t i = 0; i < plan.window.count(); ++i) {
        f.offsets.push_back(plan.window.dy[static_cast<size_t>(i)]);
        f.offsets.push_back(plan.window.dx[static_cast<size_t>(i)]);
    }
    f.s = plan.window.s;
    f.order = plan.order;
    f.set_padding(plan.pad);
    f.out_dtype = plan.b_class;
    record_order_filter(ctx, f);
}

}  // namespace

IPT_VK_OP("ipt.ordfilt2", "wave32", 60, run_ordfilt2)
IPT_VK_OP("ipt.ordfilt2", "wave64", 50, run_ordfilt2)
