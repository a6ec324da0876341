// SPDX-License-Identifier: Apache-2.0
// ipt.rangefilt on Vulkan as the front-end plans it (common/ops/rangefilt.hpp):
// the maximum over the imdilate plan's members and the minimum over the
// imerode plan's, one pass over every plane (shaders/rangefilt.comp).
// uint8 and logical images under a flat rectangle: each plane's maximum into
// J and minimum into a scratch plane by the one-pass byte rectangles of
// imdilate and imerode (common/morphology.cpp), then their difference
// (shaders/rangefilt_bytes.comp).
#include <cstdint>
#include <vector>

#include "common/morphology.hpp"
#include "common/ops/rangefilt.hpp"
#include "op_support.hpp"

namespace {

using namespace ipt::vk;

struct Push {
    uint64_t a, j, offsets;
    int32_t rows, cols, n_max, n_min;
};

struct BytesPush {
    uint64_t j, lo;
    int32_t n;
};

// The byte rectangles' route; false, with nothing dispatched, where it does not apply.
bool run_rangefilt_bytes(OpContext& ctx, Recorder& rec, const ipt::frontend::RangefiltPlan& plan,
                         const ipt_tensor* in, const ipt_tensor* j) {
    const bool bytes = plan.in_dtype == IPT_UINT8 || plan.in_dtype == IPT_LOGICAL;
    const auto& hi = plan.max_plan;
    const auto& lo = plan.min_plan;
    if (!bytes || plan.out_dtype != plan.in_dtype || !hi.flat || !hi.rectangle || !lo.flat || !lo.rectangle)
        return false;
    const int64_t plane = plan.rows * plan.cols, n = plane * plan.channels;
    Buffer* minima = rec.scratch(uint64_t(n));
    for (int64_t ch = 0; ch < plan.channels; ++ch) {
        const VkDeviceAddress a = ctx.address(in) + ch * plane;
        if (!run_rect_bytes(ctx, rec, hi, a, ctx.address(j) + ch * plane) ||
            !run_rect_bytes(ctx, rec, lo, a, minima->address + ch * plane))
            return false;  // both plans have one extent (one is the other reflected): the first call declines
    }
    BytesPush push{ctx.address(j), minima->address, int32_t(n)};
    const uint32_t group = ctx.tuning.group_size;
    VkPipeline pipeline = ctx.pipeline("rangefilt_bytes", group, 1, {plan.in_dtype == IPT_LOGICAL ? 1u : 0u});
    Grid grid = grid_for(ctx.device, uint64_t((n + 3) / 4), uint64_t(group) * ctx.tuning.per_invocation);
    rec.dispatch(pipeline, &push, sizeof push, grid.x, grid.y);
    return true;
}

void run_rangefilt(OpContext& ctx) {
    const ipt::frontend::RangefiltPlan plan = ipt::frontend::plan_rangefilt(ctx.args);
    check_size("ipt.rangefilt", plan.rows * plan.cols * plan.channels);
    const ipt_tensor* in = ctx.args.image("I");
    const ipt_tensor* j = ctx.args.output("J", plan.out_dtype, plan.rows, plan.cols, plan.channels);
    if (plan.rows == 0 || plan.cols == 0 || plan.channels == 0) return;
    std::vector<int32_t> offsets;
    for (const auto* p : {&plan.max_plan, &plan.min_plan})
        for (const auto& m : p->members) {
            offsets.push_back(int32_t(m.dr));
            offsets.push_back(int32_t(m.dc));
        }
    Recorder rec(ctx.device);
    if (run_rangefilt_bytes(ctx, rec, plan, in, j)) {
        rec.submit();
        return;
    }
    Push push{ctx.address(in),
              ctx.address(j),
              offsets.empty() ? 0 : rec.params(offsets),
              int32_t(plan.rows),
              int32_t(plan.cols),
              int32_t(plan.max_plan.members.size()),
              int32_t(plan.min_plan.members.size())};
    const uint32_t gx = ctx.tuning.group_x, gy = ctx.tuning.group_y;
    VkPipeline pipeline =
        ctx.pipeline("rangefilt", gx, gy, {uint32_t(plan.in_dtype), uint32_t(plan.out_dtype)});
    rec.dispatch(pipeline, &push, sizeof push, div_up(plan.cols, gx),
                 div_up(plan.rows, uint64_t(gy) * ctx.tuning.per_invocation), uint32_t(plan.channels));
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.rangefilt", "wave32", 60, run_rangefilt)
IPT_VK_OP("ipt.rangefilt", "wave64", 50, run_rangefilt)
