// SPDX-License-Identifier: Apache-2.0
// ipt.imadjust for single and double: the curve per element (channel = work
// group z), evaluated in double and rounded once to the class.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "ipt_math.glsl"
#include "imadjust_curve.glsl"

layout(constant_id = 4) const int DT = DT_DOUBLE;

layout(push_constant) uniform Push {
    uint64_t i;
    uint64_t j;
    uint64_t params;
    uint64_t limits;
    int plane;
    int channels;
} pc;

void main() {
    const int ch = int(gl_WorkGroupID.z);
    const int width = int(gl_WorkGroupSize.x);
    const int begin = int(linear_group()) * width * int(PER_INV);
    for (int k = 0; k < int(PER_INV); ++k) {
        const int e = begin + k * width + int(gl_LocalInvocationID.x);
        if (e >= pc.plane) return;
        const int at = ch * pc.plane + e;
        const double y = channel_curve(pc.params, pc.limits, pc.channels, ch, load_d(pc.i, DT, at));
        store_d(pc.j, DT, at, y);
    }
}
