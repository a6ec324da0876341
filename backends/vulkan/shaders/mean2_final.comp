// SPDX-License-Identifier: Apache-2.0
// ipt.mean2, pass 2: one work group adds the partials and divides by numel
// (correctly rounded), writing double, or single for single A.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "ipt_math.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;
const bool INTEGER = DT != DT_SINGLE && DT != DT_DOUBLE;

layout(push_constant) uniform Push {
    uint64_t partials;
    uint64_t m;
    double count;
    int groups;
} pc;

shared int64_t sum_i[gl_WorkGroupSize.x];
shared double sum_d[gl_WorkGroupSize.x];

void main() {
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    int64_t acc_i = 0;
    precise double acc_d = 0.0;
    for (int g = lane; g < pc.groups; g += width) {
        if (INTEGER) acc_i += BufI64(pc.partials).v[g];
        else acc_d += BufF64(pc.partials).v[g];
    }
    if (INTEGER) sum_i[lane] = acc_i;
    else sum_d[lane] = acc_d;
    barrier();
    for (int stride = width / 2; stride > 0; stride /= 2) {
        if (lane < stride) {
            if (INTEGER) sum_i[lane] += sum_i[lane + stride];
            else sum_d[lane] = sum_d[lane] + sum_d[lane + stride];
        }
        barrier();
    }
    if (lane == 0) {
        const double total = INTEGER ? double(sum_i[0]) : sum_d[0];
        const double mean = div_rn(total, pc.count);
        if (DT == DT_SINGLE) BufF32(pc.m).v[0] = float(mean);
        else BufF64(pc.m).v[0] = mean;
    }
}
