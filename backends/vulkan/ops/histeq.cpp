// SPDX-License-Identifier: Apache-2.0
// ipt.histeq on Vulkan as the front-end plans it (common/ops/histeq.hpp):
// imhist's 256-bin histogram over every element, counted on the device
// (common/stretchlim.cpp) and read back; the transformation and its table on
// the host; then every element looked up by its bin (shaders/histeq_apply.comp).
#include <memory>
#include <type_traits>
#include <vector>

#include "common/ops/histeq.hpp"
#include "common/stretchlim.hpp"

namespace {

using namespace ipt::vk;
using ipt::frontend::HisteqPlan;

struct Release {
    Device* device;
    void operator()(Buffer* b) const { device->release(b); }
};

struct ApplyPush {
    uint64_t a, table, j;
    double int_scale;
    int32_t numel;
};

std::vector<uint32_t> read_histogram(OpContext& ctx, const HisteqPlan& plan) {
    std::vector<uint32_t> counts(HisteqPlan::nbins, 0u);
    if (plan.numel == 0) return counts;
    const uint64_t bytes = counts.size() * sizeof(uint32_t);
    std::unique_ptr<Buffer, Release> hist(ctx.device.allocate(bytes, MemoryKind::DeviceLocal), Release{&ctx.device});
    {
        Recorder rec(ctx.device);
        record_histogram(ctx, rec, plan.dtype, ctx.address(plan.I), plan.numel, 1, hist.get(),
                         uint32_t(HisteqPlan::nbins), Binning::Imhist);
        rec.submit();
    }
    ctx.device.download(hist.get(), 0, counts.data(), bytes);
    return counts;
}

template <class T>
void apply(OpContext& ctx, Recorder& rec, const HisteqPlan& plan, const std::vector<double>& transform,
           const ipt_tensor* J) {
    const std::vector<T> table = ipt::frontend::histeq_table<T>(transform);
    Buffer* lut = rec.scratch(table.size() * sizeof(T));
    rec.write(lut, 0, table.data(), table.size() * sizeof(T));
    const uint32_t width = ctx.tuning.group_size;
    ApplyPush p{ctx.address(plan.I), lut->address, ctx.address(J), 255.0 / 65535.0, int32_t(plan.numel)};
    const Grid grid = grid_for(ctx.device, uint64_t(plan.numel), uint64_t(width) * ctx.tuning.per_invocation);
    rec.dispatch(ctx.pipeline("histeq_apply", width, 1, {uint32_t(plan.dtype)}), &p, sizeof p, grid.x, grid.y, 1);
}

void run_histeq(OpContext& ctx) {
    const HisteqPlan plan = ipt::frontend::plan_histeq(ctx.args);
    check_size("ipt.histeq", plan.numel);
    const ipt_tensor* J = ctx.args.output("J", plan.out_dtype, plan.I->rows, plan.I->cols, plan.channels);
    const std::vector<uint32_t> counts = read_histogram(ctx, plan);
    const std::vector<double> transform = ipt::frontend::histeq_transform(plan, counts.data());
    Recorder rec(ctx.device);
    if (plan.numel > 0) {
        switch (plan.dtype) {
        case IPT_UINT8: apply<uint8_t>(ctx, rec, plan, transform, J); break;
        case IPT_UINT16: apply<uint16_t>(ctx, rec, plan, transform, J); break;
        case IPT_INT16: apply<int16_t>(ctx, rec, plan, transform, J); break;
        case IPT_SINGLE: apply<float>(ctx, rec, plan, transform, J); break;
        default: apply<double>(ctx, rec, plan, transform, J); break;
        }
    }
    if (ctx.args.wanted("T")) {
        const ipt_tensor* t = ctx.args.output("T", IPT_DOUBLE, plan.t_rows, plan.t_cols, 1);
        ctx.address(t);  // checks that it is on this device
        rec.write(static_cast<Buffer*>(t->buffer), t->offset, transform.data(), transform.size() * sizeof(double));
    }
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.histeq", "wave32", 60, run_histeq)
IPT_VK_OP("ipt.histeq", "wave64", 50, run_histeq)
