// SPDX-License-Identifier: Apache-2.0
// ipt.imbinarize: BW(i) = I(i) > level, the level being pc.level (GIVEN 0)
// or lo + span * T(i * step) (GIVEN 1: T single or double), formed in double
// with precise arithmetic (no fused multiply-add) as the reference forms it.
// Values are compared in double, exact for every class; NaN is never greater.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;
layout(constant_id = 5) const int GIVEN = 0;
layout(constant_id = 6) const int TDT = DT_DOUBLE;

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t t;
    uint64_t bw;
    double level;
    double lo;
    double span;
    int n;
    int step;  // 0: a scalar T
} pc;

void main() {
    const int group = int(linear_group());
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    for (int k = 0; k < int(PER_INV); ++k) {
        const int i = (group * int(PER_INV) + k) * width + lane;
        if (i >= pc.n) return;
        const double v = load_d(pc.a, DT, i);
        precise double level = pc.level;
        if (GIVEN != 0) {
            precise double scaled = pc.span * load_d(pc.t, TDT, i * pc.step);
            level = pc.lo + scaled;
        }
        // is_nan_d: a driver may assume no NaN in the comparison itself.
        const bool above = !is_nan_d(v) && !is_nan_d(level) && v > level;
        BufU8(pc.bw).v[i] = uint8_t(above ? 1u : 0u);
    }
}
