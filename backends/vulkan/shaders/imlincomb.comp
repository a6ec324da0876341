// SPDX-License-Identifier: Apache-2.0
// ipt.imlincomb: Z = K1*A1 + ... + Kn*An (+ K), summed in double in that
// order without fused multiply-adds (as the reference does), converted once
// to the output class (round half away, saturate, NaN -> 0).
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int NIMG = 1;
layout(constant_id = 5) const int DT1 = DT_DOUBLE;
layout(constant_id = 6) const int DT2 = DT_DOUBLE;
layout(constant_id = 7) const int DT3 = DT_DOUBLE;
layout(constant_id = 8) const int DT4 = DT_DOUBLE;
layout(constant_id = 9) const int DT5 = DT_DOUBLE;
layout(constant_id = 10) const int DT6 = DT_DOUBLE;
layout(constant_id = 11) const int DT7 = DT_DOUBLE;
layout(constant_id = 12) const int DT8 = DT_DOUBLE;
layout(constant_id = 13) const int OUT_DT = DT_DOUBLE;
layout(constant_id = 14) const int HAS_OFFSET = 0;

layout(push_constant) uniform Push {
    uint64_t a[8];
    uint64_t z;
    uint64_t k;  // NIMG (+1) doubles
    int n;
} pc;

double term(int j, int i) {
    const double kj = BufF64(pc.k).v[j];
    double x;
    switch (j) {
    case 0: x = load_d(pc.a[0], DT1, i); break;
    case 1: x = load_d(pc.a[1], DT2, i); break;
    case 2: x = load_d(pc.a[2], DT3, i); break;
    case 3: x = load_d(pc.a[3], DT4, i); break;
    case 4: x = load_d(pc.a[4], DT5, i); break;
    case 5: x = load_d(pc.a[5], DT6, i); break;
    case 6: x = load_d(pc.a[6], DT7, i); break;
    default: x = load_d(pc.a[7], DT8, i); break;
    }
    precise double p = kj * x;
    return p;
}

void main() {
    const int group = int(linear_group());
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    for (int k = 0; k < int(PER_INV); ++k) {
        const int i = (group * int(PER_INV) + k) * width + lane;
        if (i >= pc.n) return;
        precise double sum = term(0, i);
        for (int j = 1; j < NIMG; ++j) sum = sum + term(j, i);
        if (HAS_OFFSET != 0) sum = sum + BufF64(pc.k).v[NIMG];
        store_d(pc.z, OUT_DT, i, sum);
    }
}
