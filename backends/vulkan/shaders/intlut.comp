// SPDX-License-Identifier: Apache-2.0
// ipt.intlut: B(i) = LUT(A(i) + 1), LUT indexed from -32768 for int16.
// VEC > 1 (wave64): each invocation converts 32-bit words of A (4 uint8 or 2
// 16-bit elements) with one load and one store; the ragged end goes element
// by element. Correct for any subgroup and work-group size.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t lut;
    uint64_t b;
    int n;
} pc;

uint lookup(uint bits) {
    if (DT == DT_UINT8) return uint(BufU8(pc.lut).v[bits]);
    if (DT == DT_INT16) return uint(BufU16(pc.lut).v[(bits + 32768u) & 0xFFFFu]);
    return uint(BufU16(pc.lut).v[bits]);
}

void convert_one(int i) {
    if (DT == DT_UINT8) BufU8(pc.b).v[i] = uint8_t(lookup(uint(BufU8(pc.a).v[i])));
    else BufU16(pc.b).v[i] = uint16_t(lookup(uint(BufU16(pc.a).v[i])));
}

void main() {
    const int group = int(linear_group());
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    if (VEC > 1) {
        const int per_word = DT == DT_UINT8 ? 4 : 2;
        const int words = (pc.n + per_word - 1) / per_word;
        for (int k = 0; k < int(PER_INV); ++k) {
            const int w = (group * int(PER_INV) + k) * width + lane;
            if (w >= words) return;
            const int first = w * per_word;
            if (first + per_word <= pc.n) {
                const uint word = BufU32(pc.a).v[w];
                uint result;
                if (DT == DT_UINT8) {
                    result = lookup(word & 0xFFu) | (lookup((word >> 8) & 0xFFu) << 8) |
                             (lookup((word >> 16) & 0xFFu) << 16) | (lookup(word >> 24) << 24);
                } else {
                    result = lookup(word & 0xFFFFu) | (lookup(word >> 16) << 16);
                }
                BufU32(pc.b).v[w] = result;
            } else {
                for (int i = first; i < pc.n; ++i) convert_one(i);
            }
        }
    } else {
        for (int k = 0; k < int(PER_INV); ++k) {
            const int i = (group * int(PER_INV) + k) * width + lane;
            if (i >= pc.n) return;
            convert_one(i);
        }
    }
}
