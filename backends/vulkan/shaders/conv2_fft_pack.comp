// SPDX-License-Identifier: Apache-2.0
// ipt.conv2 (fft): lays A and the kernel out for VkFFT's in-place real
// transform, both in double: transform z (0: A, 1: the kernel) is a rows x
// stride array (stride = cols + 2, VkFFT's padded rows), the operand in its
// top-left corner and zeros elsewhere. The kernel is K, or the outer product
// u v^T for conv2(u,v,A). A value the transform cannot take (Inf, NaN, or a
// magnitude of 2^401 or more, whose products could overflow a transform of
// up to 2^31 terms) sets the flag; the caller then takes the direct route.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT_A = DT_DOUBLE;
layout(constant_id = 5) const int DT_K = DT_DOUBLE;  // K, or u
layout(constant_id = 6) const int DT_V = DT_DOUBLE;
layout(constant_id = 7) const int SEPARABLE = 0;

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t k;     // K (kr x kc), or u (kr) when SEPARABLE
    uint64_t v;     // v (kc) when SEPARABLE
    uint64_t work;  // two transforms of rows x stride doubles
    uint64_t flag;  // uint32
    int ma, na, kr, kc;
    int rows, stride;
} pc;

// Biased exponent above 1023 + 400: |x| >= 2^401, Inf or NaN.
bool beyond_transform(double x) {
    return ((unpackDouble2x32(x).y >> 20) & 0x7FFu) > 1423u;
}

void main() {
    const int c = int(gl_GlobalInvocationID.x), r = int(gl_GlobalInvocationID.y);
    const int z = int(gl_WorkGroupID.z);
    if (c >= pc.stride || r >= pc.rows) return;
    double x = 0.0;
    if (z == 0) {
        if (r < pc.ma && c < pc.na) x = load_d(pc.a, DT_A, r * pc.na + c);
    } else if (r < pc.kr && c < pc.kc) {
        if (SEPARABLE != 0) {
            precise double outer = load_d(pc.k, DT_K, r) * load_d(pc.v, DT_V, c);
            x = outer;
        } else {
            x = load_d(pc.k, DT_K, r * pc.kc + c);
        }
    }
    if (beyond_transform(x)) atomicOr(BufU32(pc.flag).v[0], 1u);
    BufF64(pc.work).v[(z * pc.rows + r) * pc.stride + c] = x;
}
