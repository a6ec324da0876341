// SPDX-License-Identifier: Apache-2.0
// First pass of the upright integral image in the CPU reference's order,
// cumsum(P, 1): the running sums down each column of the (padded) plane P
// into rows 1..pm of the table J ((pm+1) x (pn+1) doubles), with J's zero
// first row and column. A work group of 32 x ROWS invocations owns 32
// columns of J and walks them in tiles of TR rows staged in shared memory:
// every invocation loads its share of the next tile into registers while
// the first 32 (one per column) add the current tile down its column in
// order, then the whole group stores the sums. The loads of all ROWS x 32
// invocations are what keep enough memory traffic in flight; the additions
// stay one chain per column, as the reference adds.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "ipt_common.glsl"
#include "integral.glsl"

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t j;
    double pad;
    int m, n, pm, pn, top, left;
} pc;

const int COLS = 32, ROWS = 8, TR = 64, PER = TR / ROWS;
shared double tile[TR * COLS];

void main() {
    const int x = int(gl_LocalInvocationID.x), y = int(gl_LocalInvocationID.y);
    const int c = int(linear_group()) * COLS + x;  // J's column; 0 is the zero column
    if (int(linear_group()) * COLS > pc.pn) return;  // (the whole group: a folded grid's spare groups)
    const int stride = pc.pn + 1;
    BufF64 J = BufF64(pc.j);
    const bool column = c >= 1 && c <= pc.pn;  // holds P's column c - 1
    const int ac = column ? border(c - 1 - pc.left, pc.n) : 0;
    if (y == 0 && c <= pc.pn) J.v[c] = 0.0;
    double next[PER];
    [[unroll]] for (int k = 0; k < PER; ++k) {
        const int r = y + k * ROWS;
        next[k] = column && r < pc.pm ? padded_value(pc.a, pc.n, border(r - pc.top, pc.m), ac, pc.pad) : 0.0;
    }
    precise double acc = 0.0;
    for (int r0 = 0; r0 < pc.pm; r0 += TR) {
        [[unroll]] for (int k = 0; k < PER; ++k) tile[(y + k * ROWS) * COLS + x] = next[k];
        barrier();
        if (r0 + TR < pc.pm)
            [[unroll]] for (int k = 0; k < PER; ++k) {
                const int r = r0 + TR + y + k * ROWS;
                next[k] = column && r < pc.pm ? padded_value(pc.a, pc.n, border(r - pc.top, pc.m), ac, pc.pad) : 0.0;
            }
        if (y == 0) {
            const int rows = min(TR, pc.pm - r0);
            for (int i = 0; i < rows; ++i) {
                acc = acc + tile[i * COLS + x];
                tile[i * COLS + x] = acc;
            }
        }
        barrier();
        if (c <= pc.pn)
            [[unroll]] for (int k = 0; k < PER; ++k) {
                const int r = r0 + y + k * ROWS;
                if (r < pc.pm) J.v[(r + 1) * stride + c] = tile[(y + k * ROWS) * COLS + x];
            }
        barrier();
    }
}
