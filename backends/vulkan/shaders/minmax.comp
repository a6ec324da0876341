// SPDX-License-Identifier: Apache-2.0
// Minimum and maximum, NaN skipped (common/minmax.cpp). FINAL 0: each group
// reduces its chunk of the image to a (min, max) pair; FINAL 1: one group
// reduces the pairs and writes [min max]. No element: (+Inf, -Inf).
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT = DT_DOUBLE;
layout(constant_id = 5) const int FINAL = 0;

layout(push_constant) uniform Push {
    uint64_t src;       // image (FINAL 0) or pairs (FINAL 1)
    uint64_t partials;  // dvec2 per group
    uint64_t limits;    // 2 doubles
    int n;              // elements (FINAL 0) or pairs (FINAL 1)
    int chunk;
} pc;

shared double s_lo[gl_WorkGroupSize.x];
shared double s_hi[gl_WorkGroupSize.x];

void main() {
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    const double inf = packDouble2x32(uvec2(0u, 0x7FF00000u));
    double lo = inf, hi = -inf;
    if (FINAL == 0) {
        const int begin = int(linear_group()) * pc.chunk;
        const int end = min(pc.n, begin + pc.chunk);
        for (int i = begin + lane; i < end; i += width) {
            const double v = load_d(pc.src, DT, i);
            if (v < lo) lo = v;  // false for NaN
            if (v > hi) hi = v;
        }
    } else {
        for (int g = lane; g < pc.n; g += width) {
            const dvec2 p = BufF64x2(pc.src).v[g];
            if (p.x < lo) lo = p.x;
            if (p.y > hi) hi = p.y;
        }
    }
    s_lo[lane] = lo;
    s_hi[lane] = hi;
    barrier();
    for (int stride = width / 2; stride > 0; stride /= 2) {
        if (lane < stride) {
            if (s_lo[lane + stride] < s_lo[lane]) s_lo[lane] = s_lo[lane + stride];
            if (s_hi[lane + stride] > s_hi[lane]) s_hi[lane] = s_hi[lane + stride];
        }
        barrier();
    }
    if (lane != 0) return;
    if (FINAL == 0) {
        BufF64x2(pc.partials).v[linear_group()] = dvec2(s_lo[0], s_hi[0]);
    } else {
        BufF64(pc.limits).v[0] = s_lo[0];
        BufF64(pc.limits).v[1] = s_hi[0];
    }
}
