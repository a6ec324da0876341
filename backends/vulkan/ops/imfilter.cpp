// SPDX-License-Identifier: Apache-2.0
// ipt.imfilter on Vulkan: the correlation engine with the front-end's plan
// (common/ops/imfilter.hpp: padding, centre, output size, pad value in A's
// class), only the nonzero taps of h. single is filtered in single, every
// other class in double and rounded half away and saturated (logical:
// nonzero is true).
//
// Integer outputs must equal the CPU reference bit for bit, so the sums are
// formed as it forms them: kernel-row partial sums in the same order, and a
// kernel that is exactly rank 1 runs as a column pass then a row pass, as
// there. h lives on the device, so the rank-1 test runs there too
// (shaders/imfilter_rank1.comp) and chooses between the two routes through
// indirect dispatch, without a host round trip.
#include <limits>

#include "common/correlate.hpp"
#include "common/ops/imfilter.hpp"
#include "rank1.hpp"

namespace {

using namespace ipt::vk;
using ipt::frontend::ImfilterPlan;

struct Rank1Push {
    uint64_t h, u, v, args;
    double rel_tol;
    int32_t kr, kc;
    uint32_t direct_x, direct_y, direct_z, column_x, column_y, row_x, row_y;
};

void run_imfilter(OpContext& ctx) {
    const ImfilterPlan plan = ipt::frontend::plan_imfilter(ctx.args);
    const ipt_tensor* A = plan.A;
    const ipt_tensor* h = plan.h;
    const int64_t ma = plan.ma, na = plan.na, kr = plan.kr, kc = plan.kc;
    const int64_t out_rows = plan.out_rows, out_cols = plan.out_cols;
    const int64_t pcols = out_cols + kc - 1;
    check_size("ipt.imfilter", out_rows * out_cols * A->channels);
    check_size("ipt.imfilter", out_rows * pcols * A->channels);

    const ipt_tensor* B = ctx.args.output("B", plan.out_class, out_rows, out_cols, plan.channels);
    const uint64_t out_bytes = uint64_t(out_rows * out_cols * plan.channels) * dtype_bytes(plan.out_class);
    if (out_bytes == 0) return;
    Recorder rec(ctx.device);
    if (plan.zeros_only) {
        ctx.address(B);
        rec.fill(static_cast<Buffer*>(B->buffer), B->offset, out_bytes, 0);
        rec.submit();
        return;
    }
    const bool single = A->dtype == IPT_SINGLE;
    const int32_t acc_dt = single ? IPT_SINGLE : IPT_DOUBLE;
    Correlation direct;
    direct.source = ctx.address(A);
    direct.source_dtype = A->dtype;
    direct.source_rows = ma;
    direct.source_cols = na;
    direct.planes = A->channels;
    direct.kernel = ctx.address(h);
    direct.kernel_dtype = h->dtype;
    direct.kernel_rows = kr;
    direct.kernel_cols = kc;
    direct.rotate = plan.conv;
    direct.skip_zero = true;
    direct.pad = ipt::frontend::border_as<Pad>(plan.boundary);
    direct.pad_value = plan.pad_value;
    direct.out = ctx.address(B);
    direct.out_dtype = A->dtype;
    direct.out_rows = out_rows;
    direct.out_cols = out_cols;
    direct.off_r = -plan.top;
    direct.off_c = -plan.left;
    direct.accumulate_double = !single;

    // The reference tries two passes from 12 taps up (both sides >= 2).
    if (!ipt::common::separable_candidate(kr, kc)) {
        record_correlation(ctx, rec, direct);
        rec.submit();
        return;
    }
    Buffer* uv = rec.scratch(uint64_t(kr + kc) * sizeof(double));
    Buffer* indirect = rec.scratch(9 * sizeof(uint32_t));
    Buffer* mid = rec.scratch(uint64_t(out_rows * pcols * A->channels) * dtype_bytes(acc_dt));

    // Column pass: padded source -> mid (out_rows x pcols, accumulation class).
    Correlation column = direct;
    column.kernel = uv->address;
    column.kernel_dtype = IPT_DOUBLE;
    column.kernel_cols = 1;
    column.rotate = false;  // u and v are taken from the turned taps
    column.out = mid->address;
    column.out_dtype = acc_dt;
    column.out_cols = pcols;
    // Row pass: mid -> B, every tap inside mid.
    Correlation row = direct;
    row.source = mid->address;
    row.source_dtype = acc_dt;
    row.source_rows = out_rows;
    row.source_cols = pcols;
    row.kernel = uv->address + uint64_t(kr) * sizeof(double);
    row.kernel_dtype = IPT_DOUBLE;
    row.kernel_rows = 1;
    row.rotate = false;
    row.pad = Pad::Skip;
    row.off_r = 0;
    row.off_c = 0;

    const Groups dg = correlation_groups(ctx, direct), cg = correlation_groups(ctx, column),
                 rg = correlation_groups(ctx, row);
    Rank1Push rp{ctx.address(h), uv->address, uv->address + uint64_t(kr) * sizeof(double), indirect->address,
                 4 * std::numeric_limits<double>::epsilon(), int32_t(kr), int32_t(kc), dg.x, dg.y, dg.z,
                 cg.x, cg.y, rg.x, rg.y};
    rec.dispatch(ctx.device.pipeline("imfilter_rank1", {1, 1, 1, 1, uint32_t(h->dtype), plan.conv ? 1u : 0u}), &rp,
                 sizeof rp, 1);
    direct.indirect = column.indirect = row.indirect = indirect;
    direct.indirect_offset = 0;
    column.indirect_offset = 12;
    row.indirect_offset = 24;
    record_correlation(ctx, rec, direct);
    record_correlation(ctx, rec, column);
    record_correlation(ctx, rec, row);
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.imfilter", "wave32", 60, run_imfilter)
IPT_VK_OP("ipt.imfilter", "wave64", 50, run_imfilter)
