// SPDX-License-Identifier: Apache-2.0
// Grayscale and binary morphology on Vulkan, shared by ipt.imdilate and
// ipt.imerode: the plan's members (reflected for dilation by the front-end,
// backends/common/ops/imdilate.hpp) as a list of offsets, one pass over them
// per pixel (shaders/morph.comp); uint8 and logical images under a flat
// rectangle in one pass of column then row extremes over 16-bit pairs
// (shaders/morph_rect_bytes.comp).
#include <cstdint>
#include <vector>

#include "morphology.hpp"

namespace ipt::vk {

struct MorphPush {
    uint64_t a, b, offsets, adds;
    int32_t rows, cols, count;
    int32_t dr_min, dc_min, tile_w, tile_h;
};

struct RectPush {
    uint64_t a, b;
    int32_t rows, cols, lo_r, lo_c, span_r, span_c;
    uint32_t pad;
    int32_t word_rows;
};

bool run_rect_bytes(OpContext& ctx, Recorder& rec, const frontend::MorphologyPlan& plan, VkDeviceAddress a,
                    VkDeviceAddress b) {
    const int64_t span_r = plan.dr_max - plan.dr_min, span_c = plan.dc_max - plan.dc_min;
    const int64_t words = (128 + span_c + 1) / 2 + 1, in_rows = 32 + span_r;
    if (4 * words * (in_rows + 32) > int64_t(ctx.device.max_shared_bytes())) return false;
    const VkDeviceAddress out = b;
    RectPush p{a, out, int32_t(plan.rows), int32_t(plan.cols), int32_t(plan.dr_min), int32_t(plan.dc_min),
               int32_t(span_r), int32_t(span_c), uint32_t(plan.pad), plan.cols % 4 == 0 && out % 4 == 0 ? 1 : 0};
    rec.dispatch(ctx.pipeline("morph_rect_bytes", 256, 1, {plan.dilate ? 1u : 0u, uint32_t(words), uint32_t(in_rows)}),
                 &p, sizeof p, div_up(plan.cols, 128), div_up(plan.rows, 32), 1);
    return true;
}

// Capacities of morph.comp's shared arrays (TILE_CAP, OFF_CAP).
constexpr int64_t kTileCap = 2048;
constexpr int64_t kOffsetCap = 512;

void run_morphology(OpContext& ctx, const frontend::MorphologyPlan& plan) {
    const char* op = plan.dilate ? "ipt.imdilate" : "ipt.imerode";
    const auto& args = ctx.args;
    const ipt_tensor* a = args.image("A");
    std::vector<int32_t> offsets;
    std::vector<double> adds;
    for (const frontend::MorphMember& m : plan.members) {
        offsets.push_back(int32_t(m.dr));
        offsets.push_back(int32_t(m.dc));
        adds.push_back(m.add);
    }
    const int64_t plane = plan.rows * plan.cols;
    check_size(op, plane);
    const ipt_tensor* b = args.output("B", plan.dtype, plan.rows, plan.cols, 1);
    if (plane == 0) return;
    Recorder rec(ctx.device);
    const bool bytes = plan.dtype == IPT_UINT8 || plan.dtype == IPT_LOGICAL;
    if (bytes && plan.flat && plan.rectangle && run_rect_bytes(ctx, rec, plan, ctx.address(a), ctx.address(b))) {
        rec.submit();
        return;
    }
    const int32_t count = int32_t(adds.size());
    const uint32_t gx = ctx.tuning.group_x, gy = ctx.tuning.group_y;
    // The members' extent decides the tile a work group needs.
    const int64_t tile_w = gx + (plan.dc_max - plan.dc_min),
                  tile_h = int64_t(gy) * ctx.tuning.per_invocation + (plan.dr_max - plan.dr_min);
    const bool tiled = count > 0 && count <= kOffsetCap && tile_w * tile_h <= kTileCap;
    MorphPush p{ctx.address(a),   ctx.address(b),         count ? rec.params(offsets) : 0,
                count ? rec.params(adds) : 0, int32_t(plan.rows), int32_t(plan.cols), count,
                int32_t(plan.dr_min), int32_t(plan.dc_min), int32_t(tile_w), int32_t(tile_h)};
    VkPipeline pipeline = ctx.pipeline("morph", gx, gy,
                                       {uint32_t(plan.dtype), plan.dilate ? 1u : 0u, plan.flat ? 0u : 1u, tiled ? 1u : 0u});
    rec.dispatch(pipeline, &p, sizeof p, div_up(plan.cols, gx), div_up(plan.rows, uint64_t(gy) * ctx.tuning.per_invocation),
                 1);
    rec.submit();
}

}  // namespace ipt::vk
