// SPDX-License-Identifier: Apache-2.0
// ipt.rgb2gray: kr*R + kg*G + kb*B (the front-end's weights) in double from
// left to right without fused multiply-adds, converted once to the class of
// RGB (round half away and saturate for integers).
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;

layout(push_constant) uniform Push {
    uint64_t rgb;
    uint64_t i;
    double kr, kg, kb;
    int plane;
} pc;

void main() {
    const int group = int(linear_group());
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    for (int k = 0; k < int(PER_INV); ++k) {
        const int e = (group * int(PER_INV) + k) * width + lane;
        if (e >= pc.plane) return;
        precise double r = pc.kr * load_d(pc.rgb, DT, e);
        precise double g = pc.kg * load_d(pc.rgb, DT, pc.plane + e);
        precise double b = pc.kb * load_d(pc.rgb, DT, 2 * pc.plane + e);
        precise double sum = r + g;
        sum = sum + b;
        store_d(pc.i, DT, e, sum);
    }
}
