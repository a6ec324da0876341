// SPDX-License-Identifier: Apache-2.0
// ipt.imresize on Vulkan as the front-end plans it (common/ops/imresize.hpp):
// two dispatches of one shader, one per dimension (the first into scratch of
// the working class), with the front-end's indices and weights as parameter
// blocks; a pass of at most 16 taps gets a pipeline made for its count, and
// uint8 along the rows works on four columns an invocation.
#include <algorithm>

#include "op_support.hpp"
#include "common/ops/imresize.hpp"

namespace {

using namespace ipt::vk;

struct Push {
    uint64_t src, dst, idx, w;
    int32_t in_rows, in_cols, out_rows, out_cols;
    int32_t taps;
    int32_t channels;
};

struct Pass {
    VkDeviceAddress src, dst;
    int32_t src_dtype, dst_dtype;
    int64_t in_rows, in_cols, out_rows, out_cols;
    bool logical_out;
};

void record_pass(OpContext& ctx, Recorder& rec, const Pass& p, int dim, const ipt::frontend::ImresizeAxis& ax,
                 int64_t channels) {
    Push push{p.src,
              p.dst,
              rec.params(ax.indices.data(), ax.indices.size_bytes()),
              rec.params(ax.weights.data(), ax.weights.size_bytes()),
              int32_t(p.in_rows),
              int32_t(p.in_cols),
              int32_t(p.out_rows),
              int32_t(p.out_cols),
              ax.taps,
              int32_t(channels)};
    const uint32_t group = ctx.tuning.group_size;
    // Up to kFixedTaps taps, the shader's loops over them are unrolled and
    // each invocation walks kStrip rows (its STRIP).
    constexpr int32_t kFixedTaps = 16;
    constexpr uint64_t kStrip = 8;
    const bool fixed = ax.taps >= 1 && ax.taps <= kFixedTaps;
    // uint8 along the rows (the columns stay as they are): four columns an
    // invocation, as 32-bit words, where the width and addresses allow.
    const bool quads = fixed && dim == 0 && p.src_dtype == IPT_UINT8 && p.dst_dtype == IPT_UINT8 && !p.logical_out &&
                       p.out_cols % 4 == 0 && p.in_cols == p.out_cols && OpContext::aligned({p.src, p.dst}, 4);
    VkPipeline pipeline = ctx.pipeline("imresize", group, 1,
                                       {uint32_t(p.src_dtype), uint32_t(p.dst_dtype), uint32_t(dim),
                                        p.logical_out ? 1u : 0u, fixed ? uint32_t(ax.taps) : 1u, fixed ? 1u : 0u,
                                        quads ? 1u : 0u});
    // Columns (or words), rows (or strips of rows) and planes on x, y and z,
    // within the counts every device offers.
    constexpr uint64_t kMaxGroups = 65535;
    const uint64_t across = quads ? uint64_t(p.out_cols) / 4 : uint64_t(p.out_cols);
    const uint64_t gx = std::min<uint64_t>((across + group - 1) / group, kMaxGroups);
    const uint64_t gy = std::min<uint64_t>(fixed ? (uint64_t(p.out_rows) + kStrip - 1) / kStrip : uint64_t(p.out_rows),
                                           kMaxGroups);
    const uint64_t gz = std::min<uint64_t>(uint64_t(channels), kMaxGroups);
    rec.dispatch(pipeline, &push, sizeof push, uint32_t(gx), uint32_t(gy), uint32_t(gz));
}

void run_imresize(OpContext& ctx) {
    const ipt::frontend::ImresizePlan plan = ipt::frontend::plan_imresize(ctx.args);
    int64_t mid_rows, mid_cols;
    ipt::frontend::imresize_middle_size(plan, &mid_rows, &mid_cols);
    const int64_t ch = plan.channels;
    check_size("ipt.imresize", plan.rows * plan.cols * ch);
    check_size("ipt.imresize", mid_rows * mid_cols * ch);
    check_size("ipt.imresize", plan.out_rows * plan.out_cols * ch);
    for (const auto& ax : plan.axis) check_size("ipt.imresize", ax.out_length * ax.taps);
    const ipt_tensor* B = ctx.args.output("B", plan.dtype, plan.out_rows, plan.out_cols, ch);
    if (plan.out_rows * plan.out_cols * ch == 0) return;
    Recorder rec(ctx.device);
    Buffer* mid = rec.scratch(uint64_t(mid_rows * mid_cols * ch) * ipt::plugin::dtype_size(plan.work_dtype));
    const int first = plan.first, second = 1 - first;
    record_pass(ctx, rec,
                Pass{ctx.address(plan.A), mid->address, plan.dtype, plan.work_dtype, plan.rows, plan.cols, mid_rows,
                     mid_cols, false},
                first, plan.axis[first], ch);
    record_pass(ctx, rec,
                Pass{mid->address, ctx.address(B), plan.work_dtype, plan.dtype, mid_rows, mid_cols, plan.out_rows,
                     plan.out_cols, plan.dtype == IPT_LOGICAL},
                second, plan.axis[second], ch);
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.imresize", "wave32", 60, run_imresize)
IPT_VK_OP("ipt.imresize", "wave64", 50, run_imresize)
