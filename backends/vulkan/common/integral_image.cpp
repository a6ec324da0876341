// SPDX-License-Identifier: Apache-2.0
// Host side of the Vulkan integral image (declarations in integral_image.hpp).
#include "integral_image.hpp"

#include <algorithm>
#include <cmath>

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

struct ExactPush {
    uint64_t a, sums, j;
    double pad;
    int32_t m, n, pm, pn, top, left, chunks;
};

constexpr int64_t kChunkRows = 8;  // CHUNK of integral_exact.comp

// Largest magnitude of a value of the class.
double class_magnitude(int32_t dtype) {
    switch (dtype) {
    case IPT_LOGICAL: return 1;
    case IPT_UINT8: return 255;
    case IPT_UINT16: return 65535;
    case IPT_INT16: return 32768;
    case IPT_INT32: return 2147483648.0;
    case IPT_UINT32: return 4294967295.0;
    default: return INFINITY;
    }
}

void record_exact(OpContext& ctx, Recorder& rec, const IntegralSource& s, VkDeviceAddress J) {
    const int64_t chunks = (s.pm + kChunkRows - 1) / kChunkRows;
    check_size(ctx.op(), chunks * s.pn);
    Buffer* sums = rec.scratch(uint64_t(chunks * s.pn) * sizeof(double));
    ExactPush ep{s.a,          sums->address,   J,
                 s.pad_value,  int32_t(s.m),    int32_t(s.n),
                 int32_t(s.pm), int32_t(s.pn),  int32_t(s.top),
                 int32_t(s.left), int32_t(chunks)};
    const uint32_t dt = uint32_t(s.dtype), pad = uint32_t(s.pad);
    const uint32_t group = std::min<uint32_t>(ctx.tuning.group_size, 256);  // MAX_GROUP of the shader
    const Grid g0 = grid_for(ctx.device, uint64_t(chunks * s.pn), group);
    rec.dispatch(ctx.pipeline("integral_exact", group, 1, {dt, pad, 0u}), &ep, sizeof ep, g0.x, g0.y);
    const Grid g1 = grid_for(ctx.device, uint64_t(s.pn), 32);
    rec.dispatch(ctx.pipeline("integral_exact", 32, 8, {dt, pad, 1u}), &ep, sizeof ep, g1.x, g1.y);
    const Grid g2 = grid_for(ctx.device, uint64_t(chunks), 1);
    rec.dispatch(ctx.pipeline("integral_exact", group, 1, {dt, pad, 2u}), &ep, sizeof ep, g2.x, g2.y);
}

}  // namespace

bool integral_is_exact(const IntegralSource& s) {
    return class_magnitude(s.dtype) * double(s.pm) * double(s.pn) < 9007199254740992.0;  // 2^53
}

void record_integral_image(OpContext& ctx, Recorder& rec, const IntegralSource& s, VkDeviceAddress J) {
    check_size(ctx.op(), (s.pm + 1) * (s.pn + 1));
    if (s.pm > 0 && s.pn > 0 && integral_is_exact(s)) {
        record_exact(ctx, rec, s, J);
        return;
    }
    // Columns: a work group of 32 x 8 per 32 of J's columns (COLS and ROWS
    // of the shader), the zero first column included.
    ColumnsPush cp{s.a, J, s.pad_value, int32_t(s.m), int32_t(s.n), int32_t(s.pm), int32_t(s.pn), int32_t(s.top),
                   int32_t(s.left)};
    const Grid cg = grid_for(ctx.device, uint64_t(s.pn + 1), 32);
    rec.dispatch(ctx.pipeline("integral_columns", 32, 8, {uint32_t(s.dtype), uint32_t(s.pad)}), &cp, sizeof cp,
                 cg.x, cg.y);
    if (s.pm == 0 || s.pn == 0) return;
    // Rows: a work group of 32 x 8 per 32 rows (OWN and ROWS of the shader).
    RowsPush rp{J, int32_t(s.pm), int32_t(s.pn + 1)};
    const Grid rg = grid_for(ctx.device, uint64_t(s.pm), 32);
    rec.dispatch(ctx.pipeline("integral_rows", 32, 8, {}), &rp, sizeof rp, rg.x, rg.y);
}

}  // namespace ipt::vk
