// SPDX-License-Identifier: Apache-2.0
// ipt.normxcorr2 (backends/common/ops/normxcorr2.hpp), one pass per MODE, in
// the reference's order and without fused multiply-adds (`precise`,
// correctly rounded division and square root) so that the "no variance"
// decision is the reference's:
//   0: one work group, A's minimum and whether every value is finite;
//   1: per output, the correlation and window sums of the shifted A, the
//      numerator into C and the denominator into scratch;
//   2: one work group, the largest denominator;
//   3: per output, num / denom where denom > tol, else 0, and 0 where
//      |C| - 1 > sqrt(eps(1)).
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "ipt_math.glsl"

layout(constant_id = 4) const int MODE = 0;
layout(constant_id = 5) const int DT = DT_DOUBLE;  // of A

layout(push_constant) uniform Push {
    uint64_t a;       // A
    uint64_t c;       // C (numerators, then coefficients)
    uint64_t denom;   // out_rows*out_cols doubles
    uint64_t t;       // m*n doubles, shifted template
    uint64_t result;  // 2 doubles (modes 0 and 2)
    double shift, sum_t, denom_t, mn, tol;
    int m, n, p, q, out_rows, out_cols;
} pc;

shared double red[gl_WorkGroupSize.x];
shared int fin[gl_WorkGroupSize.x];

double a_at(int i) {
    precise double v = load_d(pc.a, DT, i) - pc.shift;
    return v;
}

void reduce_group(int lane, int width, bool is_min) {
    barrier();
    for (int s = width / 2; s > 0; s /= 2) {
        if (lane < s) {
            const double o = red[lane + s];
            if (is_min ? o < red[lane] : o > red[lane]) red[lane] = o;
            fin[lane] = fin[lane] & fin[lane + s];
        }
        barrier();
    }
}

void main() {
    const int width = int(gl_WorkGroupSize.x);
    const int lane = int(gl_LocalInvocationID.x);
    const int total = pc.out_rows * pc.out_cols;
    if (MODE == 0) {
        double lo = packDouble2x32(uvec2(0u, 0x7FF00000u));  // +Inf
        int f = 1;
        for (int i = lane; i < pc.p * pc.q; i += width) {
            const double v = load_d(pc.a, DT, i);
            if (is_nan_d(v) || isinf(v)) f = 0;
            if (v < lo) lo = v;
        }
        red[lane] = lo;
        fin[lane] = f;
        reduce_group(lane, width, true);
        if (lane == 0) {
            BufF64(pc.result).v[0] = red[0];
            BufF64(pc.result).v[1] = double(fin[0]);
        }
        return;
    }
    if (MODE == 2) {
        double hi = 0.0;
        for (int i = lane; i < total; i += width) {
            const double d = BufF64(pc.denom).v[i];
            if (d > hi) hi = d;  // a NaN denominator is passed over, as the reference does
        }
        red[lane] = hi;
        fin[lane] = 1;
        reduce_group(lane, width, false);
        if (lane == 0) BufF64(pc.result).v[0] = red[0];
        return;
    }
    const int base = int(linear_group()) * int(PER_INV) * width + lane;
    for (int k = 0; k < int(PER_INV); ++k) {
        const int i = base + k * width;
        if (i >= total) return;
        if (MODE == 1) {
            const int r = i / pc.out_cols, col = i % pc.out_cols;
            precise double x = 0.0, s1 = 0.0, s2 = 0.0;
            for (int ti = 0; ti < pc.m; ++ti) {
                const int y = r - (pc.m - 1) + ti;
                if (y < 0 || y >= pc.p) continue;
                for (int tj = 0; tj < pc.n; ++tj) {
                    const int xc = col - (pc.n - 1) + tj;
                    if (xc < 0 || xc >= pc.q) continue;
                    const double v = a_at(y * pc.q + xc);
                    precise double tv = BufF64(pc.t).v[ti * pc.n + tj] * v;
                    precise double vv = v * v;
                    x = x + tv;
                    s1 = s1 + v;
                    s2 = s2 + vv;
                }
            }
            precise double sq = s1 * s1;
            precise double diff = s2 - div_rn(sq, pc.mn);
            const double denom_a = diff > 0.0 ? sqrt_rn(diff) : 0.0;
            precise double den = pc.denom_t * denom_a;
            precise double st = s1 * pc.sum_t;
            precise double num = x - div_rn(st, pc.mn);
            BufF64(pc.c).v[i] = num;
            BufF64(pc.denom).v[i] = den;
        } else {
            const double den = BufF64(pc.denom).v[i];
            double v = 0.0;
            if (den > pc.tol) {
                v = div_rn(BufF64(pc.c).v[i], den);
                precise double over = abs(v) - 1.0;
                if (over > 1.0 / 67108864.0) v = 0.0;
            }
            BufF64(pc.c).v[i] = v;
        }
    }
}
