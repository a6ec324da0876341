// SPDX-License-Identifier: Apache-2.0
// ipt.imfilter: decides, on the device, whether h runs as two passes, as the
// CPU reference decides (common/correlate.hpp, find_rank1): the taps (turned
// by 180 degrees for 'conv') are exactly rank 1 when u = h(:, pc) and
// v = h(pr, :) / h(pr, pc), at the largest |h|, reproduce every tap to
// rel_tol relative (zeros exactly). One invocation writes u and v and the
// work-group counts of the indirect dispatches: the single 2-D pass, or the
// column and row passes, the other getting zero groups. Nothing waits on
// the host.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "ipt_math.glsl"

layout(constant_id = 4) const int DT_K = DT_DOUBLE;
layout(constant_id = 5) const int ROTATE = 0;

layout(push_constant) uniform Push {
    uint64_t h;
    uint64_t u;        // double [kr]
    uint64_t v;        // double [kc]
    uint64_t args;     // 3 x uvec3 (uint32): direct, column pass, row pass
    double rel_tol;
    int kr, kc;
    uint direct_x, direct_y, direct_z;
    uint column_x, column_y, row_x, row_y;
} pc;

double tap(int i, int j) {
    const int si = ROTATE != 0 ? pc.kr - 1 - i : i, sj = ROTATE != 0 ? pc.kc - 1 - j : j;
    const int at = si * pc.kc + sj;
    return DT_K == DT_SINGLE ? double(BufF32(pc.h).v[at]) : BufF64(pc.h).v[at];
}

bool rank1() {
    int pr = 0, pcol = 0;
    double best = 0.0;
    for (int i = 0; i < pc.kr; ++i)
        for (int j = 0; j < pc.kc; ++j) {
            const double a = abs(tap(i, j));
            if (is_nan_d(a) || isinf(a)) return false;
            if (a > best) {
                best = a;
                pr = i;
                pcol = j;
            }
        }
    if (best == 0.0) return false;
    const double pivot = tap(pr, pcol);
    for (int i = 0; i < pc.kr; ++i) BufF64(pc.u).v[i] = tap(i, pcol);
    for (int j = 0; j < pc.kc; ++j) BufF64(pc.v).v[j] = div_rn(tap(pr, j), pivot);
    for (int i = 0; i < pc.kr; ++i)
        for (int j = 0; j < pc.kc; ++j) {
            const double want = tap(i, j);
            precise double got = BufF64(pc.u).v[i] * BufF64(pc.v).v[j];
            precise double diff = abs(got - want);
            precise double allowed = pc.rel_tol * abs(want);
            if (want == 0.0 ? got != 0.0 : diff > allowed) return false;
        }
    return true;
}

void main() {
    const bool separable = rank1();
    BufU32 a = BufU32(pc.args);
    a.v[0] = separable ? 0u : pc.direct_x;
    a.v[1] = pc.direct_y;
    a.v[2] = pc.direct_z;
    a.v[3] = separable ? pc.column_x : 0u;
    a.v[4] = pc.column_y;
    a.v[5] = pc.direct_z;
    a.v[6] = separable ? pc.row_x : 0u;
    a.v[7] = pc.row_y;
    a.v[8] = pc.direct_z;
}
