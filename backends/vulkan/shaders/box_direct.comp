// SPDX-License-Identifier: Apache-2.0
// imboxfilt for 8- and 16-bit integers with windows of at most MAXW x MAXW:
// the window sum S of the padded plane P (integral.glsl) is an integer
// below 2^31, equal to the one the integral route's four corners give, so a
// 32 x 8 work group sums its TR x TC tile of outputs straight from a shared
// tile of P with its halo (row sums of the tile, then column sums of those),
// and stores S * norm in B's class as box_filter.comp does.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "integral.glsl"

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t b;
    double norm;
    double pad;
    int m, n, fr, fc, top, left, tiles_x, tiles;
} pc;

const int TR = 32, TC = 32, MAXW = 17;
const int HR = TR + MAXW - 1, HC = TC + MAXW - 1;
shared int tile[HR * HC];
shared int row_sums[HR * TC];

void main() {
    const int t = int(linear_group());
    if (t >= pc.tiles) return;  // (the whole group)
    const int r0 = (t / pc.tiles_x) * TR, c0 = (t % pc.tiles_x) * TC;
    const int self = int(gl_LocalInvocationID.y * gl_WorkGroupSize.x + gl_LocalInvocationID.x);
    const int threads = int(gl_WorkGroupSize.x * gl_WorkGroupSize.y);
    const int th = TR + pc.fr - 1, tw = TC + pc.fc - 1;
    const int pad = int(pc.pad);
    for (int e = self; e < th * tw; e += threads) {
        const int y = e / tw, x = e - y * tw;
        const int ar = border(r0 - pc.top + y, pc.m), ac = border(c0 - pc.left + x, pc.n);
        tile[e] = (ar < 0 || ac < 0) ? pad : int(load_d(pc.a, DT, ar * pc.n + ac));
    }
    barrier();
    for (int e = self; e < th * TC; e += threads) {
        const int y = e / TC, x = e % TC;
        int s = 0;
        for (int j = 0; j < pc.fc; ++j) s += tile[y * tw + x + j];
        row_sums[e] = s;
    }
    barrier();
    for (int e = self; e < TR * TC; e += threads) {
        const int y = e / TC, x = e % TC;
        const int r = r0 + y, c = c0 + x;
        if (r >= pc.m || c >= pc.n) continue;
        int s = 0;
        for (int i = 0; i < pc.fr; ++i) s += row_sums[e + i * TC];
        precise double v = double(s) * pc.norm;
        store_d(pc.b, DT, r * pc.n + c, v);
    }
}
