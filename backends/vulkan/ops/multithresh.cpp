// SPDX-License-Identifier: Apache-2.0
// ipt.multithresh on Vulkan as the front-end plans it
// (common/ops/multithresh.hpp): the limits of A from the NaN-skipping minmax
// (common/minmax.cpp; for floating A a second time over a copy with Inf and
// -Inf as NaN), read back; the codes counted by shaders/multithresh.comp
// and read back; Otsu's search on the host, the thresholds written to the
// outputs.
#include <memory>
#include <vector>

#include "op_support.hpp"
#include "common/minmax.hpp"
#include "common/ops/multithresh.hpp"

namespace {

using namespace ipt::vk;
using ipt::frontend::MultithreshLimits;
using ipt::frontend::MultithreshPlan;

struct Push {
    uint64_t a, out;
    double lo, hi;
    int32_t n;
};

struct Release {
    Device* device;
    void operator()(Buffer* b) const { device->release(b); }
};

using Owned = std::unique_ptr<Buffer, Release>;

MultithreshLimits limits_of(OpContext& ctx, const MultithreshPlan& plan) {
    MultithreshLimits l;
    Owned limits(ctx.device.allocate(4 * sizeof(double), MemoryKind::DeviceLocal), Release{&ctx.device});
    {
        Recorder rec(ctx.device);
        const VkDeviceAddress a = ctx.address(plan.A);
        record_minmax(ctx, rec, a, plan.dtype, plan.numel, limits->address + 2 * sizeof(double));
        if (plan.is_float) {
            Buffer* finite = rec.scratch(uint64_t(plan.numel) * sizeof(double));
            Push push{a, finite->address, 0, 0, int32_t(plan.numel)};
            const uint32_t group = ctx.tuning.group_size;
            const Grid g = grid_for(ctx.device, uint64_t(plan.numel), uint64_t(group) * ctx.tuning.per_invocation);
            rec.dispatch(ctx.pipeline("multithresh", group, 1, {uint32_t(plan.dtype), 0u}), &push, sizeof push, g.x,
                         g.y);
            record_minmax(ctx, rec, finite->address, IPT_DOUBLE, plan.numel, limits->address);
        }
        rec.submit();
    }
    double host[4];
    ctx.device.download(limits.get(), 0, host, sizeof host);
    l.lo_all = host[2];
    l.hi_all = host[3];
    l.lo = plan.is_float ? host[0] : host[2];
    l.hi = plan.is_float ? host[1] : host[3];
    return l;
}

std::vector<uint32_t> count_codes(OpContext& ctx, const MultithreshPlan& plan, const MultithreshLimits& l) {
    std::vector<uint32_t> codes(MultithreshPlan::ncodes, 0u);
    const uint64_t bytes = codes.size() * sizeof(uint32_t);
    Owned hist(ctx.device.allocate(bytes, MemoryKind::DeviceLocal), Release{&ctx.device});
    {
        Recorder rec(ctx.device);
        rec.fill(hist.get(), 0, bytes, 0u);
        Push push{ctx.address(plan.A), hist->address, l.lo, l.hi, int32_t(plan.numel)};
        const uint32_t group = ctx.tuning.group_size;
        const Grid g = grid_for(ctx.device, uint64_t(plan.numel), uint64_t(group) * ctx.tuning.per_invocation);
        rec.dispatch(ctx.pipeline("multithresh", group, 1, {uint32_t(plan.dtype), 1u}), &push, sizeof push, g.x, g.y);
        rec.submit();
    }
    ctx.device.download(hist.get(), 0, codes.data(), bytes);
    return codes;
}

void run_multithresh(OpContext& ctx) {
    const MultithreshPlan plan = ipt::frontend::plan_multithresh(ctx.args);
    check_size("ipt.multithresh", plan.numel);
    ipt::frontend::MultithreshResult r;
    MultithreshLimits l;
    if (plan.numel > 0) l = limits_of(ctx, plan);
    if (!ipt::frontend::multithresh_without_histogram(plan, l, r))
        r = ipt::frontend::multithresh_from_counts(plan, l, count_codes(ctx, plan, l).data());
    const std::vector<unsigned char> bytes = ipt::frontend::multithresh_bytes(r, plan.dtype);
    Recorder rec(ctx.device);
    const ipt_tensor* t = ctx.args.output("thresh", plan.dtype, 1, plan.N, 1);
    ctx.address(t);  // checks that it is on this device
    rec.write(static_cast<Buffer*>(t->buffer), t->offset, bytes.data(), bytes.size());
    if (ctx.args.wanted("metric")) {
        const ipt_tensor* m = ctx.args.output("metric", IPT_DOUBLE, 1, 1, 1);
        ctx.address(m);
        rec.write(static_cast<Buffer*>(m->buffer), m->offset, &r.metric, sizeof(double));
    }
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.multithresh", "wave32", 60, run_multithresh)
IPT_VK_OP("ipt.multithresh", "wave64", 50, run_multithresh)
