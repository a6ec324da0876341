// ipt.conv2 on Vulkan. Two implementations:
//  - direct (variants wave32, wave64): the correlation engine with the kernel
//    turned by 180 degrees, summing only the terms that overlap A (MATLAB's
//    definition, so a zero weight times Inf is NaN and nothing outside A is
//    multiplied). conv2(u,v,A) runs the columns with u, then the rows with v.
//    Accumulates in the output class (float when every input is single),
//    kernel-row partial sums first (error grows with kr + kc, not kr * kc).
//  - "fft": the FFT in double precision through VkFFT (fft_convolve.hpp).
//    Preferred by priority, but declines (IPT_ERR_UNSUPPORTED) below the
//    crossover and for empty operands. Inf, NaN or huge values in A or the
//    kernel are found on the device while the operands are laid out; the
//    output then comes from the direct engine, picked by indirect dispatch
//    in the same recording (the host would have to wait for the device to
//    decline).
//
// This file also holds the engine's host side (correlate.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "common/correlate.hpp"
#ifdef IPT_VULKAN_FFT
#include "common/fft_convolve.hpp"
#endif
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

// A checked conv2 call: operands, output class and the part of 'full' wanted.
struct Conv2Call {
    const ipt_tensor* A = nullptr;
    const ipt_tensor* B = nullptr;  // 2-D kernel
    const ipt_tensor* u = nullptr;  // or conv2(u,v,A)
    const ipt_tensor* v = nullptr;
    int32_t out_dtype = IPT_DOUBLE;
    int64_t ma = 0, na = 0, kr = 0, kc = 0;
    int64_t out_rows = 0, out_cols = 0, off_r = 0, off_c = 0;  // off: position in 'full'
};

Conv2Call parse(const OpContext& ctx) {
    const auto& args = ctx.args;
    Conv2Call c;
    c.A = args.image("A");
    c.B = args.image("B");
    c.u = args.image("u");
    c.v = args.image("v");
    if (c.B && (c.u || c.v)) invalid("ipt.conv2: give either parameter 'B' or parameters 'u' and 'v', not both");
    if (!c.B && !(c.u && c.v)) {
        if (c.u || c.v)
            invalid(std::string("ipt.conv2: parameter '") + (c.u ? "v" : "u") + "' is required with '" +
                    (c.u ? "u" : "v") + "' (conv2(u,v,A))");
        invalid("ipt.conv2: parameter 'B' (or 'u' and 'v') is required");
    }
    bool all_single = true;
    for (auto [name, t] : {std::pair{"A", c.A}, {"B", c.B}, {"u", c.u}, {"v", c.v}}) {
        if (!t) continue;
        if (t->dtype != IPT_SINGLE && t->dtype != IPT_DOUBLE)
            invalid(std::string("ipt.conv2: parameter '") + name + "' must be single or double");
        if (t->channels != 1) invalid(std::string("ipt.conv2: parameter '") + name + "' must have one channel");
        all_single &= t->dtype == IPT_SINGLE;
    }
    for (auto [name, t] : {std::pair{"u", c.u}, {"v", c.v}})
        if (t && t->rows > 1 && t->cols > 1) invalid(std::string("ipt.conv2: parameter '") + name + "' must be a vector");
    c.out_dtype = all_single ? IPT_SINGLE : IPT_DOUBLE;
    c.ma = c.A->rows, c.na = c.A->cols;
    c.kr = c.B ? c.B->rows : numel(c.u), c.kc = c.B ? c.B->cols : numel(c.v);
    if (args.is("shape", "same")) {
        c.out_rows = c.ma, c.out_cols = c.na, c.off_r = c.kr / 2, c.off_c = c.kc / 2;
    } else if (args.is("shape", "valid")) {
        c.out_rows = std::max<int64_t>(c.ma - std::max<int64_t>(0, c.kr - 1), 0);
        c.out_cols = std::max<int64_t>(c.na - std::max<int64_t>(0, c.kc - 1), 0);
        c.off_r = std::max<int64_t>(c.kr - 1, 0), c.off_c = std::max<int64_t>(c.kc - 1, 0);
    } else if (args.is("shape", "full")) {
        c.out_rows = std::max({c.ma + c.kr - 1, c.ma, c.kr}), c.out_cols = std::max({c.na + c.kc - 1, c.na, c.kc});
        c.off_r = c.off_c = 0;
    } else {
        invalid("ipt.conv2: parameter 'shape' must be 'full', 'same' or 'valid'");
    }
    check_size("ipt.conv2", c.out_rows * c.out_cols);
    check_size("ipt.conv2", c.out_rows * c.na);
    return c;
}

