// SPDX-License-Identifier: Apache-2.0
// integralImage(I, 'rotated') of one plane: J is (m+1) x (n+2) doubles. Row y
// depends only on rows y-1 and y-2, so one work group fills the rows in
// order, the invocations sharing each row's columns, with a barrier between
// rows. Each entry adds its five terms left to right, as MATLAB's recurrence
// and the CPU reference do.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT = DT_DOUBLE;

layout(buffer_reference, std430, buffer_reference_align = 8) coherent buffer BufF64c { double v[]; };

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t j;
    int m, n;
} pc;

void main() {
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    const int w = pc.n + 2;
    BufF64c J = BufF64c(pc.j);
    for (int x = lane; x < w; x += width) {
        J.v[x] = 0.0;
        J.v[w + x] = (x >= 1 && x <= pc.n) ? load_d(pc.a, DT, x - 1) : 0.0;
    }
    memoryBarrier();
    barrier();
    for (int y = 2; y <= pc.m; ++y) {
        for (int x = lane; x < w; x += width) {
            double v;
            if (x == 0) {
                v = J.v[(y - 1) * w + 1];
            } else if (x == w - 1) {
                v = J.v[(y - 1) * w + w - 2];
            } else {
                precise double s = J.v[(y - 1) * w + x - 1] + J.v[(y - 1) * w + x + 1];
                s = s - J.v[(y - 2) * w + x];
                s = s + load_d(pc.a, DT, (y - 1) * pc.n + x - 1);
                s = s + load_d(pc.a, DT, (y - 2) * pc.n + x - 1);
                v = s;
            }
            J.v[y * w + x] = v;
        }
        memoryBarrier();
        barrier();
    }
}
