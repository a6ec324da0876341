// SPDX-License-Identifier: Apache-2.0
// ipt.rangefilt: J(p) = max over the first n_max offsets of I(p + d) minus
// min over the next n_min offsets (imdilate of the reflected nhood and
// imerode of nhood, backends/common/ops/rangefilt.hpp). Offsets outside the
// image and NaN values are skipped (the identity of max and min). The
// difference is taken in double and stored in OUT_DT (rounded and saturated);
// logical: max & ~min. Each invocation computes PER_INV pixels of a column;
// work group z is the channel plane.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;
layout(constant_id = 5) const int OUT_DT = DT_UINT8;

layout(buffer_reference, std430, buffer_reference_align = 8) buffer Offsets { ivec2 v[]; };

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t j;
    uint64_t offsets;  // ivec2 (dr, dc): n_max for the maximum, then n_min for the minimum
    int rows, cols, n_max, n_min;
} pc;

// The extreme of the image over offsets [first, first+count) around (r, c).
double extreme(int plane, int r, int c, int first, int count, bool is_max) {
    double best = DT == DT_LOGICAL ? (is_max ? 0.0 : 1.0) : (is_max ? -1.0 / 0.0 : 1.0 / 0.0);
    for (int m = first; m < first + count; ++m) {
        const ivec2 d = Offsets(pc.offsets).v[m];
        const int sr = r + d.x, sc = c + d.y;
        if (sr < 0 || sr >= pc.rows || sc < 0 || sc >= pc.cols) continue;
        const double v = load_d(pc.a, DT, plane + sr * pc.cols + sc);
        if (is_nan_d(v)) continue;
        best = is_max ? max(best, v) : min(best, v);
    }
    return best;
}

void main() {
    const int c = int(gl_GlobalInvocationID.x);
    const int r0 = int(gl_WorkGroupID.y * gl_WorkGroupSize.y * PER_INV + gl_LocalInvocationID.y);
    const int plane = int(gl_WorkGroupID.z) * pc.rows * pc.cols;
    if (c >= pc.cols) return;
    for (int k = 0; k < int(PER_INV); ++k) {
        const int r = r0 + k * int(gl_WorkGroupSize.y);
        if (r >= pc.rows) return;
        const double hi = extreme(plane, r, c, 0, pc.n_max, true);
        const double lo = extreme(plane, r, c, pc.n_max, pc.n_min, false);
        const int o = plane + r * pc.cols + c;
        if (DT == DT_LOGICAL) BufU8(pc.j).v[o] = uint8_t(hi != 0.0 && lo == 0.0 ? 1u : 0u);
        else {
            precise double diff = hi - lo;
            store_d(pc.j, OUT_DT, o, diff);
        }
    }
}
