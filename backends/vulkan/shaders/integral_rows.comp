// SPDX-License-Identifier: Apache-2.0
// Second pass of the upright integral image in the CPU reference's order,
// cumsum(., 2): the running sums along rows 1..rows of the table J (`cols`
// doubles a row), and their zero first column. A work group owns
// gl_WorkGroupSize.x (<= 64) consecutive rows and walks them in tiles of 32
// columns staged in shared memory: the group loads and stores each tile row
// by row (contiguous), and each invocation carries its own row's sum through
// the tile in order, as the CPU reference adds. The next tile's loads are
// issued into registers before the current tile's additions, so that they
// overlap.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(push_constant) uniform Push {
    uint64_t j;
    int rows, cols;
} pc;

const int TW = 32;
shared double tile[64 * (TW + 1)];

void main() {
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    const int r0 = 1 + int(linear_group()) * width;
    if (r0 > pc.rows) return;  // (the whole group: a folded grid's spare groups)
    BufF64 J = BufF64(pc.j);
    if (r0 + lane <= pc.rows) J.v[(r0 + lane) * pc.cols] = 0.0;
    // Element e of a tile is row e / TW, column e % TW; invocation `lane`
    // moves elements lane, lane + width, ... (TW of them).
    double staged[TW];
    for (int q = 0; q < TW; ++q) {
        const int e = lane + q * width, k = e / TW, cc = e % TW;
        staged[q] = (r0 + k <= pc.rows && 1 + cc < pc.cols) ? J.v[(r0 + k) * pc.cols + 1 + cc] : 0.0;
    }
    precise double acc = 0.0;
    for (int c0 = 1; c0 < pc.cols; c0 += TW) {
        const int tw = min(TW, pc.cols - c0);
        for (int q = 0; q < TW; ++q) {
            const int e = lane + q * width;
            tile[(e / TW) * (TW + 1) + e % TW] = staged[q];
        }
        barrier();
        const int n0 = c0 + TW;
        if (n0 < pc.cols)
            for (int q = 0; q < TW; ++q) {
                const int e = lane + q * width, k = e / TW, cc = e % TW;
                staged[q] = (r0 + k <= pc.rows && n0 + cc < pc.cols) ? J.v[(r0 + k) * pc.cols + n0 + cc] : 0.0;
            }
        if (r0 + lane <= pc.rows)
            for (int cc = 0; cc < tw; ++cc) {
                acc = acc + tile[lane * (TW + 1) + cc];
                tile[lane * (TW + 1) + cc] = acc;
            }
        barrier();
        for (int q = 0; q < TW; ++q) {
            const int e = lane + q * width, k = e / TW, cc = e % TW;
            if (r0 + k <= pc.rows && cc < tw) J.v[(r0 + k) * pc.cols + c0 + cc] = tile[k * (TW + 1) + cc];
        }
        barrier();
    }
}
