// First pass of the upright integral image, cumsum(P, 1): the running sums
// down each column of the (padded) plane P into rows 1..pm of the table J
// ((pm+1) x (pn+1) doubles). One invocation per column, rows in order (the
// CPU reference's order); invocation 0 writes the zero first column, every
// invocation the zero first row of its column. Lanes read neighbouring
// columns of one row at a time, so the loads and stores are contiguous.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT = DT_DOUBLE;
// Border rule of P outside the image: 1 constant, 2 symmetric, 3 replicate, 4 circular.
layout(constant_id = 5) const int PAD = 3;

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t j;
    double pad;
    int m, n, pm, pn, top, left;
} pc;

int border(int i, int n) {
    if (i >= 0 && i < n) return i;
    if (PAD == 2) return symmetric_index(i, n);
    if (PAD == 3) return clamp(i, 0, n - 1);
    if (PAD == 4) return floor_mod(i, n);
    return -1;
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
    precise double acc = 0.0;
    for (int r = 0; r < pc.pm; ++r) {
        const int ar = border(r - pc.top, pc.m);
        const double v = (ar < 0 || ac < 0) ? pc.pad : load_d(pc.a, DT, ar * pc.n + ac);
        acc = acc + v;
        J.v[(r + 1) * stride + c] = acc;
    }
}
