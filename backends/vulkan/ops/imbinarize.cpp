// SPDX-License-Identifier: Apache-2.0
// ipt.imbinarize on Vulkan as the front-end plans it
// (common/ops/imbinarize.hpp): 'global' counts graythresh's 256 bins on the
// device (common/stretchlim.cpp), reads them back and forms the level on the
// host; 'adaptive' records adaptthresh's passes (common/adaptthresh.cpp)
// into a scratch T; a given or adaptive T forms each level in the shader.
// One elementwise pass then compares (shaders/imbinarize.comp).
#include <memory>
#include <vector>

#include "op_support.hpp"
#include "common/adaptthresh.hpp"
#include "common/ops/imbinarize.hpp"
#include "common/stretchlim.hpp"

namespace {

using namespace ipt::vk;
using ipt::frontend::GraythreshPlan;
using ipt::frontend::ImbinarizePlan;

struct Push {
    uint64_t a, t, bw;
    double level, lo, span;
    int32_t n, step;
};

struct Release {
    Device* device;
    void operator()(Buffer* b) const { device->release(b); }
};

double global_level(OpContext& ctx, const ImbinarizePlan& plan) {
    std::vector<uint32_t> counts(GraythreshPlan::nbins, 0u);
    const uint64_t bytes = counts.size() * sizeof(uint32_t);
    std::unique_ptr<Buffer, Release> hist(ctx.device.allocate(bytes, MemoryKind::DeviceLocal), Release{&ctx.device});
    {
        Recorder rec(ctx.device);
        record_histogram(ctx, rec, plan.dtype, ctx.address(plan.I), plan.numel, 1, hist.get(),
                         uint32_t(GraythreshPlan::nbins), Binning::Im2uint8);
        rec.submit();
    }
    ctx.device.download(hist.get(), 0, counts.data(), bytes);
    return ipt::frontend::imbinarize_global_level(plan, counts.data());
}

void run_imbinarize(OpContext& ctx) {
    const ImbinarizePlan plan = ipt::frontend::plan_imbinarize(ctx.args);
    check_size("ipt.imbinarize", plan.numel);
    const ipt_tensor* BW = ctx.args.output("BW", IPT_LOGICAL, plan.rows, plan.cols, 1);
    if (plan.numel == 0) return;
    Push push{};
    push.a = ctx.address(plan.I);
    push.bw = ctx.address(BW);
    push.n = int32_t(plan.numel);
    push.lo = plan.lo;
    push.span = plan.span;
    // The histogram is read back before this call's commands are recorded.
    if (!plan.adaptive && !plan.T) push.level = global_level(ctx, plan);
    Recorder rec(ctx.device);
    int32_t t_dtype = plan.t_dtype;
    if (plan.adaptive) {
        Buffer* local = rec.scratch(uint64_t(plan.numel) * sizeof(double));
        record_adaptthresh(ctx, rec, plan.local, local->address);
        push.t = local->address;
        push.step = 1;
        t_dtype = IPT_DOUBLE;
    } else if (plan.T) {
        push.t = ctx.address(plan.T);
        push.step = plan.t_scalar ? 0 : 1;
    }
    const bool given = plan.adaptive || plan.T;
    const uint32_t group = ctx.tuning.group_size;
    VkPipeline pipeline =
        ctx.pipeline("imbinarize", group, 1, {uint32_t(plan.dtype), given ? 1u : 0u, uint32_t(t_dtype)});
    Grid grid = grid_for(ctx.device, uint64_t(plan.numel), uint64_t(group) * ctx.tuning.per_invocation);
    rec.dispatch(pipeline, &push, sizeof push, grid.x, grid.y);
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.imbinarize", "wave32", 60, run_imbinarize)
IPT_VK_OP("ipt.imbinarize", "wave64", 50, run_imbinarize)
