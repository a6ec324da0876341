// SPDX-License-Identifier: Apache-2.0
// ipt.imgradient: one invocation per pixel; gradient.glsl's stencils, then
// the magnitude and the direction in degrees.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "ipt_math.glsl"

layout(push_constant) uniform Push {
    uint64_t src, mag, dir;  // dir 0: not wanted
    int rows, cols;
} pc;

#include "gradient.glsl"

void main() {
    const int group = int(linear_group());
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    const int out_dt = SINGLE != 0 ? DT_SINGLE : DT_DOUBLE;
    const int dir_dt = METHOD == 4 ? DT_DOUBLE : out_dt;
    for (int k = 0; k < int(PER_INV); ++k) {
        const int p = (group * int(PER_INV) + k) * width + lane;
        if (p >= pc.rows * pc.cols) return;
        const int r = p / pc.cols, c = p - r * pc.cols;
        double gx, gy;
        gradient_xy(r, c, gx, gy);
        store_d(pc.mag, out_dt, p, gradient_magnitude(gx, gy));
        if (pc.dir != 0ul)
            store_d(pc.dir, dir_dt, p, METHOD == 4 ? roberts_direction(gx, gy) : gradient_direction(gx, gy));
    }
}
