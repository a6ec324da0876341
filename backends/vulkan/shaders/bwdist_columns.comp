// SPDX-License-Identifier: Apache-2.0
// ipt.bwdist, phase 1: per column, the row of the nearest feature (nonzero
// pixel; NaN counts as nonzero) of every pixel, the upper one on ties, -1 when
// the column has none; and, when asked, the first feature at or below each
// row (chessboard's lowest-index rule).
//
// Columns are cut into segments of SEG rows so that enough invocations work
// (one per column alone left a 2048-wide image with 2048 of them, 1.5 ms on
// an H100). Two dispatches of this shader: PASS 0 writes each segment's first
// and last feature row; PASS 1 walks its segment down and up, starting from
// the nearest features beyond it, found in the other segments' summaries.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT = DT_LOGICAL;
layout(constant_id = 5) const int WANT_BELOW = 0;
layout(constant_id = 6) const int PASS = 1;

layout(push_constant) uniform Push {
    uint64_t bw;
    uint64_t nearest;   // int32 [rows][cols]
    uint64_t below;     // int32 [rows][cols] (WANT_BELOW)
    uint64_t segments;  // int32 [segment count][cols][2]: first, last feature row
    int rows, cols, seg_rows, seg_count;
} pc;

bool feature(int i) {
    // On the bits: a denormal is a feature even where the driver flushes it.
    if (DT == DT_SINGLE) return (BufU32(pc.bw).v[i] & 0x7FFFFFFFu) != 0u;
    if (DT == DT_DOUBLE) return BufF64(pc.bw).v[i] != 0.0 || is_nan_d(BufF64(pc.bw).v[i]);
    return load_bits(pc.bw, DT, i) != 0ul;
}

int summary(int s, int c, int which) { return BufI32(pc.segments).v[(s * pc.cols + c) * 2 + which]; }

void main() {
    const int c = int(gl_GlobalInvocationID.x), s = int(gl_GlobalInvocationID.y);
    if (c >= pc.cols || s >= pc.seg_count) return;
    const int r0 = s * pc.seg_rows, r1 = min(r0 + pc.seg_rows, pc.rows);
    if (PASS == 0) {
        int first = -1, last = -1;
        for (int r = r0; r < r1; ++r)
            if (feature(r * pc.cols + c)) {
                if (first < 0) first = r;
                last = r;
            }
        BufI32(pc.segments).v[(s * pc.cols + c) * 2] = first;
        BufI32(pc.segments).v[(s * pc.cols + c) * 2 + 1] = last;
        return;
    }
    // Downwards: the last feature at or above each row, starting from the
    // last one of the nearest segment above that has any.
    int last = -1;
    for (int k = s - 1; k >= 0 && last < 0; --k) last = summary(k, c, 1);
    for (int r = r0; r < r1; ++r) {
        if (feature(r * pc.cols + c)) last = r;
        BufI32(pc.nearest).v[r * pc.cols + c] = last;
    }
    // Upwards: the first feature at or below; keep the upper one on ties.
    int next = -1;
    for (int k = s + 1; k < pc.seg_count && next < 0; ++k) next = summary(k, c, 0);
    for (int r = r1 - 1; r >= r0; --r) {
        const int at = r * pc.cols + c;
        if (feature(at)) next = r;
        const int up = BufI32(pc.nearest).v[at];
        if (next >= 0 && (up < 0 || next - r < r - up)) BufI32(pc.nearest).v[at] = next;
        if (WANT_BELOW != 0) BufI32(pc.below).v[at] = next;
    }
}
