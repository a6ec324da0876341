// ipt.conv2 on Vulkan: the correlation engine with the kernel turned by 180
// degrees, summing only the terms that overlap A (MATLAB's definition, so a
// zero weight times Inf is NaN and nothing outside A is multiplied).
// conv2(u,v,A) runs the columns with u, then the rows with v. Accumulates in
// the output class (float when every input is single), kernel-row partial
// sums first (error grows with kr + kc, not kr * kc).
//
// This file also holds the engine's host side (correlate.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "correlate.hpp"
#include "rank1.hpp"

namespace ipt::vk {

struct CorrelatePush {
    uint64_t a, k, out;
    double pad_value;
    int32_t ma, na, out_rows, out_cols, off_r, off_c, kr, kc;
    int32_t tile_w, tile_h;
};

// Capacities of correlate.comp's shared arrays (TILE_CAP, K_CAP).
constexpr int64_t kTileCap = 2048;
constexpr int64_t kKernelCap = 512;

Groups correlation_groups(const OpContext& ctx, const Correlation& c) {
    return {div_up(c.out_cols, ctx.tuning.group_x), div_up(c.out_rows, uint64_t(ctx.tuning.group_y) * ctx.tuning.per_invocation),
            uint32_t(c.planes)};
}

void record_correlation(OpContext& ctx, Recorder& rec, const Correlation& c) {
    if (c.out_rows * c.out_cols * c.planes == 0) return;
    for (int64_t v : {c.source_rows, c.source_cols, c.out_rows, c.out_cols, c.kernel_rows, c.kernel_cols})
        if (v > kMaxElements) ipt::plugin::unsupported(std::string(ctx.op()) + ": image too large for the Vulkan backend");
    const uint32_t gx = ctx.tuning.group_x, gy = ctx.tuning.group_y;
    // Stage the source tile and the kernel in shared memory when they fit.
    const int64_t tile_w = gx + c.kernel_cols - 1, tile_h = int64_t(gy) * ctx.tuning.per_invocation + c.kernel_rows - 1;
    const bool tiled = tile_w * tile_h <= kTileCap && c.kernel_rows * c.kernel_cols <= kKernelCap &&
                       c.kernel_rows * c.kernel_cols > 0;
    CorrelatePush p{c.source, c.kernel, c.out, c.pad_value, int32_t(c.source_rows), int32_t(c.source_cols),
                    int32_t(c.out_rows), int32_t(c.out_cols), int32_t(c.off_r), int32_t(c.off_c),
                    int32_t(c.kernel_rows), int32_t(c.kernel_cols), int32_t(tile_w), int32_t(tile_h)};
    VkPipeline pipeline =
        ctx.pipeline("correlate", gx, gy,
                     {uint32_t(c.source_dtype), uint32_t(c.kernel_dtype), uint32_t(c.out_dtype),
                      c.accumulate_double ? 1u : 0u, uint32_t(c.pad), c.skip_zero ? 1u : 0u, c.rotate ? 1u : 0u,
                      tiled ? 1u : 0u});
    if (c.indirect) {
        rec.dispatch_indirect(pipeline, &p, sizeof p, c.indirect, c.indirect_offset);
        return;
    }
    const Groups g = correlation_groups(ctx, c);
    rec.dispatch(pipeline, &p, sizeof p, g.x, g.y, g.z);
}

void record_filter_replicate(OpContext& ctx, Recorder& rec, VkDeviceAddress src, VkDeviceAddress dst,
                             int32_t working_dtype, int64_t rows, int64_t cols, const std::vector<double>& h,
                             int64_t kr, int64_t kc, bool conv) {
    if (rows * cols == 0) return;
    Correlation c;
    c.source = src;
    c.source_dtype = working_dtype;
    c.source_rows = rows;
    c.source_cols = cols;
    c.kernel_dtype = IPT_DOUBLE;
    c.kernel_rows = kr;
    c.kernel_cols = kc;
    c.rotate = conv;
    c.skip_zero = true;
    c.pad = Pad::Replicate;
    c.out = dst;
    c.out_dtype = working_dtype;
    c.out_rows = rows;
    c.out_cols = cols;
    c.off_r = -((kr + 1) / 2 - 1);
    c.off_c = -((kc + 1) / 2 - 1);
    c.accumulate_double = working_dtype == IPT_DOUBLE;
    if (const ipt::common::Rank1 f = ipt::common::separable_route(h.data(), kr, kc, conv); f.ok) {
        const int64_t pcols = cols + kc - 1;
        Buffer* mid = rec.scratch(uint64_t(rows * pcols) * dtype_bytes(working_dtype));
        Correlation column = c;
        column.kernel = rec.params(f.u);
        column.kernel_cols = 1;
        column.rotate = false;
        column.out = mid->address;
        column.out_cols = pcols;
        record_correlation(ctx, rec, column);
        Correlation row = c;
        row.source = mid->address;
        row.source_cols = pcols;
        row.kernel = rec.params(f.v);
        row.kernel_rows = 1;
        row.rotate = false;
        row.pad = Pad::Skip;
        row.off_r = 0;
        row.off_c = 0;
        record_correlation(ctx, rec, row);
        return;
    }
    c.kernel = rec.params(h);
    record_correlation(ctx, rec, c);
}

}  // namespace ipt::vk

