// SPDX-License-Identifier: Apache-2.0
// ipt.mat2gray on Vulkan as the front-end plans it (common/ops/mat2gray.hpp).
// Without limits, the minimum and maximum come from the device's min/max
// reduction (common/minmax.hpp) and are read back (two doubles) for the
// front-end's mat2gray_default_scale; then one elementwise pass.
#include <memory>

#include "common/minmax.hpp"
#include "common/ops/mat2gray.hpp"

namespace {

using namespace ipt::vk;
using ipt::frontend::Mat2grayScale;

struct Push {
    uint64_t a, i;
    double delta, offset;
    int32_t n;
};

struct Release {
    Device* device;
    void operator()(Buffer* b) const { device->release(b); }
};

Mat2grayScale read_default_scale(OpContext& ctx, const ipt_tensor* a, int64_t n) {
    const uint64_t bytes = 2 * sizeof(double);
    std::unique_ptr<Buffer, Release> limits(ctx.device.allocate(bytes, MemoryKind::DeviceLocal), Release{&ctx.device});
    {
        Recorder rec(ctx.device);
        record_minmax(ctx, rec, ctx.address(a), a->dtype, n, limits->address);
        rec.submit();
    }
    double host[2];
    ctx.device.download(limits.get(), 0, host, bytes);
    return ipt::frontend::mat2gray_default_scale(host[0], host[1]);
}

void run_mat2gray(OpContext& ctx) {
    const ipt::frontend::Mat2grayPlan plan = ipt::frontend::plan_mat2gray(ctx.args);
    const int64_t n = plan.numel;
    check_size("ipt.mat2gray", n);
    const ipt_tensor* I = ctx.args.output("I", IPT_DOUBLE, plan.rows, plan.cols, plan.channels);
    if (n == 0) return;
    const Mat2grayScale s = plan.limits_given ? plan.scale : read_default_scale(ctx, plan.A, n);
    Push push{ctx.address(plan.A), ctx.address(I), s.delta, s.offset, int32_t(n)};
    const uint32_t group = ctx.tuning.group_size;
    VkPipeline pipeline = ctx.pipeline("mat2gray", group, 1, {uint32_t(plan.dtype), s.constant ? 1u : 0u});
    Grid grid = grid_for(ctx.device, n, uint64_t(group) * ctx.tuning.per_invocation);
    Recorder rec(ctx.device);
    rec.dispatch(pipeline, &push, sizeof push, grid.x, grid.y);
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.mat2gray", "wave32", 60, run_mat2gray)
IPT_VK_OP("ipt.mat2gray", "wave64", 50, run_mat2gray)
