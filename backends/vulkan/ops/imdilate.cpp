// ipt.imdilate on Vulkan (and the shared host side of ipt.imerode): the SE
// as a list of offsets (reflected for dilation), one pass over them per pixel
// (shaders/morph.comp).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/morphology.hpp"

namespace ipt::vk {

struct MorphPush {
    uint64_t a, b, offsets, adds;
    int32_t rows, cols, count;
    int32_t dr_min, dc_min, tile_w, tile_h;
};

// Capacities of morph.comp's shared arrays (TILE_CAP, OFF_CAP).
constexpr int64_t kTileCap = 2048;
constexpr int64_t kOffsetCap = 512;

void run_morphology(OpContext& ctx, bool dilate) {
    const char* op = dilate ? "ipt.imdilate" : "ipt.imerode";
    const auto& args = ctx.args;
    const ipt_tensor* a = args.image("A");
    const ipt_tensor* nh = args.image("nhood");
    const ipt_tensor* ht = args.image("heights");
    if (nh->dtype != IPT_LOGICAL || nh->channels != 1)
        ipt::plugin::invalid(std::string(op) + ": parameter 'nhood' must be a 2-D logical array");
    const auto* mask = static_cast<const uint8_t*>(nh->data);
    const double* heights = ht ? static_cast<const double*>(ht->data) : nullptr;
    bool flat = true;
    if (ht) {
        if (ht->dtype != IPT_DOUBLE || ht->rows != nh->rows || ht->cols != nh->cols || ht->channels != 1)
            ipt::plugin::invalid(std::string(op) + ": parameter 'heights' must be a double array of the size of nhood");
        for (int64_t i = 0; i < nh->rows * nh->cols; ++i) {
            if (!mask[i]) continue;
            if (std::isnan(heights[i])) ipt::plugin::invalid(std::string(op) + ": parameter 'heights' must not contain NaN");
            if (heights[i] != 0) flat = false;
        }
        if (!flat && a->dtype == IPT_LOGICAL)
            ipt::plugin::invalid(std::string(op) +
                                 ": parameter 'heights' must be zero for a logical image "
                                 "(binary morphology needs a flat structuring element)");
    }
    // Offsets relative to the origin floor((size+1)/2) (pitfall 3); dilation
    // reflects them (pitfall 6).
    const int64_t r0 = (nh->rows + 1) / 2 - 1, c0 = (nh->cols + 1) / 2 - 1;
    std::vector<int32_t> offsets;
    std::vector<double> adds;
    for (int64_t r = 0; r < nh->rows; ++r)
        for (int64_t c = 0; c < nh->cols; ++c) {
            if (!mask[r * nh->cols + c]) continue;
            const int64_t dr = r - r0, dc = c - c0;
            offsets.push_back(int32_t(dilate ? -dr : dr));
            offsets.push_back(int32_t(dilate ? -dc : dc));
            const double h = flat ? 0.0 : heights[r * nh->cols + c];
            adds.push_back(dilate ? h : -h);
        }
    const int64_t plane = a->rows * a->cols;
    check_size(op, plane * a->channels);
    const ipt_tensor* b = args.output("B", a->dtype, a->rows, a->cols, a->channels);
    if (plane == 0) return;
    Recorder rec(ctx.device);
    const int32_t count = int32_t(adds.size());
    const uint32_t gx = ctx.tuning.group_x, gy = ctx.tuning.group_y;
    // The offsets' extent decides the tile a work group needs.
    int32_t dr_min = 0, dr_max = 0, dc_min = 0, dc_max = 0;
    for (int32_t j = 0; j < count; ++j) {
        dr_min = std::min(dr_min, offsets[2 * j]);
        dr_max = std::max(dr_max, offsets[2 * j]);
        dc_min = std::min(dc_min, offsets[2 * j + 1]);
        dc_max = std::max(dc_max, offsets[2 * j + 1]);
    }
    const int64_t tile_w = gx + (dc_max - dc_min), tile_h = int64_t(gy) * ctx.tuning.per_invocation + (dr_max - dr_min);
    const bool tiled = count > 0 && count <= kOffsetCap && tile_w * tile_h <= kTileCap;
    MorphPush p{ctx.address(a), ctx.address(b), count ? rec.params(offsets) : 0, count ? rec.params(adds) : 0,
                int32_t(a->rows), int32_t(a->cols), count, dr_min, dc_min, int32_t(tile_w), int32_t(tile_h)};
    VkPipeline pipeline =
        ctx.pipeline("morph", gx, gy, {uint32_t(a->dtype), dilate ? 1u : 0u, flat ? 0u : 1u, tiled ? 1u : 0u});
    rec.dispatch(pipeline, &p, sizeof p, div_up(a->cols, gx), div_up(a->rows, uint64_t(gy) * ctx.tuning.per_invocation),
                 uint32_t(a->channels));
    rec.submit();
}

}  // namespace ipt::vk

namespace {

void run_imdilate(ipt::vk::OpContext& ctx) { ipt::vk::run_morphology(ctx, true); }

}  // namespace

IPT_VK_OP("ipt.imdilate", run_imdilate)