namespace {

using namespace ipt::vk;
using ipt::plugin::invalid;

int64_t numel(const ipt_tensor* t) { return t->rows * t->cols; }

void run_conv2(OpContext& ctx) {
    const auto& args = ctx.args;
    const ipt_tensor* A = args.image("A");
    const ipt_tensor* B = args.image("B");
    const ipt_tensor* u = args.image("u");
    const ipt_tensor* v = args.image("v");
    if (B && (u || v)) invalid("ipt.conv2: give either parameter 'B' or parameters 'u' and 'v', not both");
    if (!B && !(u && v)) {
        if (u || v)
            invalid(std::string("ipt.conv2: parameter '") + (u ? "v" : "u") + "' is required with '" +
                    (u ? "u" : "v") + "' (conv2(u,v,A))");
        invalid("ipt.conv2: parameter 'B' (or 'u' and 'v') is required");
    }
    bool all_single = true;
    for (auto [name, t] : {std::pair{"A", A}, {"B", B}, {"u", u}, {"v", v}}) {
        if (!t) continue;
        if (t->dtype != IPT_SINGLE && t->dtype != IPT_DOUBLE)
            invalid(std::string("ipt.conv2: parameter '") + name + "' must be single or double");
        if (t->channels != 1) invalid(std::string("ipt.conv2: parameter '") + name + "' must have one channel");
        all_single &= t->dtype == IPT_SINGLE;
    }
    for (auto [name, t] : {std::pair{"u", u}, {"v", v}})
        if (t && t->rows > 1 && t->cols > 1) invalid(std::string("ipt.conv2: parameter '") + name + "' must be a vector");
    const int32_t out_dt = all_single ? IPT_SINGLE : IPT_DOUBLE;
    const int64_t ma = A->rows, na = A->cols;
    const int64_t kr = B ? B->rows : numel(u), kc = B ? B->cols : numel(v);
    int64_t out_rows, out_cols, off_r, off_c;  // off: position in 'full'
    if (args.is("shape", "same")) {
        out_rows = ma, out_cols = na, off_r = kr / 2, off_c = kc / 2;
    } else if (args.is("shape", "valid")) {
        out_rows = std::max<int64_t>(ma - std::max<int64_t>(0, kr - 1), 0);
        out_cols = std::max<int64_t>(na - std::max<int64_t>(0, kc - 1), 0);
        off_r = std::max<int64_t>(kr - 1, 0), off_c = std::max<int64_t>(kc - 1, 0);
    } else if (args.is("shape", "full")) {
        out_rows = std::max({ma + kr - 1, ma, kr}), out_cols = std::max({na + kc - 1, na, kc});
        off_r = off_c = 0;
    } else {
        invalid("ipt.conv2: parameter 'shape' must be 'full', 'same' or 'valid'");
    }
    check_size("ipt.conv2", out_rows * out_cols);
    check_size("ipt.conv2", out_rows * na);

    const ipt_tensor* C = args.output("C", out_dt, out_rows, out_cols, 1);
    if (out_rows * out_cols == 0) return;
    Recorder rec(ctx.device);
    Correlation c;
    c.source = ctx.address(A);
    c.source_dtype = A->dtype;
    c.source_rows = ma;
    c.source_cols = na;
    c.rotate = true;
    c.pad = Pad::Skip;
    c.accumulate_double = out_dt == IPT_DOUBLE;
    if (B) {
        c.kernel = ctx.address(B);
        c.kernel_dtype = B->dtype;
        c.kernel_rows = kr;
        c.kernel_cols = kc;
        c.out = ctx.address(C);
        c.out_dtype = out_dt;
        c.out_rows = out_rows;
        c.out_cols = out_cols;
        c.off_r = off_r - (kr - 1);
        c.off_c = off_c - (kc - 1);
        record_correlation(ctx, rec, c);
    } else {
        // Columns with u into T (out_rows x na, output class), then rows with v.
        Buffer* T = rec.scratch(uint64_t(out_rows) * uint64_t(na) * dtype_bytes(out_dt));
        c.kernel = ctx.address(u);
        c.kernel_dtype = u->dtype;
        c.kernel_rows = kr;
        c.kernel_cols = 1;
        c.out = T->address;
        c.out_dtype = out_dt;
        c.out_rows = out_rows;
        c.out_cols = na;
        c.off_r = off_r - (kr - 1);
        c.off_c = 0;
        record_correlation(ctx, rec, c);
        Correlation r = c;
        r.source = T->address;
        r.source_dtype = out_dt;
        r.source_rows = out_rows;
        r.source_cols = na;
        r.kernel = ctx.address(v);
        r.kernel_dtype = v->dtype;
        r.kernel_rows = 1;
        r.kernel_cols = kc;
        r.out = ctx.address(C);
        r.out_cols = out_cols;
        r.off_r = 0;
        r.off_c = off_c - (kc - 1);
        if (na == 0) {
            // Nothing overlaps: the sum of no terms.
            rec.fill(static_cast<Buffer*>(C->buffer), C->offset, uint64_t(out_rows * out_cols) * dtype_bytes(out_dt), 0);
        } else {
            record_correlation(ctx, rec, r);
        }
    }
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.conv2", run_conv2)
