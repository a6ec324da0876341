// SPDX-License-Identifier: Apache-2.0
// ipt.hsv2rgb: one invocation per pixel; common/colour.hpp's hsv_to_rgb (the
// sextant flags multiply every term, so NaN and Inf propagate as in MATLAB).
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "colour.glsl"

layout(push_constant) uniform Push {
    uint64_t src, dst;
    int pixels, pixel_step, plane;
} pc;

// 6 * eps(double), as the class of the computation holds it.
const double kSixEps = 1.3322676295501878e-15lf;

void main() {
    const int group = int(linear_group());
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    for (int q = 0; q < int(PER_INV); ++q) {
        const int p = (group * int(PER_INV) + q) * width + lane;
        if (p >= pc.pixels) return;
        const int i = p * pc.pixel_step;
        const double h = load_d(pc.src, IN_DT, i), s = load_d(pc.src, IN_DT, i + pc.plane),
                     v = load_d(pc.src, IN_DT, i + 2 * pc.plane);
        precise double h6 = fr(6.0 * h);
        precise double k = trunc(fr(h6 - fr(kSixEps)));
        precise double f = fr(h6 - k);
        precise double t = fr(1.0 - s);
        precise double n = fr(1.0 - fr(s * f));
        precise double pp = fr(1.0 - fr(s * fr(1.0 - f)));
        const double e0 = (same(k, 0.0) || same(k, 6.0)) ? 1.0 : 0.0;
        const double e1 = same(k, 1.0) ? 1.0 : 0.0;
        const double e2 = same(k, 2.0) ? 1.0 : 0.0;
        const double e3 = same(k, 3.0) ? 1.0 : 0.0;
        const double e4 = same(k, 4.0) ? 1.0 : 0.0;
        const double e5 = same(k, 5.0) ? 1.0 : 0.0;
        // Products by 0 or 1 and sums with one nonzero term are exact: no fr() needed.
        precise double rr = e0 + e1 * n + e2 * t + e3 * t + e4 * pp + e5;
        precise double gg = e0 * pp + e1 + e2 + e3 * n + e4 * t + e5 * t;
        precise double bb = e0 * t + e1 * t + e2 * pp + e3 + e4 + e5 * n;
        precise double r = fr(v * rr);
        precise double g = fr(v * gg);
        precise double b = fr(v * bb);
        store_d(pc.dst, OUT_DT, i, r);
        store_d(pc.dst, OUT_DT, i + pc.plane, g);
        store_d(pc.dst, OUT_DT, i + 2 * pc.plane, b);
    }
}
