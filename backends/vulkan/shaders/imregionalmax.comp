// SPDX-License-Identifier: Apache-2.0
// ipt.imregionalmax by connected-component labelling of the plateaus
// (lock-free union-find: Playne and Hawick, 2018), in five passes over the
// pixels (PASS):
//   0: label(p) = p
//   1: union p with its equal-valued forward neighbours (conn 4 or 8)
//   2: label(p) = root(p)
//   3: a pixel with a strictly higher neighbour flags its plateau's root
//   4: BW(p) = no flag on root(p), and p is not NaN
// No pass depends on how many iterations a flood fill would need, so the
// host records them all at once and nothing waits. NaN pixels are never
// maxima and never disqualify a neighbour (no comparison with NaN holds), as
// in the CPU reference.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;
layout(constant_id = 5) const int CONN = 8;
layout(constant_id = 6) const int PASS = 0;

layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer Labels { uint v[]; };

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t labels;  // uint per pixel
    uint64_t flags;   // uint per pixel (indexed by root), zeroed
    uint64_t bw;
    int rows, cols;
} pc;

double value(int i) { return load_d(pc.a, DT, i); }

uint find_root(uint x) {
    Labels l = Labels(pc.labels);
    uint parent = l.v[x];
    while (parent != x) {
        x = parent;
        parent = l.v[x];
    }
    return x;
}

void unite(uint a, uint b) {
    Labels l = Labels(pc.labels);
    bool done = false;
    while (!done) {
        a = find_root(a);
        b = find_root(b);
        if (a < b) {
            const uint old = atomicMin(l.v[b], a);
            done = old == b;
            b = old;
        } else if (b < a) {
            const uint old = atomicMin(l.v[a], b);
            done = old == a;
            a = old;
        } else {
            done = true;
        }
    }
}

void main() {
    const int c = int(gl_GlobalInvocationID.x);
    const int r = int(gl_GlobalInvocationID.y);
    if (c >= pc.cols || r >= pc.rows) return;
    const int p = r * pc.cols + c;
    if (PASS == 0) {
        Labels(pc.labels).v[p] = uint(p);
        return;
    }
    if (PASS == 2) {
        Labels(pc.labels).v[p] = find_root(uint(p));
        return;
    }
    if (PASS == 4) {
        const bool maximum = !is_nan_d(value(p)) && BufU32(pc.flags).v[Labels(pc.labels).v[p]] == 0u;
        BufU8(pc.bw).v[p] = uint8_t(maximum ? 1u : 0u);
        return;
    }
    const double v = value(p);
    if (is_nan_d(v)) return;
    for (int dr = -1; dr <= 1; ++dr)
        for (int dc = -1; dc <= 1; ++dc) {
            if (dr == 0 && dc == 0) continue;
            if (CONN == 4 && dr != 0 && dc != 0) continue;
            const int rr = r + dr, cc = c + dc;
            if (rr < 0 || rr >= pc.rows || cc < 0 || cc >= pc.cols) continue;
            const int q = rr * pc.cols + cc;
            if (PASS == 1) {
                // Forward neighbours only: each pair is united once.
                if (q > p && value(q) == v) unite(uint(p), uint(q));
            } else if (value(q) > v) {
                BufU32(pc.flags).v[Labels(pc.labels).v[p]] = 1u;
                return;
            }
        }
}
