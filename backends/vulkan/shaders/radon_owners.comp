// SPDX-License-Identifier: Apache-2.0
// ipt.radon, bin owners: MATLAB's four-sub-pixel projection with every
// sub-pixel projected once, by the invocation of its bin. A sub-pixel with
// value v/4 at t = x cos + y sin - rFirst gives (1-delta) v/4 to bin
// b = floor(t) and delta v/4 to bin b+1. An invocation owns (bin b, angle):
// it visits exactly the sub-pixels with floor(t) = b and keeps two sums, its
// own bin's (1-delta) shares and the delta shares of bin b+1; the work group
// adds each bin's own sum to its left neighbour's. Every product is the
// reference's bit for bit (same tables, same t, delta = t - b exact); only
// each bin's summation order differs. No atomics: every run gives the same
// bits.
//
// The lines (sub-rows or sub-columns of the outer dimension) that reach b
// form one range of the outer table (two binary searches); along a line the
// inner table is sorted, consecutive sub-pixels are at most 0.5 apart in t,
// and walking the lines from the largest t down, the first sub-pixel of b
// only moves forward. The angle's tables (radon_tables.comp) sit in shared
// memory when TABLE (their length) fits, else they are read from memory.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int TABLE = 1;  // doubles staged in shared memory; 0: read from the buffer

layout(push_constant) uniform Push {
    uint64_t quarter, quarter_t, trig, tables, r;
    double shift;  // rFirst
    int rows, cols, bins, angles;
} pc;

shared double staged[TABLE > 0 ? TABLE : 1];
shared double next_sums[gl_WorkGroupSize.x];

int angle;
int per_angle;

double table(int i) {
    if (TABLE > 0) return staged[i];
    return BufF64(pc.tables).v[angle * per_angle + i];
}

// t as the reference forms it: (x cos + y sin) - rFirst (the sum commutes exactly).
double t_of(double inner_value, double outer_value) {
    precise double t = (inner_value + outer_value) - pc.shift;
    return t;
}

// The first m in [lo, hi) with t_of(table(base + m), other) >= target, the
// entries ordered so that t grows with m (hi if none). t_of's sum commutes
// exactly, so `other` may be an inner or an outer value.
int first_reaching(int lo, int hi, int base, double other, double target) {
    while (lo < hi) {
        const int mid = (lo + hi) >> 1;
        if (t_of(table(base + mid), other) >= target) hi = mid; else lo = mid + 1;
    }
    return lo;
}

void main() {
    angle = int(gl_WorkGroupID.y);
    per_angle = 2 * (pc.rows + pc.cols);
    const int lanes = int(gl_WorkGroupSize.x);
    const int lid = int(gl_LocalInvocationID.x);
    if (TABLE > 0) {
        for (int i = lid; i < per_angle; i += lanes) staged[i] = BufF64(pc.tables).v[angle * per_angle + i];
        barrier();
    }
    const double cs = BufF64(pc.trig).v[2 * angle], sn = BufF64(pc.trig).v[2 * angle + 1];
    const bool inner_along_x = abs(cs) >= abs(sn);
    const int inner_pixels = inner_along_x ? pc.cols : pc.rows, outer_pixels = inner_along_x ? pc.rows : pc.cols;
    const int inner_n = 2 * inner_pixels, outer_n = 2 * outer_pixels;
    // Table entry e's pixel: reversed where the coordinate descends (y) or
    // the factor is negative (see radon_tables.comp).
    const bool inner_flip = (inner_along_x ? cs : sn) < 0.0 != !inner_along_x;
    const bool outer_flip = (inner_along_x ? sn : cs) < 0.0 != inner_along_x;
    // Bins per group: lanes - 1; lane 0 redoes the bin left of the group for its "next" sum.
    const int b = int(gl_WorkGroupID.x) * (lanes - 1) - 1 + lid;
    double own = 0.0, next = 0.0;
    if (b >= 0 && b < pc.bins) {
        const double fb = double(b), fb1 = double(b + 1);
        const double in_first = table(0), in_last = table(inner_n - 1);
        // Lines with a sub-pixel in [b, b+1): the largest t reaches b, the smallest is below b+1.
        const int u_begin = first_reaching(0, outer_n, inner_n, in_last, fb);
        const int u_end = first_reaching(u_begin, outer_n, inner_n, in_first, fb1);
        if (u_begin < u_end) {
            // Rows of `lines` are outer pixels, columns inner pixels.
            const uint64_t lines = inner_along_x ? pc.quarter : pc.quarter_t;
            const double o_last = table(inner_n + u_end - 1);
            int w_first = first_reaching(0, inner_n, 0, o_last, fb);
            // The next table entries are read one step ahead, so that their
            // latency overlaps the current step.
            double o_next = o_last;
            for (int u = u_end - 1; u >= u_begin; --u) {
                const double o = o_next;
                if (u > u_begin) o_next = table(inner_n + u - 1);
                const int outer_pixel = outer_flip ? outer_pixels - 1 - (u >> 1) : (u >> 1);
                const int line = outer_pixel * inner_pixels;
                double in_next = w_first < inner_n ? table(w_first) : 0.0;
                for (int w = w_first; w < inner_n; ++w) {
                    const double t = t_of(in_next, o);
                    if (t >= fb1) break;
                    if (w + 1 < inner_n) in_next = table(w + 1);
                    if (t < fb) {  // t falls line by line: the first sub-pixel of b moves right
                        w_first = w + 1;
                        continue;
                    }
                    precise double delta = t - fb;  // exact: b <= t < b+1 (Sterbenz)
                    const int inner_pixel = inner_flip ? inner_pixels - 1 - (w >> 1) : (w >> 1);
                    const double v = BufF64(lines).v[line + inner_pixel];
                    precise double share_own = v * (1.0 - delta);
                    precise double share_next = v * delta;
                    own = own + share_own;
                    next = next + share_next;
                }
            }
        }
    }
    next_sums[lid] = next;
    barrier();
    if (lid > 0 && b < pc.bins) BufF64(pc.r).v[b * pc.angles + angle] = own + next_sums[lid - 1];
}
