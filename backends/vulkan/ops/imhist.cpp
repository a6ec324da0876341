// SPDX-License-Identifier: Apache-2.0
// ipt.imhist on Vulkan as the front-end plans it (common/ops/imhist.hpp): one
// histogram over every element of I (channel planes are one contiguous
// array) with the device histogram shared with stretchlim
// (common/stretchlim.cpp), the counts converted to doubles
// (shaders/imhist_counts.comp), the plan's bin locations copied in.
#include "common/ops/imhist.hpp"
#include "common/stretchlim.hpp"

namespace {

using namespace ipt::vk;

struct CountsPush {
    uint64_t hist, counts;
    int32_t nbins;
};

void run_imhist(OpContext& ctx) {
    const ipt::frontend::ImhistPlan plan = ipt::frontend::plan_imhist(ctx.args);
    const int64_t numel = plan.plane * plan.channels;
    check_size("ipt.imhist", numel);
    const ipt_tensor* counts = ctx.args.output("counts", plan.out_dtype, plan.out_rows, plan.out_cols, 1);
    Recorder rec(ctx.device);
    const uint32_t nbins = uint32_t(plan.nbins);
    Buffer* hist = rec.scratch(uint64_t(nbins) * 4);
    record_histogram(ctx, rec, plan.dtype, numel ? ctx.address(plan.I) : 0, numel, 1, hist, nbins, Binning::Imhist);
    const uint32_t width = ctx.tuning.group_size;
    CountsPush cp{hist->address, ctx.address(counts), int32_t(nbins)};
    const Grid grid = grid_for(ctx.device, nbins, uint64_t(width) * ctx.tuning.per_invocation);
    rec.dispatch(ctx.pipeline("imhist_counts", width, 1, {}), &cp, sizeof cp, grid.x, grid.y, 1);
    if (ctx.args.wanted("binLocations")) {
        const ipt_tensor* x = ctx.args.output("binLocations", plan.out_dtype, plan.out_rows, plan.out_cols, 1);
        ctx.address(x);  // checks that it is on this device
        rec.write(static_cast<Buffer*>(x->buffer), x->offset, plan.bin_locations.data(),
                  plan.bin_locations.size() * sizeof(double));
    }
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.imhist", "wave32", 60, run_imhist)
IPT_VK_OP("ipt.imhist", "wave64", 50, run_imhist)
