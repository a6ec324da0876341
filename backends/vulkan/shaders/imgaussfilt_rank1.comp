// SPDX-License-Identifier: Apache-2.0
// imgaussfilt's direct route for integer classes when the reference splits
// the K x K kernel into an exact column factor u and row factor v
// (backends/common/rank1.hpp): the reference's two passes fused in one work
// group of 32 x 8 invocations per 32 x 32 outputs. The padded source tile
// (integral.glsl's border rule) and the column pass (each value
// sum_i u[i] P, i in order) stay in shared memory; each invocation then
// sums four outputs of one column (sum_j v[j] mid, j in order), in double
// without fused multiply-adds, and stores them in B's class: the CPU
// reference's arithmetic, so the results are its bits.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "integral.glsl"

layout(constant_id = 6) const int K = 9;

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t b;
    uint64_t u;  // double [K]
    uint64_t v;  // double [K]
    double pad;
    int m, n, top, left, tiles_x, tiles;
} pc;

const int TR = 32, TC = 32, RPT = 4;  // RPT * gl_WorkGroupSize.y == TR
const int HR = TR + K - 1, HC = TC + K - 1;
shared double tile[HR * HC];
shared double mid[TR * HC];
shared double taps_u[K];
shared double taps_v[K];

void main() {
    const int t = int(linear_group());
    if (t >= pc.tiles) return;  // (the whole group)
    const int r0 = (t / pc.tiles_x) * TR, c0 = (t % pc.tiles_x) * TC;
    const int base = int(gl_WorkGroupID.z) * pc.m * pc.n;
    const int self = int(gl_LocalInvocationID.y * gl_WorkGroupSize.x + gl_LocalInvocationID.x);
    const int threads = int(gl_WorkGroupSize.x * gl_WorkGroupSize.y);
    for (int e = self; e < HR * HC; e += threads) {
        const int y = e / HC, x = e - y * HC;
        const int ar = border(r0 - pc.top + y, pc.m), ac = border(c0 - pc.left + x, pc.n);
        tile[e] = (ar < 0 || ac < 0) ? pc.pad : load_d(pc.a, DT, base + ar * pc.n + ac);
    }
    if (self < K) {
        taps_u[self] = BufF64(pc.u).v[self];
        taps_v[self] = BufF64(pc.v).v[self];
    }
    barrier();
    for (int e = self; e < TR * HC; e += threads) {
        const int y = e / HC, x = e - y * HC;
        precise double s = 0.0;
        for (int i = 0; i < K; ++i) {
            precise double p = taps_u[i] * tile[(y + i) * HC + x];
            s = s + p;
        }
        mid[e] = s;
    }
    barrier();
    const int x = int(gl_LocalInvocationID.x), y0 = int(gl_LocalInvocationID.y) * RPT;
    for (int k = 0; k < RPT; ++k) {
        const int r = r0 + y0 + k, c = c0 + x;
        if (r >= pc.m || c >= pc.n) continue;
        precise double part = 0.0;
        for (int j = 0; j < K; ++j) {
            precise double p = taps_v[j] * mid[(y0 + k) * HC + x + j];
            part = part + p;
        }
        store_d(pc.b, DT, base + r * pc.n + c, part);
    }
}
