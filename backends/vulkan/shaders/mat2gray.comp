// SPDX-License-Identifier: Apache-2.0
// ipt.mat2gray: I = delta*A + offset (or double(A) when CONSTANT), one
// product and one sum in double without fused multiply-add, then clipped to
// [0,1] with NaN -> 1, as the front-end's mat2gray_value.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT = DT_DOUBLE;
layout(constant_id = 5) const int CONSTANT = 0;

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t i;
    double delta;
    double offset;
    int n;
} pc;

void main() {
    const int group = int(linear_group());
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    for (int k = 0; k < int(PER_INV); ++k) {
        const int e = (group * int(PER_INV) + k) * width + lane;
        if (e >= pc.n) return;
        const double a = load_d(pc.a, DT, e);
        precise double p = a * pc.delta;
        precise double v = p + pc.offset;
        if (CONSTANT != 0) v = a;
        double r = 1.0;  // above 1, or NaN
        if (v < 0.0) r = 0.0;
        else if (v <= 1.0) r = v;
        BufF64(pc.i).v[e] = r;
    }
}
