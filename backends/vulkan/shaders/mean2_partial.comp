// SPDX-License-Identifier: Apache-2.0
// ipt.mean2, pass 1: each work group sums a contiguous chunk of A into one
// partial. Integer and logical classes accumulate exactly in int64 (the
// largest image, 2^31-1 uint32 values, cannot overflow it); floating classes
// in double. 8-bit classes are read 16 pixels per load. Shared-memory tree:
// correct for any subgroup size.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;
const bool INTEGER = DT != DT_SINGLE && DT != DT_DOUBLE;

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t partials;  // one 64-bit value per group
    int n;
    int chunk;          // elements per group
} pc;

shared int64_t sum_i[gl_WorkGroupSize.x];
shared double sum_d[gl_WorkGroupSize.x];

int64_t load_i(int i) {
    switch (DT) {
    case DT_LOGICAL:
    case DT_UINT8: return int64_t(uint(BufU8(pc.a).v[i]));
    case DT_UINT16: return int64_t(uint(BufU16(pc.a).v[i]));
    case DT_INT16: return int64_t(int(BufI16(pc.a).v[i]));
    case DT_INT32: return int64_t(BufI32(pc.a).v[i]);
    default: return int64_t(BufU32(pc.a).v[i]);
    }
}

void main() {
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    const int group = int(linear_group());
    const int begin = group * pc.chunk;
    const int end = min(pc.n, begin + pc.chunk);
    int64_t acc_i = 0;
    precise double acc_d = 0.0;
    int first_scalar = begin;
    if ((DT == DT_UINT8 || DT == DT_LOGICAL) && (pc.a & 15ul) == 0ul && begin % 16 == 0) {
        // 16 pixels per load: the bytes of each 32-bit word summed in two
        // 16-bit lanes (at most 4 x 2 x 255 = 2040 per lane over a vector),
        // widened to 64 bits once per vector, not once per pixel.
        const int vend = end / 16;
        for (int v = begin / 16 + lane; v < vend; v += width) {
            const uvec4 w = BufU32x4(pc.a).v[v];
            const uvec4 pairs = (w & 0x00FF00FFu) + ((w >> 8) & 0x00FF00FFu);
            const uint lanes = pairs.x + pairs.y + pairs.z + pairs.w;
            acc_i += int64_t((lanes & 0xFFFFu) + (lanes >> 16));
        }
        first_scalar = max(begin, vend * 16);
    }
    for (int i = first_scalar + lane; i < end; i += width) {
        if (INTEGER) acc_i += load_i(i);
        else acc_d += load_d(pc.a, DT, i);
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
        if (INTEGER) BufI64(pc.partials).v[group] = sum_i[0];
        else BufF64(pc.partials).v[group] = sum_d[0];
    }
}
