// SPDX-License-Identifier: Apache-2.0
// imboxfilt for uint8 planes whose width is a multiple of 4, windows of FR x FC
// (spec constants): each invocation owns four neighbouring output columns
// (one 32-bit word of a row) and walks STRIP rows down them. For each padded
// row entering the window it sums that row's FC values for the four columns
// (H), keeps H in a ring of the last FR rows in shared memory (its own
// slots), and the window sums S are the running totals of the ring. Every
// sum is an integer below 2^31, the one the integral route's corners give;
// S * norm is stored in B's class as box_filter.comp does, four bytes as one
// word. Words whose windows lie inside the row are read as words and aligned
// by shifts (the byte offset is the same for every word); the others apply
// the border rule byte by byte. The work group is GROUP x 1 invocations.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "integral.glsl"

layout(constant_id = 6) const int FC = 3;
layout(constant_id = 7) const int FR = 3;
const int GROUP = 128, STRIP = 8;
const int WORDS = (FC + 6) / 4 + 1;  // covers FC + 3 bytes at any offset, plus one for the shift

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t b;
    double norm;
    int m, n, top, left, pad;
} pc;

shared ivec4 ring[FR * GROUP];

// The window sums of padded row i for the four output columns whose first
// window starts at padded column first_col.
ivec4 row_sums(int i, int first_col, bool inside) {
    const int ar = border(i, pc.m);
    if (ar < 0) return ivec4(FC * pc.pad);
    int x[FC + 3];
    if (inside) {
        const int w0 = (ar * pc.n + first_col) >> 2;
        const uint shift = uint(first_col & 3) * 8u;
        uint w[WORDS];
        for (int k = 0; k < WORDS; ++k) w[k] = BufU32(pc.a).v[w0 + k];
        for (int k = 0; k < (FC + 6) / 4; ++k) {
            const uint y = shift == 0u ? w[k] : (w[k] >> shift) | (w[k + 1] << (32u - shift));
            for (int t = 0; t < 4; ++t)
                if (4 * k + t < FC + 3) x[4 * k + t] = int((y >> (8 * t)) & 0xffu);
        }
    } else {
        for (int t = 0; t < FC + 3; ++t) {
            const int ac = border(first_col + t, pc.n);
            x[t] = ac < 0 ? pc.pad : int(uint(BufU8(pc.a).v[ar * pc.n + ac]));
        }
    }
    ivec4 h;
    h.x = 0;
    for (int t = 0; t < FC; ++t) h.x += x[t];
    h.y = h.x - x[0] + x[FC];
    h.z = h.y - x[1] + x[FC + 1];
    h.w = h.z - x[2] + x[FC + 2];
    return h;
}

uint to_byte(int s) {
    precise double v = double(s) * pc.norm;
    return uint(saturate_round(v, 0.0, 255.0));
}

void main() {
    const int q = int(gl_GlobalInvocationID.x);  // word of the output row
    const int words = pc.n / 4;
    if (q >= words) return;
    const int lane = int(gl_LocalInvocationID.x);
    const int first_col = 4 * q - pc.left;
    const bool inside = first_col >= 0 && (first_col >> 2) + WORDS <= words;
    for (int r0 = int(gl_WorkGroupID.y) * STRIP; r0 < pc.m; r0 += int(gl_NumWorkGroups.y) * STRIP) {
        const int r_end = min(r0 + STRIP, pc.m);
        // Output r's window covers padded rows r - top .. r - top + FR - 1.
        ivec4 v = ivec4(0);
        for (int k = 0; k + 1 < FR; ++k) {
            const ivec4 h = row_sums(r0 - pc.top + k, first_col, inside);
            ring[k * GROUP + lane] = h;
            v += h;
        }
        int slot = FR - 1;
        for (int r = r0; r < r_end; ++r) {
            const ivec4 h = row_sums(r - pc.top + FR - 1, first_col, inside);
            ring[slot * GROUP + lane] = h;
            v += h;
            BufU32(pc.b).v[r * words + q] = to_byte(v.x) | to_byte(v.y) << 8 | to_byte(v.z) << 16 | to_byte(v.w) << 24;
            slot = slot + 1 == FR ? 0 : slot + 1;  // now the oldest row: it leaves
            v -= ring[slot * GROUP + lane];
        }
    }
}
