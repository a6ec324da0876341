// SPDX-License-Identifier: Apache-2.0
// ipt.radon: MATLAB's radonc, as a gather. Each invocation owns one bin j of
// one angle: the sub-pixels (four per nonzero pixel, at +-0.25, a quarter of
// its value each) whose projection t = x cos + y sin - rFirst has floor(t) = j
// (weight 1 - delta) or j - 1 (weight delta). For each row (or, for steep
// angles, each column) only the few columns whose sub-pixels can land there
// are visited; t is evaluated with the reference's own expression, so each
// sub-pixel is counted in exactly the bins it belongs to. No atomics on
// doubles; the order of the sum differs from the CPU's (within the
// catalogue's 64 eps bound).
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT = DT_DOUBLE;

layout(push_constant) uniform Push {
    uint64_t img;
    uint64_t trig;   // cos, sin per angle (host-computed, as the reference)
    uint64_t r;      // bins x angles, row-major
    double shift;    // rFirst
    int rows, cols, bins, angles;
    int x_origin, y_origin;
} pc;

double acc = 0.0;
int target = 0;

void deposit(double quarter, double t) {
    const int k = int(t);  // t > 0: truncation is floor
    precise double delta = t - double(k);
    if (k == target) {
        precise double w = quarter * (1.0 - delta);
        acc = acc + w;
    } else if (k + 1 == target) {
        precise double w = quarter * delta;
        acc = acc + w;
    }
}

void main() {
    const int j = int(gl_GlobalInvocationID.x);
    const int angle = int(gl_GlobalInvocationID.y);
    if (j >= pc.bins || angle >= pc.angles) return;
    target = j;
    const double c = BufF64(pc.trig).v[2 * angle], s = BufF64(pc.trig).v[2 * angle + 1];
    // t in [j-1, j+1) <=> xpart + ypart in [lo, hi).
    const double lo = double(j - 1) + pc.shift, hi = double(j + 1) + pc.shift;
    const bool by_rows = abs(c) >= abs(s);
    const int outer_n = by_rows ? pc.rows : pc.cols;
    for (int u = 0; u < outer_n; ++u) {
        // The outer coordinate's two sub-positions.
        precise double base_u = by_rows ? double(pc.y_origin - u) * s : double(u - pc.x_origin) * c;
        precise double step_u = by_rows ? 0.25 * s : 0.25 * c;
        precise double part0 = base_u - step_u, part1 = base_u + step_u;
        // Inner positions whose sub-pixels can reach [lo, hi).
        const double slope = by_rows ? c : -s;  // d(inner part)/d(index)
        const double a0 = (lo - max(part0, part1)) / slope, a1 = (hi - min(part0, part1)) / slope;
        const double center = by_rows ? double(pc.x_origin) : double(pc.y_origin);
        int first = int(floor(min(a0, a1) + center)) - 2, last = int(ceil(max(a0, a1) + center)) + 2;
        const int inner_n = by_rows ? pc.cols : pc.rows;
        first = max(first, 0);
        last = min(last, inner_n - 1);
        for (int v = first; v <= last; ++v) {
            const int x = by_rows ? v : u, y = by_rows ? u : v;
            const double value = load_d(pc.img, DT, y * pc.cols + x);
            if (value == 0.0) continue;
            precise double quarter = value * 0.25;
            precise double xb = double(x - pc.x_origin) * c;
            precise double x0 = xb - 0.25 * c, x1 = xb + 0.25 * c;
            precise double yb = double(pc.y_origin - y) * s;
            precise double y0 = yb - 0.25 * s, y1 = yb + 0.25 * s;
            precise double t00 = x0 + y0 - pc.shift;
            precise double t10 = x1 + y0 - pc.shift;
            precise double t01 = x0 + y1 - pc.shift;
            precise double t11 = x1 + y1 - pc.shift;
            deposit(quarter, t00);
            deposit(quarter, t10);
            deposit(quarter, t01);
            deposit(quarter, t11);
        }
    }
    BufF64(pc.r).v[j * pc.angles + angle] = acc;
}
