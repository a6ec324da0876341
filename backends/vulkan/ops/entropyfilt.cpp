// SPDX-License-Identifier: Apache-2.0
// ipt.entropyfilt on Vulkan as the front-end plans it
// (common/ops/entropyfilt.hpp): the planes binned once into a symmetrically
// padded copy (shaders/entropyfilt_pad.comp), then one invocation per column
// slides a running histogram down a strip of rows (shaders/entropyfilt.comp),
// its counts 8, 16 or 32 bits wide by the window size, in shared memory where
// a work group's fit, else in a global scratch slot per invocation.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/ops/entropyfilt.hpp"
#include "op_support.hpp"

namespace {

using namespace ipt::vk;

struct PadPush {
    uint64_t a, padded;
    int32_t rows, cols, prows, pcols, orow, ocol, n;
};

struct SlidePush {
    uint64_t padded, j, offsets, terms, scratch;
    int32_t rows, cols, prows, pcols, strip, n_all, n_leave, n_enter, slots;
};

void run_entropyfilt(OpContext& ctx) {
    const ipt::frontend::EntropyfiltPlan plan = ipt::frontend::plan_entropyfilt(ctx.args);
    check_size("ipt.entropyfilt", plan.rows * plan.cols * plan.channels);
    const ipt_tensor* in = ctx.args.image("I");
    const ipt_tensor* j = ctx.args.output("J", IPT_DOUBLE, plan.rows, plan.cols, plan.channels);
    if (plan.rows == 0 || plan.cols == 0 || plan.channels == 0) return;
    // No members (an empty nhood) runs the same passes: no bin is occupied,
    // so every sum is empty, 0.
    const auto& nh = plan.nhood;
    const int64_t prows = plan.rows + nh.rows - 1, pcols = plan.cols + nh.cols - 1;
    const int64_t padded_n = prows * pcols * plan.channels;
    check_size("ipt.entropyfilt", padded_n);
    Recorder rec(ctx.device);

    // Pass 1: the padded bins.
    Buffer* padded = rec.scratch(uint64_t(padded_n));
    PadPush pad{ctx.address(in), padded->address, int32_t(plan.rows), int32_t(plan.cols), int32_t(prows),
                int32_t(pcols), int32_t(nh.origin_row), int32_t(nh.origin_col), int32_t(padded_n)};
    const uint32_t group = ctx.tuning.group_size;
    const Grid grid = grid_for(ctx.device, uint64_t(padded_n), uint64_t(group) * ctx.tuning.per_invocation);
    rec.dispatch(ctx.pipeline("entropyfilt_pad", group, 1, {uint32_t(plan.in_dtype)}), &pad, sizeof pad, grid.x,
                 grid.y);

    // Pass 2: member offsets from a window's top-left in the padded plane
    // (a step is one row down), the table of terms, the histograms.
    const ipt::frontend::EntropySlide slide = ipt::frontend::entropy_slide(nh, 1, 0);
    std::vector<int32_t> offsets;
    auto push_offsets = [&](const std::vector<ipt::frontend::NhoodOffset>& ms, int64_t step) {
        for (const auto& m : ms) offsets.push_back(int32_t((m.dr + nh.origin_row + step) * pcols + m.dc + nh.origin_col));
    };
    push_offsets(nh.members, 0);
    push_offsets(slide.leave, 0);
    push_offsets(slide.enter, 1);
    const uint32_t bits = plan.count < 256 ? 8 : plan.count < 65536 ? 16 : 32;
    const uint32_t width = ctx.tuning.group_x;  // one subgroup of columns
    const uint64_t words = 256 * bits / 32 + 8;   // per invocation
    const uint32_t store = words * 4 * width <= ctx.device.max_shared_bytes() ? 0 : 1;
    // Strips of at least 8 rows, short enough for about 128K invocations (each
    // strip counts its first window in full), at most the grid's height; with
    // global slots, at most 64K invocations.
    const int64_t col_invocations = int64_t(div_up(plan.cols, width)) * width * plan.channels;
    const int64_t want = store == 0 ? 131072 : 65536;
    const int64_t strips_wanted = std::max<int64_t>(1, want / col_invocations);
    int64_t strip = std::max<int64_t>(div_up(plan.rows, strips_wanted), 8);
    strip = std::max<int64_t>(strip, div_up(plan.rows, ctx.device.max_group_count(1)));
    const uint32_t strips = div_up(plan.rows, strip);
    const int64_t slots = int64_t(div_up(plan.cols, width)) * width * strips * plan.channels;
    if (store == 1 && slots * int64_t(words) > kMaxElements)
        ipt::plugin::unsupported("ipt.entropyfilt: an nhood of more than 255 members over more than about 8 million "
                                 "columns is not handled by the Vulkan backend");
    Buffer* scratch = store == 1 ? rec.scratch(uint64_t(slots) * words * 4) : nullptr;
    SlidePush push{padded->address,
                   ctx.address(j),
                   offsets.empty() ? 0 : rec.params(offsets),
                   rec.params(ipt::frontend::entropy_terms(plan.count)),
                   scratch ? scratch->address : 0,
                   int32_t(plan.rows),
                   int32_t(plan.cols),
                   int32_t(prows),
                   int32_t(pcols),
                   int32_t(strip),
                   int32_t(nh.members.size()),
                   int32_t(slide.leave.size()),
                   int32_t(slide.enter.size()),
                   int32_t(store == 1 ? slots : 0)};
    rec.dispatch(ctx.pipeline("entropyfilt", width, 1, {bits, store}), &push, sizeof push, div_up(plan.cols, width),
                 strips, uint32_t(plan.channels));
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.entropyfilt", "wave32", 60, run_entropyfilt)
IPT_VK_OP("ipt.entropyfilt", "wave64", 50, run_entropyfilt)
