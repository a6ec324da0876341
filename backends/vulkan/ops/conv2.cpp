// SPDX-License-Identifier: Apache-2.0
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
// Sizes, offsets and the output class come from the front-end
// (common/ops/conv2.hpp); the engine's host side is common/correlate.cpp.
#include <cstdint>

#include "common/correlate.hpp"
#ifdef IPT_VULKAN_FFT
#include "common/fft_convolve.hpp"
#endif
#include "common/ops/conv2.hpp"

namespace {

using namespace ipt::vk;
using ipt::frontend::Conv2Plan;

// The engine's limits, checked before any output is allocated.
Conv2Plan plan(const OpContext& ctx) {
    const Conv2Plan c = ipt::frontend::plan_conv2(ctx.args);
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

DirectPasses direct_passes(OpContext& ctx, Recorder& rec, const Conv2Plan& c, const ipt_tensor* C) {
    DirectPasses d;
    Correlation& p = d.first;
    p.source = ctx.address(c.A);
    p.source_dtype = c.A->dtype;
    p.source_rows = c.ma;
    p.source_cols = c.na;
    p.rotate = true;
    p.pad = Pad::Skip;
    p.accumulate_double = c.out_class == IPT_DOUBLE;
    p.out_dtype = c.out_class;
    p.out_rows = c.out_rows;
    p.off_r = -c.top();
    if (!c.separable) {
        p.kernel = ctx.address(c.B);
        p.kernel_dtype = c.B->dtype;
        p.kernel_rows = c.kr;
        p.kernel_cols = c.kc;
        p.out = ctx.address(C);
        p.out_cols = c.out_cols;
        p.off_c = -c.left();
        return d;
    }
    // Columns with u into T (out_rows x na, output class), then rows with v.
    Buffer* T = rec.scratch(uint64_t(c.out_rows) * uint64_t(c.na) * dtype_bytes(c.out_class));
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
    r.source_dtype = c.out_class;
    r.source_rows = c.out_rows;
    r.source_cols = c.na;
    r.kernel = ctx.address(c.v);
    r.kernel_dtype = c.v->dtype;
    r.kernel_rows = 1;
    r.kernel_cols = c.kc;
    r.out = ctx.address(C);
    r.out_cols = c.out_cols;
    r.off_r = 0;
    r.off_c = -c.left();
    d.two = true;
    return d;
}

void run_conv2(OpContext& ctx) {
    const Conv2Plan c = plan(ctx);
    const ipt_tensor* C = ctx.args.output("C", c.out_class, c.out_rows, c.out_cols, 1);
    if (c.output_empty()) return;
    Recorder rec(ctx.device);
    const DirectPasses d = direct_passes(ctx, rec, c, C);
    record_correlation(ctx, rec, d.first);
    if (d.two) {
        if (c.na == 0) {
            // Nothing overlaps: the sum of no terms.
            rec.fill(static_cast<Buffer*>(C->buffer), C->offset,
                     uint64_t(c.out_rows * c.out_cols) * dtype_bytes(c.out_class), 0);
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
    const Conv2Plan c = plan(ctx);
    if (c.output_empty() || c.operand_empty())
        ipt::plugin::unsupported("ipt.conv2 (fft): empty operand, the direct variant handles it");
    if (!c.separable ? c.kr * c.kc < kFftMinTaps2D : c.kr + c.kc < kFftMinTapsSeparable)
        ipt::plugin::unsupported("ipt.conv2 (fft): kernel below the FFT crossover");

    FftConvolution f;
    f.a = ctx.address(c.A);
    f.a_dtype = c.A->dtype;
    f.ma = c.ma, f.na = c.na, f.kr = c.kr, f.kc = c.kc;
    f.separable = c.separable;
    if (!c.separable) {
        f.k = ctx.address(c.B), f.k_dtype = c.B->dtype;
    } else {
        f.u = ctx.address(c.u), f.u_dtype = c.u->dtype;
        f.v = ctx.address(c.v), f.v_dtype = c.v->dtype;
    }
    f.out_dtype = c.out_class;
    f.out_rows = c.out_rows, f.out_cols = c.out_cols, f.off_r = c.first_r, f.off_c = c.first_c;

    // One lock from the plan to the submission: another thread must not
    // drop the plan in between.
    std::lock_guard<std::recursive_mutex> lock(ctx.device.mutex());
    FftPlan& plan = fft_plan(ctx, f);
    const ipt_tensor* C = ctx.args.output("C", c.out_class, c.out_rows, c.out_cols, 1);
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

IPT_VK_OP("ipt.conv2", "wave32", 60, run_conv2)
IPT_VK_OP("ipt.conv2", "wave64", 50, run_conv2)
#ifdef IPT_VULKAN_FFT
IPT_VK_OP("ipt.conv2", "fft", 70, run_conv2_fft)
#endif
