// SPDX-License-Identifier: Apache-2.0
// ipt.rangefilt of uint8 and logical images under a flat rectangle: the
// maximum and the minimum come from morph_rect_bytes.comp (J and LO), and
// this pass forms J = J - LO, saturated at 0 (uint8), or J & ~LO (logical),
// four bytes an invocation (pc.n bytes).
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int LOGICAL = 0;

layout(push_constant) uniform Push {
    uint64_t j;
    uint64_t lo;
    int n;
} pc;

void main() {
    const int group = int(linear_group());
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    for (int k = 0; k < int(PER_INV); ++k) {
        const int first = 4 * ((group * int(PER_INV) + k) * width + lane);
        if (first >= pc.n) return;
        for (int i = first; i < min(first + 4, pc.n); ++i) {
            const uint hi = uint(BufU8(pc.j).v[i]), lo = uint(BufU8(pc.lo).v[i]);
            BufU8(pc.j).v[i] = uint8_t(LOGICAL != 0 ? hi & (lo ^ 1u) : (hi > lo ? hi - lo : 0u));
        }
    }
}
