// SPDX-License-Identifier: Apache-2.0
// Second pass of the upright integral image in the CPU reference's order,
// cumsum(., 2): the running sums along rows 1..rows of the table J (`cols`
// doubles a row), and their zero first column. A work group of 32 x ROWS
// invocations owns 32 consecutive rows and walks them in tiles of TW
// columns staged in shared memory: the whole group loads and stores each
// tile row by row (contiguous), every invocation loading its share of the
// next tile into registers while the first 32 (one per row) carry their
// row's sum through the current tile in order, as the CPU reference adds.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "ipt_common.glsl"

layout(push_constant) uniform Push {
    uint64_t j;
    int rows, cols;
} pc;

const int OWN = 32, ROWS = 8, TW = 64, PER = OWN * TW / (32 * ROWS);
shared double tile[OWN * (TW + 1)];

void main() {
    const int x = int(gl_LocalInvocationID.x);
    const int self = int(gl_LocalInvocationID.y) * 32 + x;
    const int r0 = 1 + int(linear_group()) * OWN;
    if (r0 > pc.rows) return;  // (the whole group: a folded grid's spare groups)
    BufF64 J = BufF64(pc.j);
    if (self < OWN && r0 + self <= pc.rows) J.v[(r0 + self) * pc.cols] = 0.0;
    // Element e of a tile is row e / TW, column e % TW; invocation `self`
    // moves elements self, self + 32 * ROWS, ...
    double next[PER];
    [[unroll]] for (int q = 0; q < PER; ++q) {
        const int e = self + q * 32 * ROWS, k = e / TW, cc = e % TW;
        next[q] = (r0 + k <= pc.rows && 1 + cc < pc.cols) ? J.v[(r0 + k) * pc.cols + 1 + cc] : 0.0;
    }
    precise double acc = 0.0;
    for (int c0 = 1; c0 < pc.cols; c0 += TW) {
        const int tw = min(TW, pc.cols - c0);
        [[unroll]] for (int q = 0; q < PER; ++q) {
            const int e = self + q * 32 * ROWS;
            tile[(e / TW) * (TW + 1) + e % TW] = next[q];
        }
        barrier();
        const int n0 = c0 + TW;
        if (n0 < pc.cols)
            [[unroll]] for (int q = 0; q < PER; ++q) {
                const int e = self + q * 32 * ROWS, k = e / TW, cc = e % TW;
                next[q] = (r0 + k <= pc.rows && n0 + cc < pc.cols) ? J.v[(r0 + k) * pc.cols + n0 + cc] : 0.0;
            }
        if (self < OWN && r0 + self <= pc.rows)
            for (int cc = 0; cc < tw; ++cc) {
                acc = acc + tile[self * (TW + 1) + cc];
                tile[self * (TW + 1) + cc] = acc;
            }
        barrier();
        [[unroll]] for (int q = 0; q < PER; ++q) {
            const int e = self + q * 32 * ROWS, k = e / TW, cc = e % TW;
            if (r0 + k <= pc.rows && cc < tw) J.v[(r0 + k) * pc.cols + c0 + cc] = tile[k * (TW + 1) + cc];
        }
        barrier();
    }
}
