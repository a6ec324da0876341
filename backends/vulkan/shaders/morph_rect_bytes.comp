// SPDX-License-Identifier: Apache-2.0
// ipt.imdilate / ipt.imerode of uint8 and logical images by a flat SE whose
// members fill their bounding box (square, rectangle, line), in one pass:
// out(r, c) = max (or min) of A(r + i, c + j) over i in [lo_r, hi_r],
// j in [lo_c, hi_c], outside pixels the identity (never chosen). Each pixel
// sits in a 16-bit lane of a u16vec2, so one vector max/min serves two
// pixels. A work group stages its input tile (128 x 32 outputs plus the
// halo), takes the extreme down the columns into a second tile, then along
// the rows: each invocation computes four outputs of a row (one 32-bit
// store). As the CUDA plugin's morph_rect_bytes.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int IS_MAX = 1;
layout(constant_id = 5) const int WORDS = 1;    // pixel pairs per staged row: (128 + span_c + 1) / 2 + 1
layout(constant_id = 6) const int IN_ROWS = 1;  // staged rows: 32 + span_r

const int TILE_ROWS = 32, TILE_COLS = 128;

shared u16vec2 staged[IN_ROWS * WORDS];
shared u16vec2 down[TILE_ROWS * WORDS];

layout(push_constant) uniform Push {
    uint64_t a, b;
    int rows, cols, lo_r, lo_c, span_r, span_c;
    uint pad;         // the identity, in the class
    int word_rows;    // 1: every output row starts on a 4-byte boundary
} pc;

u16vec2 pick(u16vec2 acc, u16vec2 v) { return IS_MAX != 0 ? max(acc, v) : min(acc, v); }

void main() {
    const int lid = int(gl_LocalInvocationIndex);
    const int tx = lid % 32, ty = lid / 32;  // 32 x 8 invocations
    const int r0 = int(gl_WorkGroupID.y) * TILE_ROWS, c0 = int(gl_WorkGroupID.x) * TILE_COLS;
    const uint16_t pad = uint16_t(pc.pad);
    for (int y = ty; y < IN_ROWS; y += 8) {
        const int r = r0 + pc.lo_r + y;
        const bool row_inside = r >= 0 && r < pc.rows;
        for (int x = tx; x < 2 * WORDS; x += 32) {
            const int c = c0 + pc.lo_c + x;
            const bool inside = row_inside && c >= 0 && c < pc.cols;
            staged[y * WORDS + (x >> 1)][x & 1] = inside ? uint16_t(BufU8(pc.a).v[r * pc.cols + c]) : pad;
        }
    }
    barrier();
    const u16vec2 identity = u16vec2(pad, pad);
    for (int y = ty; y < TILE_ROWS; y += 8)
        for (int w = tx; w < WORDS; w += 32) {
            u16vec2 acc = identity;
            for (int k = 0; k <= pc.span_r; ++k) acc = pick(acc, staged[(y + k) * WORDS + w]);
            down[y * WORDS + w] = acc;
        }
    barrier();
    // Outputs 4 tx .. 4 tx + 3: pairs 2 tx and 2 tx + 1. Staged pixel x + j,
    // j = 0 .. span_c: for even j the pair (x + j) / 2, for odd j the high
    // half of one pair and the low half of the next.
    const int c = c0 + 4 * tx;
    if (c >= pc.cols) return;
    for (int y = ty; y < TILE_ROWS; y += 8) {
        const int r = r0 + y;
        if (r >= pc.rows) return;
        const int row = y * WORDS + 2 * tx;
        u16vec2 acc0 = identity, acc1 = identity;
        u16vec2 w0 = down[row], w1 = down[row + 1];
        for (int q = 0;; ++q) {
            acc0 = pick(acc0, w0);  // j = 2q
            acc1 = pick(acc1, w1);
            if (2 * q + 1 > pc.span_c) break;
            const u16vec2 w2 = down[row + q + 2];
            acc0 = pick(acc0, u16vec2(w0.y, w1.x));  // j = 2q + 1
            acc1 = pick(acc1, u16vec2(w1.y, w2.x));
            if (2 * q + 2 > pc.span_c) break;
            w0 = w1;
            w1 = w2;
        }
        const int at = r * pc.cols + c;
        if (pc.word_rows != 0 && c + 4 <= pc.cols) {
            BufU32(pc.b).v[at >> 2] = uint(acc0.x) | (uint(acc0.y) << 8) | (uint(acc1.x) << 16) | (uint(acc1.y) << 24);
        } else {
            const uint out4[4] = uint[4](uint(acc0.x), uint(acc0.y), uint(acc1.x), uint(acc1.y));
            for (int k = 0; k < 4 && c + k < pc.cols; ++k) BufU8(pc.b).v[at + k] = uint8_t(out4[k]);
        }
    }
}