// The direct engine's passes for c into C: one 2-D correlation, or for
// conv2(u,v,A) the columns with u into a scratch T, then the rows with v.
struct DirectPasses {
    Correlation first, second;
    bool two = false;
};

DirectPasses direct_passes(OpContext& ctx, Recorder& rec, const Conv2Call& c, const ipt_tensor* C) {
    DirectPasses d;
    Correlation& p = d.first;
    p.source = ctx.address(c.A);
    p.source_dtype = c.A->dtype;
    p.source_rows = c.ma;
    p.source_cols = c.na;
    p.rotate = true;
    p.pad = Pad::Skip;
    p.accumulate_double = c.out_dtype == IPT_DOUBLE;
    p.out_dtype = c.out_dtype;
    p.out_rows = c.out_rows;
    p.off_r = c.off_r - (c.kr - 1);
    if (c.B) {
        p.kernel = ctx.address(c.B);
        p.kernel_dtype = c.B->dtype;
        p.kernel_rows = c.kr;
        p.kernel_cols = c.kc;
        p.out = ctx.address(C);
        p.out_cols = c.out_cols;
        p.off_c = c.off_c - (c.kc - 1);
        return d;
    }
    // Columns with u into T (out_rows x na, output class), then rows with v.
    Buffer* T = rec.scratch(uint64_t(c.out_rows) * uint64_t(c.na) * dtype_bytes(c.out_dtype));
    p.kernel = ctx.address(c.u);
    p.kernel_dtype = c.u->dtype;
    p.kernel_rows = c.kr;
    p.kernel_cols = 1;
    p.out = T->address;
    p.out_cols = c.na;
    p.off_c = 0;
    Correlation& r = d.second;
    r = p;
    r.source = T->address;
    r.source_dtype = c.out_dtype;
    r.source_rows = c.out_rows;
    r.source_cols = c.na;
    r.kernel = ctx.address(c.v);
    r.kernel_dtype = c.v->dtype;
    r.kernel_rows = 1;
    r.kernel_cols = c.kc;
    r.out = ctx.address(C);
    r.out_cols = c.out_cols;
    r.off_r = 0;
    r.off_c = c.off_c - (c.kc - 1);
    d.two = true;
    return d;
}

void run_conv2(OpContext& ctx) {
    const Conv2Call c = parse(ctx);
    const ipt_tensor* C = ctx.args.output("C", c.out_dtype, c.out_rows, c.out_cols, 1);
    if (c.out_rows * c.out_cols == 0) return;
    Recorder rec(ctx.device);
    const DirectPasses d = direct_passes(ctx, rec, c, C);
    record_correlation(ctx, rec, d.first);
    if (d.two) {
        if (c.na == 0) {
            // Nothing overlaps: the sum of no terms.
            rec.fill(static_cast<Buffer*>(C->buffer), C->offset,
                     uint64_t(c.out_rows * c.out_cols) * dtype_bytes(c.out_dtype), 0);
        } else {
            record_correlation(ctx, rec, d.second);
        }
    }
    rec.submit();
}

#ifdef IPT_VULKAN_FFT

