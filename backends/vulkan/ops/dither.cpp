// SPDX-License-Identifier: Apache-2.0
// ipt.dither on Vulkan: the error diffusion of the front-end's plan
// (backends/common/ops/dither.hpp; RGB images look up its inverse colormap
// when it has one, else search the colormap) as a wavefront in one work
// group, each lane owning pairs of rows as the CUDA backend's row pairs
// (shaders/dither*.comp). The scan is inherently
// sequential along its anti-diagonals; this is the operator that gains least
// from a GPU.
//
// Skewed (the default where the skewed buffers stay small, as CUDA's row
// pairs): dither_levels writes the input's levels skewed and transposed,
// dither_skewed walks the wavefront reading each step pair's levels of all
// lanes as one contiguous run, loaded GROUP step pairs ahead, and writes the
// colour indices skewed; dither_unskew puts them in place. Direct (tall
// images, whose skewed buffers grow as rows^2; slots that do not fit in
// shared memory; or IPT_VULKAN_DITHER=direct): dither reads the input in
// place, one step pair ahead.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "op_support.hpp"
#include "common/ops/dither.hpp"

namespace {

using namespace ipt::vk;

struct DitherPush {
    uint64_t img, mapq, table, slots, out;
    int32_t rows, cols, colours, top, bias, shift, qm, white_from, slot_count;
};
struct LevelsPush {
    uint64_t img, levels;
    int32_t rows, cols, top, lane_pairs, skewed_pad;
};
struct SkewedPush {
    uint64_t levels, mapq, table, indices;
    int32_t rows, cols, colours, top, bias, shift, qm, white_from, lane_pairs, skewed_pad, iterations;
};
struct UnskewPush {
    uint64_t indices, out;
    int32_t rows, cols, lane_pairs;
};

bool direct_forced() {
    const char* v = std::getenv("IPT_VULKAN_DITHER");
    return v && std::strcmp(v, "direct") == 0;
}

void run_dither(OpContext& ctx) {
    const auto& args = ctx.args;
    const ipt_tensor* img = args.image("I");
    const ipt::frontend::DitherPlan plan = ipt::frontend::plan_dither(args);
    const int64_t rows = plan.rows, cols = plan.cols, colours = plan.colours();
    const int nch = plan.channels;
    check_size("ipt.dither", rows * cols * nch);
    const int32_t dt = img->dtype, out_dtype = plan.out_dtype, top = plan.top, bias = plan.bias;
    const int shift = plan.shift;
    const int64_t qm = plan.qm;
    const bool use_table = !plan.inverse.empty();
    const ipt_tensor* x = args.output("X", out_dtype, rows, cols, 1);
    if (rows == 0 || cols == 0) return;

    Recorder rec(ctx.device);
    const VkDeviceAddress mapq_address = rec.params(plan.mapq);
    VkDeviceAddress table_address = 0;
    if (use_table) table_address = rec.params(std::vector<uint32_t>(plan.inverse.begin(), plan.inverse.end()));
    // Row pairs: the fewest per lane that fit in one work group (as CUDA:
    // more lanes at each barrier cost less than a longer step per lane), the
    // lanes rounded up to 64 so that few sizes make pipelines.
    const int64_t pairs = (rows + 1) / 2;
    const int64_t max_width = std::min<int64_t>(ctx.device.max_workgroup_invocations(), 1024) / 64 * 64;
    const int64_t per_lane = (pairs + max_width - 1) / max_width;
    const uint32_t width = uint32_t(std::min(max_width, ((pairs + per_lane - 1) / per_lane + 63) / 64 * 64));
    // Slots (dither.comp): shared memory when two ints per pair and channel
    // fit, the count rounded up to 64 as the lanes; else a global buffer.
    const int64_t slot_count = pairs + 2;
    const int64_t shared_slots = (slot_count + 63) / 64 * 64;
    const bool slots_shared = shared_slots * 2 * nch * 4 <= int64_t(ctx.device.max_shared_bytes());
    const int32_t white_from = plan.white_from;

    // Skewed: GROUP step pairs per loop iteration, each lane holding the
    // level words of the next GROUP (GROUP x pairs x channels registers, at
    // most 24). One skewed column is lane_pairs words; the buffers hold
    // iterations + 1 groups of columns (the last iteration loads one group
    // past its own). Taken while levels and indices together stay within
    // 4 words per pixel and channel (or 16 Mi words): a tall image's skewed
    // columns are mostly corners.
    const int64_t lane_pairs = int64_t(width) * per_lane;
    const int64_t group = std::clamp<int64_t>(24 / (per_lane * nch), 1, 8);
    const int64_t iterations = (cols + pairs - 1 + group - 1) / group;
    const int64_t skewed_pad = (iterations + 1) * group;
    const int64_t skewed_words = skewed_pad * lane_pairs;  // one channel, or the indices
    const bool skewed = slots_shared && !direct_forced() &&
                        skewed_words * (nch + 1) <= std::max<int64_t>(int64_t(1) << 24, 4 * rows * cols * nch) &&
                        skewed_words * nch * 2 < (int64_t(1) << 31);  // int32 word indices in the shaders
    if (skewed) {
        Buffer* levels = rec.scratch(uint64_t(skewed_words) * nch * 4);
        Buffer* indices = rec.scratch(uint64_t(skewed_words) * 4);
        const uint32_t gw = ctx.tuning.group_size;
        const Grid grid = grid_for(ctx.device, uint64_t(pairs * ((cols + 15) / 16)), gw);  // a pair, 16 columns
        LevelsPush lp{ctx.address(img), levels->address, int32_t(rows), int32_t(cols), top,
                      int32_t(lane_pairs), int32_t(skewed_pad)};
        rec.dispatch(ctx.pipeline("dither_levels", gw, 1, {uint32_t(dt), uint32_t(nch)}), &lp, sizeof lp, grid.x,
                     grid.y);
        SkewedPush sp{levels->address, mapq_address, table_address, indices->address,
                      int32_t(rows), int32_t(cols), int32_t(colours), top, bias, shift, int32_t(qm),
                      white_from, int32_t(lane_pairs), int32_t(skewed_pad), int32_t(iterations)};
        rec.dispatch(ctx.pipeline("dither_skewed", width, 1,
                                  {uint32_t(nch), use_table ? 1u : 0u, uint32_t(shared_slots), uint32_t(per_lane),
                                   uint32_t(group)}),
                     &sp, sizeof sp, 1);
        UnskewPush up{indices->address, ctx.address(x), int32_t(rows), int32_t(cols), int32_t(lane_pairs)};
        rec.dispatch(ctx.pipeline("dither_unskew", gw, 1, {uint32_t(out_dtype)}), &up, sizeof up, grid.x, grid.y);
        rec.submit();
        return;
    }

    Buffer* slots = slots_shared ? nullptr : rec.scratch(uint64_t(slot_count) * 2 * nch * 4);
    DitherPush p{ctx.address(img), mapq_address, table_address, slots ? slots->address : 0,
                 ctx.address(x), int32_t(rows), int32_t(cols), int32_t(colours), top,
                 bias, shift, int32_t(qm), white_from, int32_t(slot_count)};
    rec.dispatch(ctx.pipeline("dither", width, 1,
                              {uint32_t(dt), uint32_t(nch), use_table ? 1u : 0u, uint32_t(out_dtype),
                               slots_shared ? uint32_t(shared_slots) : 0u, uint32_t(per_lane)}),
                 &p, sizeof p, 1);
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.dither", "", 55, run_dither)
