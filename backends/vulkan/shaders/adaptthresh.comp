// SPDX-License-Identifier: Apache-2.0
// adaptthresh (common/ops/adaptthresh.hpp). PASS 0: each element of I (class
// DT) on the [0,1] scale in double (integers by one correctly rounded
// division, div_rn: Vulkan's division may be approximate). PASS 1: each
// window of the converted image's integral image from its four corners in
// the CPU reference's order, times the factor, clipped as max(min(T,1),0)
// (NaN gives 1). PASS 2: each value of the median or Gaussian statistic
// times the scale, clipped alike.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "ipt_math.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;
layout(constant_id = 5) const int PASS = 0;

layout(push_constant) uniform Push {
    uint64_t a;  // PASS 0: I; PASS 1: the integral image; PASS 2: the statistic
    uint64_t t;  // PASS 0: the converted image; PASS 1: T
    double norm;
    int m, n, fr, fc, stride;
} pc;

double unit_value(int i) {
    const double v = load_d(pc.a, DT, i);  // exact for every class
    switch (DT) {
    case DT_UINT8: return div_rn(v, 255.0);
    case DT_UINT16: return div_rn(v, 65535.0);
    case DT_INT16: { precise double s = v + 32768.0; return div_rn(s, 65535.0); }
    case DT_UINT32: return div_rn(v, 4294967295.0);
    case DT_INT32: { precise double s = v + 2147483648.0; return div_rn(s, 4294967295.0); }
    default: return v;
    }
}

void main() {
    const int group = int(linear_group());
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    for (int k = 0; k < int(PER_INV); ++k) {
        const int i = (group * int(PER_INV) + k) * width + lane;
        if (i >= pc.m * pc.n) return;
        if (PASS == 0) {
            BufF64(pc.t).v[i] = unit_value(i);
            continue;
        }
        if (PASS == 2) {
            precise double v = pc.norm * BufF64(pc.a).v[i];
            BufF64(pc.t).v[i] = is_nan_d(v) ? 1.0lf : (v < 1.0lf ? (v > 0.0lf ? v : 0.0lf) : 1.0lf);
            continue;
        }
        BufF64 J = BufF64(pc.a);
        const int r = i / pc.n, c = i - r * pc.n;
        precise double s = J.v[(r + pc.fr) * pc.stride + c + pc.fc] - J.v[r * pc.stride + c + pc.fc];
        s = s - J.v[(r + pc.fr) * pc.stride + c];
        s = s + J.v[r * pc.stride + c];
        precise double v = s * pc.norm;
        // Tests on the bits for NaN: a driver may assume no NaN in comparisons.
        BufF64(pc.t).v[i] = is_nan_d(v) ? 1.0lf : (v < 1.0lf ? (v > 0.0lf ? v : 0.0lf) : 1.0lf);
    }
}
