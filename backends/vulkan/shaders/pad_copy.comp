// SPDX-License-Identifier: Apache-2.0
// Padded copy, shared by ipt.padarray and ipt.imcrop: output element (p, r, c)
// of each plane is A(p, src(r - top, rows), src(c - left, cols)), src being
// padarray's rule of pc.method (0 constant, 1 circular, 2 replicate,
// 3 symmetric; common/ops/padarray.hpp), or the fill bits where the rule gives
// none or A is empty. imcrop passes its corner as a negative top/left.
// WORDS 1 (1- and 2-byte classes): each item is one 32-bit word of the
// output, assembled from its elements and stored at once; the last, partial
// word element by element. WORDS 0: one element per item.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;
layout(constant_id = 5) const int WORDS = 0;

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t b;
    uint64_t fill;  // the fill value's bits, element-wide
    int rows;       // of a plane of A
    int cols;
    int out_rows;   // of a plane of B
    int out_cols;
    int top;
    int left;
    int method;
    int items;      // words or elements
    int total;      // elements of B
} pc;

int source_index(int i, int n) {
    if (i >= 0 && i < n) return i;
    if (pc.method == 1) return floor_mod(i, n);
    if (pc.method == 2) return i < 0 ? 0 : n - 1;
    if (pc.method == 3) return symmetric_index(i, n);
    return -1;
}

uint64_t element_bits(int e) {
    if (pc.rows == 0 || pc.cols == 0) return pc.fill;
    const int k = e / pc.out_cols;
    const int c = e - k * pc.out_cols;
    const int plane = k / pc.out_rows;
    const int r = k - plane * pc.out_rows;
    const int sr = source_index(r - pc.top, pc.rows);
    const int sc = source_index(c - pc.left, pc.cols);
    if (sr < 0 || sc < 0) return pc.fill;
    return load_bits(pc.a, DT, (plane * pc.rows + sr) * pc.cols + sc);
}

void main() {
    const int group = int(linear_group());
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    const int per_word = (DT == DT_LOGICAL || DT == DT_UINT8) ? 4 : 2;
    const int bits = 32 / per_word;
    const uint mask = (1u << bits) - 1u;
    for (int k = 0; k < int(PER_INV); ++k) {
        const int i = (group * int(PER_INV) + k) * width + lane;
        if (i >= pc.items) return;
        if (WORDS != 0) {
            const int e0 = i * per_word;
            if (e0 + per_word <= pc.total) {
                uint w = 0u;
                for (int t = 0; t < per_word; ++t) w |= (uint(element_bits(e0 + t)) & mask) << uint(t * bits);
                BufU32(pc.b).v[i] = w;
            } else {
                for (int t = 0; e0 + t < pc.total; ++t) store_bits(pc.b, DT, e0 + t, element_bits(e0 + t));
            }
        } else {
            store_bits(pc.b, DT, i, element_bits(i));
        }
    }
}
