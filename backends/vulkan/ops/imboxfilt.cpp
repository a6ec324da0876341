// SPDX-License-Identifier: Apache-2.0
// ipt.imboxfilt on Vulkan (common/ops/imboxfilt.hpp), per plane. uint8
// planes whose width is a multiple of 4, with windows of at most kQuadRows
// rows and kBoxDirect columns: shaders/box_quads.comp keeps running window
// sums down four columns an invocation. Other 8- and 16-bit integers with
// windows of at most kBoxDirect x kBoxDirect:
// shaders/box_direct.comp sums each window exactly in int32 from a shared
// tile (the same integer the integral route's corners give). Everything else:
// the padded plane's integral image through the shared passes
// (common/integral_image.hpp), then shaders/box_filter.comp reads the four
// corners of each window, all in the CPU reference's order.
#include <algorithm>

#include "common/integral_image.hpp"
#include "common/ops/imboxfilt.hpp"

namespace {

using namespace ipt::vk;
using ipt::frontend::ImboxfiltPlan;

struct BoxPush {
    uint64_t j, b;
    double norm;
    int32_t m, n, fr, fc, stride;
};

struct DirectPush {
    uint64_t a, b;
    double norm, pad;
    int32_t m, n, fr, fc, top, left, tiles_x, tiles;
};

constexpr int64_t kBoxDirect = 17, kBoxTile = 32;  // MAXW, TR and TC of box_direct.comp
// box_quads.comp: GROUP and STRIP; at most 16 window rows keep its ring
// (16 bytes a slot) within 32 KiB of shared memory.
constexpr int64_t kQuadGroup = 128, kQuadStrip = 8, kQuadRows = 16;

struct QuadPush {
    uint64_t a, b;
    double norm;
    int32_t m, n, top, left, pad;
};

bool quad_route(const ImboxfiltPlan& p, VkDeviceAddress in, VkDeviceAddress out) {
    return p.out_class == IPT_UINT8 && p.cols % 4 == 0 && p.cols / 4 <= kQuadGroup * 65535 && p.fr <= kQuadRows &&
           p.fc <= kBoxDirect && OpContext::aligned({in, out}, 4);
}

void run_quads(OpContext& ctx, const ImboxfiltPlan& p, VkDeviceAddress in, VkDeviceAddress out) {
    const uint64_t plane = uint64_t(p.rows * p.cols);
    Recorder rec(ctx.device);
    VkPipeline box = ctx.pipeline("box_quads", uint32_t(kQuadGroup), 1,
                                  {uint32_t(p.out_class), uint32_t(ipt::frontend::border_as<Pad>(p.boundary)),
                                   uint32_t(p.fc), uint32_t(p.fr)});
    const uint32_t gx = div_up(uint64_t(p.cols / 4), kQuadGroup);
    const uint32_t gy = std::min<uint32_t>(div_up(uint64_t(p.rows), kQuadStrip), 65535u);
    for (int64_t ch = 0; ch < p.channels; ++ch) {
        QuadPush qp{in + uint64_t(ch) * plane, out + uint64_t(ch) * plane, p.norm, int32_t(p.rows), int32_t(p.cols),
                    int32_t(p.top), int32_t(p.left), int32_t(p.pad_value)};
        rec.dispatch(box, &qp, sizeof qp, gx, gy);
    }
    rec.submit();
}

bool direct_route(const ImboxfiltPlan& p) {
    const bool small_integer = p.out_class == IPT_UINT8 || p.out_class == IPT_UINT16 || p.out_class == IPT_INT16;
    return small_integer && p.fr <= kBoxDirect && p.fc <= kBoxDirect;
}

void run_direct(OpContext& ctx, const ImboxfiltPlan& p, VkDeviceAddress in, VkDeviceAddress out) {
    const uint64_t bytes = dtype_bytes(p.out_class), plane = uint64_t(p.rows * p.cols);
    const int64_t tiles_x = (p.cols + kBoxTile - 1) / kBoxTile, tiles = tiles_x * ((p.rows + kBoxTile - 1) / kBoxTile);
    Recorder rec(ctx.device);
    VkPipeline box = ctx.pipeline("box_direct", 32, 8,
                                  {uint32_t(p.out_class), uint32_t(ipt::frontend::border_as<Pad>(p.boundary))});
    const Grid g = grid_for(ctx.device, uint64_t(tiles), 1);
    for (int64_t ch = 0; ch < p.channels; ++ch) {
        DirectPush dp{in + uint64_t(ch) * plane * bytes, out + uint64_t(ch) * plane * bytes, p.norm, p.pad_value,
                      int32_t(p.rows), int32_t(p.cols), int32_t(p.fr), int32_t(p.fc), int32_t(p.top),
                      int32_t(p.left), int32_t(tiles_x), int32_t(tiles)};
        rec.dispatch(box, &dp, sizeof dp, g.x, g.y);
    }
    rec.submit();
}

void run_imboxfilt(OpContext& ctx) {
    const ImboxfiltPlan p = ipt::frontend::plan_imboxfilt(ctx.args);
    const ipt_tensor* B = ctx.args.output("B", p.out_class, p.rows, p.cols, p.channels);
    if (p.rows * p.cols * p.channels == 0) return;
    check_size("ipt.imboxfilt", p.rows * p.cols * p.channels);
    const VkDeviceAddress in = ctx.address(p.A), out = ctx.address(B);
    if (quad_route(p, in, out)) return run_quads(ctx, p, in, out);
    if (direct_route(p)) return run_direct(ctx, p, in, out);
    const int64_t stride = p.padded_cols + 1;
    check_size("ipt.imboxfilt", (p.padded_rows + 1) * stride);
    const uint64_t bytes = dtype_bytes(p.out_class), plane = uint64_t(p.rows * p.cols);
    Recorder rec(ctx.device);
    Buffer* J = rec.scratch(uint64_t((p.padded_rows + 1) * stride) * sizeof(double));
    const uint32_t group = ctx.tuning.group_size;
    VkPipeline box = ctx.pipeline("box_filter", group, 1, {uint32_t(p.out_class)});
    for (int64_t ch = 0; ch < p.channels; ++ch) {
        IntegralSource s;
        s.a = in + uint64_t(ch) * plane * bytes;
        s.dtype = p.A->dtype;
        s.m = p.rows;
        s.n = p.cols;
        s.pad = ipt::frontend::border_as<Pad>(p.boundary);
        s.pad_value = p.pad_value;
        s.top = p.top;
        s.left = p.left;
        s.pm = p.padded_rows;
        s.pn = p.padded_cols;
        record_integral_image(ctx, rec, s, J->address);
        BoxPush bp{J->address, out + uint64_t(ch) * plane * bytes, p.norm, int32_t(p.rows), int32_t(p.cols),
                   int32_t(p.fr), int32_t(p.fc), int32_t(stride)};
        const Grid g = grid_for(ctx.device, plane, uint64_t(group) * ctx.tuning.per_invocation);
        rec.dispatch(box, &bp, sizeof bp, g.x, g.y);
    }
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.imboxfilt", "wave32", 60, run_imboxfilt)
IPT_VK_OP("ipt.imboxfilt", "wave64", 50, run_imboxfilt)
