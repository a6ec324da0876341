// ipt.imfilter on Vulkan: the correlation engine with MATLAB's padding rules
// (constant X converted to A's class first, symmetric, replicate, circular),
// only the nonzero taps of h, centre floor((size(h)+1)/2), 'full' padding by
// size(h)-1. single is filtered in single, every other class in double and
// rounded half away and saturated (logical: nonzero is true).
//
// Integer outputs must equal the CPU reference bit for bit, so the sums are
// formed as it forms them: kernel-row partial sums in the same order, and a
// kernel that is exactly rank 1 runs as a column pass then a row pass, as
// there. h lives on the device, so the rank-1 test runs there too
// (shaders/imfilter_rank1.comp) and chooses between the two routes through
// indirect dispatch, without a host round trip.
#include <cmath>
#include <limits>
#include <string>

#include "common/correlate.hpp"

namespace {

using namespace ipt::vk;
using ipt::plugin::invalid;

struct Rank1Push {
    uint64_t h, u, v, args;
    double rel_tol;
    int32_t kr, kc;
    uint32_t direct_x, direct_y, direct_z, column_x, column_y, row_x, row_y;
};

// X converted to A's class (as padarray does), as a double.
double pad_in_class(double x, int32_t dt) {
    auto sat = [&](double lo, double hi) {
        if (std::isnan(x)) return 0.0;
        const double c = std::min(std::max(x, lo), hi);
        return std::round(c);  // half away from zero
    };
    switch (dt) {
    case IPT_LOGICAL: return (x != 0 && !std::isnan(x)) ? 1.0 : 0.0;
    case IPT_UINT8: return sat(0, 255);
    case IPT_UINT16: return sat(0, 65535);
    case IPT_INT16: return sat(-32768, 32767);
    case IPT_INT32: return sat(-2147483648.0, 2147483647.0);
    case IPT_UINT32: return sat(0, 4294967295.0);
    case IPT_SINGLE: return static_cast<double>(static_cast<float>(x));
    default: return x;
    }
}

void run_imfilter(OpContext& ctx) {
    const auto& args = ctx.args;
    const ipt_tensor* A = args.image("A");
    const ipt_tensor* h = args.image("h");
    if (A->channels != 1 && A->channels != 3) invalid("ipt.imfilter: parameter 'A' must have 1 or 3 channels");
    if (h->dtype != IPT_SINGLE && h->dtype != IPT_DOUBLE) invalid("ipt.imfilter: parameter 'h' must be single or double");
    if (h->channels != 1) invalid("ipt.imfilter: parameter 'h' must be a 2-D filter (1 channel)");
    if (h->rows == 0 || h->cols == 0) invalid("ipt.imfilter: parameter 'h' must not be empty");
    Pad pad;
    const std::string boundary = args.text("boundary");
    if (boundary == "constant") pad = Pad::Constant;
    else if (boundary == "symmetric") pad = Pad::Symmetric;
    else if (boundary == "replicate") pad = Pad::Replicate;
    else if (boundary == "circular") pad = Pad::Circular;
    else invalid("ipt.imfilter: parameter 'boundary' must be constant, symmetric, replicate or circular");
    if (!args.is("output", "same") && !args.is("output", "full")) invalid("ipt.imfilter: parameter 'output' must be 'same' or 'full'");
    if (!args.is("mode", "corr") && !args.is("mode", "conv")) invalid("ipt.imfilter: parameter 'mode' must be 'corr' or 'conv'");
    const bool full = args.is("output", "full"), conv = args.is("mode", "conv");
    const int64_t ma = A->rows, na = A->cols, kr = h->rows, kc = h->cols;
    const int64_t out_rows = full ? ma + kr - 1 : ma, out_cols = full ? na + kc - 1 : na;
    const int64_t top = full ? kr - 1 : (kr + 1) / 2 - 1, left = full ? kc - 1 : (kc + 1) / 2 - 1;
    const int64_t pcols = out_cols + kc - 1;
    check_size("ipt.imfilter", out_rows * out_cols * A->channels);
    check_size("ipt.imfilter", out_rows * pcols * A->channels);

    const ipt_tensor* B = args.output("B", A->dtype, out_rows, out_cols, A->channels);
    const uint64_t out_bytes = uint64_t(out_rows * out_cols * A->channels) * dtype_bytes(A->dtype);
    if (out_bytes == 0) return;
    Recorder rec(ctx.device);
    if (ma == 0 || na == 0) {
        // Nothing to filter: 'full' of an empty image is zeros.
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
    direct.rotate = conv;
    direct.skip_zero = true;
    direct.pad = pad;
    direct.pad_value = pad_in_class(args.number("X"), A->dtype);
    direct.out = ctx.address(B);
    direct.out_dtype = A->dtype;
    direct.out_rows = out_rows;
    direct.out_cols = out_cols;
    direct.off_r = -top;
    direct.off_c = -left;
    direct.accumulate_double = !single;

    // The reference tries two passes from 12 taps up (both sides >= 2).
    if (!(kr >= 2 && kc >= 2 && kr * kc >= 12)) {
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
    rec.dispatch(ctx.device.pipeline("imfilter_rank1", {1, 1, 1, 1, uint32_t(h->dtype), conv ? 1u : 0u}), &rp,
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

IPT_VK_OP("ipt.imfilter", run_imfilter)
