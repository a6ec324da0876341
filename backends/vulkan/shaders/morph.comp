// SPDX-License-Identifier: Apache-2.0
// ipt.imdilate / ipt.imerode: out(p) = max (or min) over the offsets d of
// A(p + d) (+ add(d) for a non-flat SE). The host reflects the SE for
// dilation (docs/matlab-semantics.md#dilation-reflects). Offsets outside the image and NaN
// values are skipped (the identity of the operation), as MATLAB's max/min
// skip NaN; a pixel with nothing left gets the identity. Flat SEs select an
// input value (exact); non-flat sums are formed in double and rounded once.
// Each invocation computes PER_INV pixels of a column; work group z is the
// channel plane.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;
layout(constant_id = 5) const int IS_MAX = 1;
layout(constant_id = 6) const int NONFLAT = 0;
// TILED: the work group's source tile (outside pixels and NaN already the
// identity) and the offsets are staged in shared memory first; the host
// chooses it when they fit.
layout(constant_id = 7) const int TILED = 0;
const int TILE_CAP = 2048;
const int OFF_CAP = 512;
shared double tile[TILED != 0 ? TILE_CAP : 1];
shared ivec2 offs[TILED != 0 ? OFF_CAP : 1];
shared double offs_add[TILED != 0 && NONFLAT != 0 ? OFF_CAP : 1];

layout(buffer_reference, std430, buffer_reference_align = 8) buffer Offsets { ivec2 v[]; };

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t b;
    uint64_t offsets;  // ivec2 (dr, dc)
    uint64_t adds;     // double per offset (non-flat)
    int rows, cols, count;
    int dr_min, dc_min, tile_w, tile_h;  // TILED: the offsets' extent and the tile
} pc;

const int MAX_PER_INV = 8;

double identity() {
    if (DT == DT_LOGICAL) return IS_MAX != 0 ? 0.0 : 1.0;
    return IS_MAX != 0 ? -1.0 / 0.0 : 1.0 / 0.0;
}

void main() {
    const int c = int(gl_GlobalInvocationID.x);
    const int r_base = int(gl_WorkGroupID.y * gl_WorkGroupSize.y * PER_INV);
    const int r0 = r_base + int(gl_LocalInvocationID.y);
    const int c_base = int(gl_WorkGroupID.x * gl_WorkGroupSize.x);
    const int stride = int(gl_WorkGroupSize.y);
    const int plane = int(gl_WorkGroupID.z) * pc.rows * pc.cols;
    if (TILED != 0) {
        const int lanes = int(gl_WorkGroupSize.x * gl_WorkGroupSize.y);
        const int lane = int(gl_LocalInvocationIndex);
        for (int idx = lane; idx < pc.tile_w * pc.tile_h; idx += lanes) {
            const int ty = idx / pc.tile_w, tx = idx - ty * pc.tile_w;
            const int sr = r_base + pc.dr_min + ty, sc = c_base + pc.dc_min + tx;
            double v = identity();
            if (sr >= 0 && sr < pc.rows && sc >= 0 && sc < pc.cols) {
                v = load_d(pc.a, DT, plane + sr * pc.cols + sc);
                if (NONFLAT == 0 && is_nan_d(v)) v = identity();
            }
            tile[idx] = v;
        }
        for (int j = lane; j < pc.count; j += lanes) {
            offs[j] = Offsets(pc.offsets).v[j];
            if (NONFLAT != 0) offs_add[j] = BufF64(pc.adds).v[j];
        }
        barrier();
    }
    if (c >= pc.cols || r0 >= pc.rows) return;
    double best[MAX_PER_INV];
    for (int k = 0; k < int(PER_INV); ++k) best[k] = identity();
    for (int j = 0; j < pc.count; ++j) {
        const ivec2 d = TILED != 0 ? offs[j] : Offsets(pc.offsets).v[j];
        const int sc = c + d.y;
        if (sc < 0 || sc >= pc.cols) continue;
        const double add = NONFLAT != 0 ? (TILED != 0 ? offs_add[j] : BufF64(pc.adds).v[j]) : 0.0;
        for (int k = 0; k < int(PER_INV); ++k) {
            const int sr = r0 + k * stride + d.x;
            if (sr < 0 || sr >= pc.rows) continue;
            precise double v = TILED != 0 ? tile[(sr - r_base - pc.dr_min) * pc.tile_w + (sc - c_base - pc.dc_min)]
                                          : load_d(pc.a, DT, plane + sr * pc.cols + sc);
            if (NONFLAT != 0) v = v + add;
            if (is_nan_d(v)) continue;
            if (IS_MAX != 0 ? v > best[k] : v < best[k]) best[k] = v;
        }
    }
    for (int k = 0; k < int(PER_INV); ++k) {
        const int r = r0 + k * stride;
        if (r >= pc.rows) break;
        store_d(pc.b, DT, plane + r * pc.cols + c, best[k]);
    }
}
