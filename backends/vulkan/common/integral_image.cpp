// Host side of the Vulkan integral image (declarations in integral_image.hpp).
#include "integral_image.hpp"

#include <algorithm>

namespace ipt::vk {

namespace {

struct ColumnsPush {
    uint64_t a, j;
    double pad;
    int32_t m, n, pm, pn, top, left;
};

struct RowsPush {
    uint64_t j;
    int32_t rows, cols;
};

}  // namespace

void record_integral_image(OpContext& ctx, Recorder& rec, const IntegralSource& s, VkDeviceAddress J) {
    check_size(ctx.op(), (s.pm + 1) * (s.pn + 1));
    // Columns: one invocation each (plus the zero first column).
    const uint32_t group = ctx.tuning.group_size;
    ColumnsPush cp{s.a, J, s.pad_value, int32_t(s.m), int32_t(s.n), int32_t(s.pm), int32_t(s.pn), int32_t(s.top),
                   int32_t(s.left)};
    const Grid cg = grid_for(ctx.device, uint64_t(s.pn + 1), group);
    rec.dispatch(ctx.pipeline("integral_columns", group, 1, {uint32_t(s.dtype), uint32_t(s.pad)}), &cp, sizeof cp,
                 cg.x, cg.y);
    if (s.pm == 0 || s.pn == 0) return;
    // Rows: a work group per block of (at most 64) rows.
    const uint32_t rows_group = std::min<uint32_t>(ctx.tuning.wave ? ctx.tuning.wave : 64, 64);
    RowsPush rp{J, int32_t(s.pm), int32_t(s.pn + 1)};
    const Grid rg = grid_for(ctx.device, uint64_t(s.pm), rows_group);
    rec.dispatch(ctx.pipeline("integral_rows", rows_group, 1, {}), &rp, sizeof rp, rg.x, rg.y);
}

}  // namespace ipt::vk
