// imgaussfilt's routes as the CPU reference computes them
// (common/ops/imgaussfilt.hpp). Direct route: imfilter's arithmetic with the
// 2-D kernel (single in single, every other class in double; the reference's
// rank-1 split through record_filter). Separable route: the column pass from
// the source padded in the working class into a working-class image of the
// padded width, then the row pass into the output, rounded to its class.
#include "imgaussfilt.hpp"

#include "correlate.hpp"

namespace ipt::vk {

void record_imgaussfilt(OpContext& ctx, Recorder& rec, const ipt::frontend::ImgaussfiltPlan& p,
                        VkDeviceAddress source, int32_t source_dtype, VkDeviceAddress out) {
    const int64_t pcols = p.cols + p.kc - 1;
    check_size(ctx.op(), p.rows * pcols * p.channels);

    Correlation c;
    c.source = source;
    c.source_dtype = source_dtype;
    c.source_rows = p.rows;
    c.source_cols = p.cols;
    c.planes = p.channels;
    c.kernel_rows = p.kr;
    c.kernel_cols = p.kc;
    c.rotate = true;
    c.skip_zero = true;
    c.pad = ipt::frontend::border_as<Pad>(p.boundary);
    c.pad_value = p.pad_value;
    c.out = out;
    c.out_dtype = p.out_class;
    c.out_rows = p.rows;
    c.out_cols = p.cols;
    c.off_r = -p.top;
    c.off_c = -p.left;
    c.accumulate_double = p.work_class == IPT_DOUBLE;

    if (!p.separable) {
        record_filter(ctx, rec, c, p.h);
        return;
    }
    Buffer* mid = rec.scratch(uint64_t(p.rows * pcols * p.channels) * dtype_bytes(p.work_class));
    Correlation column = c;
    column.kernel = rec.params(p.hcol);
    column.kernel_dtype = IPT_DOUBLE;
    column.kernel_cols = 1;
    column.out = mid->address;
    column.out_dtype = p.work_class;
    column.out_cols = pcols;
    record_correlation(ctx, rec, column);
    Correlation row = c;
    row.source = mid->address;
    row.source_dtype = p.work_class;
    row.source_cols = pcols;
    row.kernel = rec.params(p.hrow);
    row.kernel_dtype = IPT_DOUBLE;
    row.kernel_rows = 1;
    row.pad = Pad::Skip;
    row.off_r = 0;
    row.off_c = 0;
    record_correlation(ctx, rec, row);
}

}  // namespace ipt::vk