// Crossover between the direct engine and the FFT on lavapipe (2 cores of an
// EPYC), measured as process CPU time of each variant alone on square random
// images of 256^2 and 1024^2 with square kernels 5..25 and separable pairs
// 9..101 (docs/vulkan-backend.md has the table). The transform costs about
// the same for any kernel, the engine grows with the taps; they meet between
// 5x5 and 7x7, single as double (lavapipe runs the engine no faster in
// single), and between numel(u) + numel(v) = 18 and 30. Below these the fft
// variant declines: it would only be measured, and VkFFT's kernels compiled,
// for a size where it cannot win.
constexpr int64_t kFftMinTaps2D = 49;
constexpr int64_t kFftMinTapsSeparable = 30;  // numel(u) + numel(v)

struct RoutePush {
    uint64_t flag, args;
    uint32_t first_x, first_y, first_z, second_x, second_y, second_z;
};

void run_conv2_fft(OpContext& ctx) {
    const Conv2Call c = parse(ctx);
    if (c.out_rows * c.out_cols == 0 || c.ma * c.na == 0 || c.kr * c.kc == 0)
        ipt::plugin::unsupported("ipt.conv2 (fft): empty operand, the direct variant handles it");
    if (c.B ? c.kr * c.kc < kFftMinTaps2D : c.kr + c.kc < kFftMinTapsSeparable)
        ipt::plugin::unsupported("ipt.conv2 (fft): kernel below the FFT crossover");

    FftConvolution f;
    f.a = ctx.address(c.A);
    f.a_dtype = c.A->dtype;
    f.ma = c.ma, f.na = c.na, f.kr = c.kr, f.kc = c.kc;
    f.separable = c.B == nullptr;
    if (c.B) {
        f.k = ctx.address(c.B), f.k_dtype = c.B->dtype;
    } else {
        f.u = ctx.address(c.u), f.u_dtype = c.u->dtype;
        f.v = ctx.address(c.v), f.v_dtype = c.v->dtype;
    }
    f.out_dtype = c.out_dtype;
    f.out_rows = c.out_rows, f.out_cols = c.out_cols, f.off_r = c.off_r, f.off_c = c.off_c;

    // One lock from the plan to the submission: another thread must not
    // drop the plan in between.
    std::lock_guard<std::recursive_mutex> lock(ctx.device.mutex());
    FftPlan& plan = fft_plan(ctx, f);
    const ipt_tensor* C = ctx.args.output("C", c.out_dtype, c.out_rows, c.out_cols, 1);
    f.out = ctx.address(C);

    Recorder rec(ctx.device);
    // Flag at offset 0, the direct passes' indirect dispatches at 16 and 28.
    Buffer* route = rec.scratch(48);
    rec.fill(route, 0, 4, 0);
    f.unsafe_flag = route->address;
    record_fft_convolution(ctx, rec, plan, f);

    DirectPasses d = direct_passes(ctx, rec, c, C);
    const Groups g1 = correlation_groups(ctx, d.first);
    const Groups g2 = d.two ? correlation_groups(ctx, d.second) : Groups{0, 1, 1};
    for (const Groups& g : {g1, g2})
        if (g.x > ctx.device.max_group_count(0) || g.y > ctx.device.max_group_count(1) ||
            g.z > ctx.device.max_group_count(2))
            ipt::plugin::unsupported("ipt.conv2 (fft): image too large for the direct route on this device");
    RoutePush rp{route->address, route->address + 16, g1.x, g1.y, g1.z, g2.x, g2.y, g2.z};
    rec.dispatch(ctx.device.pipeline("conv2_fft_route", {1, 1, 1, 1}), &rp, sizeof rp, 1);
    d.first.indirect = route;
    d.first.indirect_offset = 16;
    record_correlation(ctx, rec, d.first);
    if (d.two) {
        d.second.indirect = route;
        d.second.indirect_offset = 28;
        record_correlation(ctx, rec, d.second);
    }
    rec.submit();
}

#endif  // IPT_VULKAN_FFT

}  // namespace

IPT_VK_OP("ipt.conv2", run_conv2)
#ifdef IPT_VULKAN_FFT
IPT_VK_OP_VARIANT("ipt.conv2", ipt::vk::kFft, 70, run_conv2_fft)
#endif
