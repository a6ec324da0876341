// SPDX-License-Identifier: Apache-2.0
// imboxfilt's last step: each output from the four corners of its window in
// the integral image J of the padded plane (`stride` doubles a row), the
// window sum times the factor, stored in B's class (integers rounded half
// away from zero and saturated). The order of the additions is the CPU
// reference's (ops/imboxfilt.hpp, box_value).
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT = DT_DOUBLE;

layout(push_constant) uniform Push {
    uint64_t j;
    uint64_t b;
    double norm;
    int m, n, fr, fc, stride;
} pc;

void main() {
    const int group = int(linear_group());
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    BufF64 J = BufF64(pc.j);
    for (int k = 0; k < int(PER_INV); ++k) {
        const int i = (group * int(PER_INV) + k) * width + lane;
        if (i >= pc.m * pc.n) return;
        const int r = i / pc.n, c = i - r * pc.n;
        precise double s = J.v[(r + pc.fr) * pc.stride + c + pc.fc] - J.v[r * pc.stride + c + pc.fc];
        s = s - J.v[(r + pc.fr) * pc.stride + c];
        s = s + J.v[r * pc.stride + c];
        precise double v = s * pc.norm;
        store_d(pc.b, DT, i, v);
    }
}
