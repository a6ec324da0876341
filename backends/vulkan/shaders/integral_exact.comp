// SPDX-License-Identifier: Apache-2.0
// The upright integral image when every partial sum is an exact integer in
// double (integer and logical classes short of 2^53), so that any order of
// the additions gives the CPU reference's table. Three passes over chunks of
// CHUNK rows of the padded plane P (integral.glsl):
//   PASS 0: sums(k, c), the sum of chunk k of column c (an invocation each);
//   PASS 1: in place, the exclusive running sums of sums(., c) down each
//           column, a 32 x 8 work group per 32 columns (each of its 8 rows of
//           invocations owns a run of chunks);
//   PASS 2: a work group per chunk walks its rows across the width in
//           segments of 4 columns per invocation: each row of P is added to
//           the column carries, and a work-group scan (shared memory) of
//           those, plus the row's carry from the segments before, is the row
//           of J. Row 0 and column 0 of J are zero.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "integral.glsl"

layout(constant_id = 6) const int PASS = 0;

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t sums;
    uint64_t j;
    double pad;
    int m, n, pm, pn, top, left, chunks;
} pc;

const int CHUNK = 8, ITEMS = 4, MAX_GROUP = 256;

shared double part[8][33];
shared double scan_buf[2][MAX_GROUP];

void chunk_sums() {
    const int i = int(linear_group() * gl_WorkGroupSize.x + gl_LocalInvocationID.x);
    if (i >= pc.chunks * pc.pn) return;
    const int k = i / pc.pn, c = i - k * pc.pn;
    const int ac = border(c - pc.left, pc.n);
    double v[CHUNK];
    for (int q = 0; q < CHUNK; ++q) {
        const int r = k * CHUNK + q;
        v[q] = r < pc.pm ? padded_value(pc.a, pc.n, border(r - pc.top, pc.m), ac, pc.pad) : 0.0;
    }
    double s = 0.0;
    for (int q = 0; q < CHUNK; ++q) s += v[q];
    BufF64(pc.sums).v[i] = s;
}

void chunk_carries() {
    const int x = int(gl_LocalInvocationID.x), y = int(gl_LocalInvocationID.y);
    const int c = int(linear_group()) * 32 + x;
    const int per = (pc.chunks + 7) / 8;
    const int k0 = y * per, k1 = min(pc.chunks, k0 + per);
    BufF64 S = BufF64(pc.sums);
    const bool live = c < pc.pn;
    double s = 0.0;
    if (live)
        for (int k = k0; k < k1; ++k) s += S.v[k * pc.pn + c];
    part[y][x] = s;
    barrier();
    if (y == 0) {
        double run = 0.0;
        for (int q = 0; q < 8; ++q) {
            const double t = part[q][x];
            part[q][x] = run;
            run += t;
        }
    }
    barrier();
    double run = part[y][x];
    if (live)
        for (int k = k0; k < k1; ++k) {
            const double t = S.v[k * pc.pn + c];
            S.v[k * pc.pn + c] = run;
            run += t;
        }
}

// Inclusive scan of x over the work group (Hillis-Steele in shared memory);
// total receives the group's sum. Every invocation must call it.
double group_scan(double x, out double total) {
    const int lane = int(gl_LocalInvocationID.x), width = int(gl_WorkGroupSize.x);
    scan_buf[0][lane] = x;
    barrier();
    int src = 0;
    for (int off = 1; off < width; off <<= 1) {
        double v = scan_buf[src][lane];
        if (lane >= off) v += scan_buf[src][lane - off];
        scan_buf[1 - src][lane] = v;
        src = 1 - src;
        barrier();
    }
    const double r = scan_buf[src][lane];
    total = scan_buf[src][width - 1];
    barrier();  // before the next scan writes scan_buf
    return r;
}

void exact_rows() {
    const int k = int(linear_group());
    if (k >= pc.chunks) return;  // (the whole group)
    const int lane = int(gl_LocalInvocationID.x), width = int(gl_WorkGroupSize.x);
    const int stride = pc.pn + 1, r0 = k * CHUNK;
    const int rows = min(CHUNK, pc.pm - r0);
    BufF64 J = BufF64(pc.j);
    BufF64 S = BufF64(pc.sums);
    if (lane < rows) J.v[(r0 + 1 + lane) * stride] = 0.0;
    if (k == 0)
        for (int c = lane; c <= pc.pn; c += width) J.v[c] = 0.0;
    int ar[CHUNK];
    double row_carry[CHUNK];
    for (int q = 0; q < CHUNK; ++q) {
        ar[q] = q < rows ? border(r0 + q - pc.top, pc.m) : -1;
        row_carry[q] = 0.0;
    }
    for (int s0 = 0; s0 < pc.pn; s0 += width * ITEMS) {
        const int cb = s0 + lane * ITEMS;
        int ac[ITEMS];
        double col[ITEMS];
        for (int t = 0; t < ITEMS; ++t) {
            const bool live = cb + t < pc.pn;
            ac[t] = live ? border(cb + t - pc.left, pc.n) : -1;
            col[t] = live ? S.v[k * pc.pn + cb + t] : 0.0;
        }
        // Every load of the segment first, then the dependent scans.
        double v[CHUNK][ITEMS];
        for (int q = 0; q < CHUNK; ++q)
            for (int t = 0; t < ITEMS; ++t)
                v[q][t] = (q < rows && cb + t < pc.pn) ? padded_value(pc.a, pc.n, ar[q], ac[t], pc.pad) : 0.0;
        for (int q = 0; q < rows; ++q) {
            double run[ITEMS];
            double acc = 0.0;
            for (int t = 0; t < ITEMS; ++t) {
                col[t] += v[q][t];
                acc += col[t];
                run[t] = acc;
            }
            double total;
            const double before = group_scan(acc, total) - acc + row_carry[q];
            for (int t = 0; t < ITEMS; ++t)
                if (cb + t < pc.pn) J.v[(r0 + q + 1) * stride + 1 + cb + t] = run[t] + before;
            row_carry[q] += total;
        }
    }
}

void main() {
    if (PASS == 0) chunk_sums();
    else if (PASS == 1) chunk_carries();
    else exact_rows();
}
