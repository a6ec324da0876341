// SPDX-License-Identifier: Apache-2.0
// ipt.imcomplement. Integer classes: intmax-I and -1-I are the bitwise
// complement, and logical's ~I is I xor 1, so WORDS 1 complements whole
// 32-bit words (pc.n words, MASK per byte 0xFF or 0x01) and WORDS 0 one
// element at a time. single and double: 1 - I in the class of I.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;
layout(constant_id = 5) const int WORDS = 0;

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t j;
    int n;  // elements, or words when WORDS 1
} pc;

uint64_t element_mask() {
    switch (DT) {
    case DT_LOGICAL: return 1ul;
    case DT_UINT8: return 0xFFul;
    case DT_UINT16:
    case DT_INT16: return 0xFFFFul;
    default: return 0xFFFFFFFFul;
    }
}

void main() {
    const int group = int(linear_group());
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    for (int k = 0; k < int(PER_INV); ++k) {
        const int i = (group * int(PER_INV) + k) * width + lane;
        if (i >= pc.n) return;
        if (WORDS != 0) {
            const uint mask = DT == DT_LOGICAL ? 0x01010101u : 0xFFFFFFFFu;
            BufU32(pc.j).v[i] = BufU32(pc.a).v[i] ^ mask;
        } else if (DT == DT_SINGLE) {
            precise float v = 1.0 - BufF32(pc.a).v[i];
            BufF32(pc.j).v[i] = v;
        } else if (DT == DT_DOUBLE) {
            precise double v = 1.0lf - BufF64(pc.a).v[i];
            BufF64(pc.j).v[i] = v;
        } else {
            store_bits(pc.j, DT, i, load_bits(pc.a, DT, i) ^ element_mask());
        }
    }
}
