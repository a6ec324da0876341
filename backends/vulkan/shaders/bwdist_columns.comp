// ipt.bwdist, phase 1: per column (one invocation each), the row of the
// nearest feature (nonzero pixel; NaN counts as nonzero) of every pixel, the
// upper one on ties, -1 when the column has none; and, when asked, the first
// feature at or below each row (chessboard's lowest-index rule).
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT = DT_LOGICAL;
layout(constant_id = 5) const int WANT_BELOW = 0;

layout(push_constant) uniform Push {
    uint64_t bw;
    uint64_t nearest;  // int32 [rows][cols]
    uint64_t below;    // int32 [rows][cols] (WANT_BELOW)
    int rows, cols;
} pc;

bool feature(int i) {
    // On the bits: a denormal is a feature even where the driver flushes it.
    if (DT == DT_SINGLE) return (BufU32(pc.bw).v[i] & 0x7FFFFFFFu) != 0u;
    if (DT == DT_DOUBLE) return BufF64(pc.bw).v[i] != 0.0 || is_nan_d(BufF64(pc.bw).v[i]);
    return load_bits(pc.bw, DT, i) != 0ul;
}

void main() {
    const int c = int(gl_GlobalInvocationID.x);
    if (c >= pc.cols) return;
    // Downwards: the last feature at or above each row.
    int last = -1;
    for (int r = 0; r < pc.rows; ++r) {
        if (feature(r * pc.cols + c)) last = r;
        BufI32(pc.nearest).v[r * pc.cols + c] = last;
    }
    // Upwards: the first feature at or below; keep the upper one on ties.
    int next = -1;
    for (int r = pc.rows - 1; r >= 0; --r) {
        const int at = r * pc.cols + c;
        if (feature(at)) next = r;
        const int up = BufI32(pc.nearest).v[at];
        if (next >= 0 && (up < 0 || next - r < r - up)) BufI32(pc.nearest).v[at] = next;
        if (WANT_BELOW != 0) BufI32(pc.below).v[at] = next;
    }
}
