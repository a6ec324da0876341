// SPDX-License-Identifier: Apache-2.0
// First pass of the upright integral image in the CPU reference's order,
// cumsum(P, 1): the running sums down each column of the (padded) plane P
// into rows 1..pm of the table J ((pm+1) x (pn+1) doubles). One invocation
// per column, rows in order; invocation 0 writes the zero first column, every
// invocation the zero first row of its column. Lanes read neighbouring
// columns of one row at a time (contiguous), and each invocation loads the
// next batch of BATCH rows before it adds the current one, so that the loads
// overlap the chain of dependent additions. Every loop over a batch has the
// fixed trip count BATCH and is unrolled, so that the batches are indexed by
// constants and stay in registers (a run-time index puts them in memory).
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

const int BATCH = 32;

void load_batch(int r0, int ac, inout double v[BATCH]) {
    [[unroll]] for (int i = 0; i < BATCH; ++i) {
        const int r = r0 + i;
        v[i] = r < pc.pm ? padded_value(pc.a, pc.n, border(r - pc.top, pc.m), ac, pc.pad) : 0.0;
    }
}

void main() {
    const int c = int(linear_group() * gl_WorkGroupSize.x + gl_LocalInvocationID.x);
    const int stride = pc.pn + 1;
    if (c > pc.pn) return;
    BufF64 J = BufF64(pc.j);
    if (c == 0) {
        for (int r = 0; r <= pc.pm; ++r) J.v[r * stride] = 0.0;
        return;
    }
    J.v[c] = 0.0;
    const int ac = border(c - 1 - pc.left, pc.n);
    double cur[BATCH], next[BATCH];
    load_batch(0, ac, cur);
    precise double acc = 0.0;
    for (int r0 = 0; r0 < pc.pm; r0 += BATCH) {
        if (r0 + BATCH < pc.pm) load_batch(r0 + BATCH, ac, next);
        const int rows = min(BATCH, pc.pm - r0);
        [[unroll]] for (int i = 0; i < BATCH; ++i) {
            if (i < rows) {
                acc = acc + cur[i];
                J.v[(r0 + i + 1) * stride + c] = acc;
            }
        }
        [[unroll]] for (int i = 0; i < BATCH; ++i) cur[i] = next[i];
    }
}
