// ipt.dither, inverse colormap of an RGB dither: for each cell of 2^Qm per
// axis, the colormap entry nearest to the cell centre i*w + floor(w/2), ties
// to the lowest index.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(push_constant) uniform Push {
    uint64_t mapq;   // int32 n x 3
    uint64_t table;  // uint32 per cell
    int colours, qm, shift, cells;
} pc;

void main() {
    const int cell = int(linear_group() * gl_WorkGroupSize.x + gl_LocalInvocationID.x);
    if (cell >= pc.cells) return;
    const int mask = (1 << pc.qm) - 1;
    const int ir = (cell >> (2 * pc.qm)) & mask, ig = (cell >> pc.qm) & mask, ib = cell & mask;
    const int w = 1 << pc.shift, half_w = w / 2;
    const int64_t cr = int64_t(ir * w + half_w), cg = int64_t(ig * w + half_w), cb = int64_t(ib * w + half_w);
    int best = 0;
    int64_t best_d = -1;
    for (int k = 0; k < pc.colours; ++k) {
        const int64_t dr = cr - BufI32(pc.mapq).v[3 * k], dg = cg - BufI32(pc.mapq).v[3 * k + 1],
                      db = cb - BufI32(pc.mapq).v[3 * k + 2];
        const int64_t d = dr * dr + dg * dg + db * db;
        if (best_d < 0 || d < best_d) {
            best_d = d;
            best = k;
        }
    }
    BufU32(pc.table).v[cell] = uint(best);
}
