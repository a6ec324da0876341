// SPDX-License-Identifier: Apache-2.0
// ipt.imcomplement on Vulkan as the front-end plans it
// (common/ops/imcomplement.hpp): one elementwise pass; integer and logical
// classes as 32-bit words when the sizes and addresses allow (the complement
// is a bitwise operation for them), one element at a time otherwise.
#include "op_support.hpp"
#include "common/ops/imcomplement.hpp"

namespace {

using namespace ipt::vk;

struct Push {
    uint64_t a, j;
    int32_t n;
};

uint64_t element_bytes(int32_t dtype) {
    switch (dtype) {
    case IPT_LOGICAL:
    case IPT_UINT8: return 1;
    case IPT_UINT16:
    case IPT_INT16: return 2;
    case IPT_DOUBLE: return 8;
    default: return 4;
    }
}

void run_imcomplement(OpContext& ctx) {
    const ipt::frontend::ImcomplementPlan plan = ipt::frontend::plan_imcomplement(ctx.args);
    const int64_t n = plan.numel;
    check_size("ipt.imcomplement", n);
    const ipt_tensor* J = ctx.args.output("J", plan.dtype, plan.rows, plan.cols, plan.channels);
    if (n == 0) return;
    const VkDeviceAddress a = ctx.address(plan.I), j = ctx.address(J);
    const bool integer = plan.dtype != IPT_SINGLE && plan.dtype != IPT_DOUBLE;
    const uint64_t bytes = uint64_t(n) * element_bytes(plan.dtype);
    const bool words = integer && bytes % 4 == 0 && OpContext::aligned({a, j}, 4);
    const int64_t items = words ? int64_t(bytes / 4) : n;
    Push push{a, j, int32_t(items)};
    const uint32_t group = ctx.tuning.group_size;
    VkPipeline pipeline = ctx.pipeline("imcomplement", group, 1, {uint32_t(plan.dtype), words ? 1u : 0u});
    Grid grid = grid_for(ctx.device, uint64_t(items), uint64_t(group) * ctx.tuning.per_invocation);
    Recorder rec(ctx.device);
    rec.dispatch(pipeline, &push, sizeof push, grid.x, grid.y);
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.imcomplement", "wave32", 60, run_imcomplement)
IPT_VK_OP("ipt.imcomplement", "wave64", 50, run_imcomplement)
