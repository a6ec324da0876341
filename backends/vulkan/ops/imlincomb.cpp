// SPDX-License-Identifier: Apache-2.0
// ipt.imlincomb on Vulkan as the front-end plans it
// (common/ops/imlincomb.hpp): one elementwise pass over up to 8 images (their
// class and the output class are specialisation constants), the sum in
// double, rounded once.
#include <vector>

#include "op_support.hpp"
#include "common/ops/imlincomb.hpp"

namespace {

using namespace ipt::vk;

struct Push {
    uint64_t a[8];
    uint64_t z;
    uint64_t k;
    int32_t n;
};

void run_imlincomb(OpContext& ctx) {
    const ipt::frontend::ImlincombPlan plan = ipt::frontend::plan_imlincomb(ctx.args);
    const int64_t n = plan.numel;
    check_size("ipt.imlincomb", n);
    const ipt_tensor* z = ctx.args.output("Z", plan.out_dtype, plan.rows, plan.cols, plan.channels);
    if (n == 0) return;
    const int count = int(plan.images.size());
    Push push{};
    for (int j = 0; j < count; ++j) push.a[j] = ctx.address(plan.images[j]);
    push.z = ctx.address(z);
    push.n = static_cast<int32_t>(n);
    // The coefficients, then the offset when there is one.
    std::vector<double> k = plan.k;
    if (plan.has_offset) k.push_back(plan.offset);
    std::vector<uint32_t> constants = {uint32_t(count)};
    for (int j = 0; j < 8; ++j) constants.push_back(uint32_t(j < count ? plan.in_dtype : IPT_DOUBLE));
    constants.push_back(uint32_t(plan.out_dtype));
    constants.push_back(plan.has_offset ? 1u : 0u);
    const uint32_t group = ctx.tuning.group_size;
    VkPipeline pipeline = ctx.pipeline("imlincomb", group, 1, constants);
    Grid grid = grid_for(ctx.device, n, uint64_t(group) * ctx.tuning.per_invocation);
    Recorder rec(ctx.device);
    push.k = rec.params(k);
    rec.dispatch(pipeline, &push, sizeof push, grid.x, grid.y);
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.imlincomb", "wave32", 60, run_imlincomb)
IPT_VK_OP("ipt.imlincomb", "wave64", 50, run_imlincomb)
