// SPDX-License-Identifier: Apache-2.0
// ipt.radon, bin owners (radon_owners.comp), first pass: a quarter of every
// pixel (v/4, exact) in double, row-major and transposed, so that the walk
// along either image dimension reads consecutive addresses.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT = DT_DOUBLE;

layout(push_constant) uniform Push {
    uint64_t img, quarter, quarter_t;
    int rows, cols;
} pc;

void main() {
    const int c = int(gl_GlobalInvocationID.x), r = int(gl_GlobalInvocationID.y);
    if (c >= pc.cols || r >= pc.rows) return;
    const double q = load_d(pc.img, DT, r * pc.cols + c) * 0.25;
    BufF64(pc.quarter).v[r * pc.cols + c] = q;
    BufF64(pc.quarter_t).v[c * pc.rows + r] = q;
}
