// SPDX-License-Identifier: Apache-2.0
// ipt.imadjust on Vulkan as the front-end plans it (common/ops/imadjust.hpp).
// uint8, uint16 and int16: the front-end's table per channel, written to the
// device and mapped through with the intlut shader, one dispatch per channel
// plane. Without low_high_in the limits are stretchlim(I), computed on the
// device and read back (2 x channels doubles) for the front-end to build the
// table from. single and double: the curve per element (imadjust_apply), the
// stretchlim limits read on the device.
#include <memory>
#include <vector>

#include "common/stretchlim.hpp"
#include "common/ops/imadjust.hpp"

namespace {

using namespace ipt::vk;
using ipt::frontend::ImadjustPlan;

struct ApplyLutPush {
    uint64_t a, lut, b;
    int32_t n;
};
struct ApplyPush {
    uint64_t i, j, params, limits;
    int32_t plane, channels;
};

struct Release {
    Device* device;
    void operator()(Buffer* b) const { device->release(b); }
};

// stretchlim(I) per channel: 2 x channels doubles, row 0 low, row 1 high.
std::vector<double> read_default_limits(OpContext& ctx, const ImadjustPlan& plan) {
    const uint64_t bytes = uint64_t(plan.channels) * 2 * sizeof(double);
    std::unique_ptr<Buffer, Release> limits(ctx.device.allocate(bytes, MemoryKind::DeviceLocal), Release{&ctx.device});
    {
        Recorder rec(ctx.device);
        record_stretchlim(ctx, rec, plan.default_limits, limits.get(), 0);
        rec.submit();
    }
    std::vector<double> host(size_t(plan.channels) * 2);
    ctx.device.download(limits.get(), 0, host.data(), bytes);
    return host;
}

void apply_table(OpContext& ctx, const ImadjustPlan& plan, const ipt_tensor* out) {
    ipt::frontend::ImadjustTable from_limits;
    if (!plan.limits_given) from_limits = ipt::frontend::imadjust_table(plan, read_default_limits(ctx, plan).data());
    const ipt::frontend::ImadjustTable& table = plan.limits_given ? plan.table : from_limits;
    const uint64_t esize = table.element_bytes();
    Recorder rec(ctx.device);
    Buffer* lut = rec.scratch(table.bytes());
    rec.write(lut, 0, table.data(), table.bytes());
    const VkDeviceAddress a = ctx.address(plan.I), b = ctx.address(out);
    const int64_t plane = plan.plane;
    const bool vec = ctx.tuning.vector_width > 1 && OpContext::aligned({a, b}, 4) && (plane * esize) % 4 == 0;
    const uint32_t per_word = vec ? 4 / uint32_t(esize) : 1;
    const uint32_t width = ctx.tuning.group_size;
    VkPipeline pipeline = ctx.pipeline("intlut", width, 1, {uint32_t(plan.dtype)}, vec ? 4 : 1);
    Grid grid = grid_for(ctx.device, plane, uint64_t(width) * ctx.tuning.per_invocation * per_word);
    for (int64_t ch = 0; ch < plan.channels; ++ch) {
        ApplyLutPush p{a + ch * plane * esize, lut->address + ch * table.channel_bytes(), b + ch * plane * esize,
                       int32_t(plane)};
        rec.dispatch(pipeline, &p, sizeof p, grid.x, grid.y);
    }
    rec.submit();
}

void apply_curve(OpContext& ctx, const ImadjustPlan& plan, const ipt_tensor* out) {
    // Per channel: li, hi, lo, ho, gamma (imadjust_curve.glsl).
    std::vector<double> curves;
    for (const ipt::common::AdjustCurve& c : plan.curves)
        curves.insert(curves.end(), {c.low_in, c.high_in, c.low_out, c.high_out, c.gamma});
    Recorder rec(ctx.device);
    VkDeviceAddress limits = 0;
    if (!plan.limits_given) {
        Buffer* lim = rec.scratch(uint64_t(plan.channels) * 2 * sizeof(double));
        record_stretchlim(ctx, rec, plan.default_limits, lim, 0);
        limits = lim->address;
    }
    const uint32_t width = ctx.tuning.group_size;
    ApplyPush p{ctx.address(plan.I), ctx.address(out), rec.params(curves), limits, int32_t(plan.plane),
                int32_t(plan.channels)};
    Grid grid = grid_for(ctx.device, plan.plane, uint64_t(width) * ctx.tuning.per_invocation);
    rec.dispatch(ctx.pipeline("imadjust_apply", width, 1, {uint32_t(plan.dtype)}), &p, sizeof p, grid.x, grid.y,
                 uint32_t(plan.channels));
    rec.submit();
}

void run_imadjust(OpContext& ctx) {
    const ImadjustPlan plan = ipt::frontend::plan_imadjust(ctx.args);
    check_size("ipt.imadjust", plan.plane * plan.channels);
    const ipt_tensor* out = ctx.args.output("J", plan.dtype, plan.rows, plan.cols, plan.channels);
    if (plan.plane == 0) return;
    if (plan.uses_table) apply_table(ctx, plan, out);
    else apply_curve(ctx, plan, out);
}

}  // namespace

IPT_VK_OP("ipt.imadjust", "wave32", 60, run_imadjust)
IPT_VK_OP("ipt.imadjust", "wave64", 50, run_imadjust)
