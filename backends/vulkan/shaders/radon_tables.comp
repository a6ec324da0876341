// SPDX-License-Identifier: Apache-2.0
// ipt.radon, bin owners (radon_owners.comp), second pass: per angle the
// reference's sub-pixel coordinate tables, x cos and y sin, each sorted by
// value. The walked ("inner") dimension is the one whose factor is larger in
// magnitude; an angle's entries are its inner table (2 x inner pixels) then
// its outer table (2 x outer pixels), 2 (rows + cols) doubles in all.
// Sub-pixel s (0: -0.25, 1: +0.25) of pixel p has the coordinate
// (p - x_origin) -/+ 0.25 along x and (y_origin - p) -/+ 0.25 along y, so
// coordinates ascend with p along x and descend along y; a negative factor
// reverses the order. The products are the reference's, bit for bit.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(push_constant) uniform Push {
    uint64_t trig, tables;  // trig: cos, sin per angle
    int rows, cols, angles, x_origin, y_origin;
} pc;

void main() {
    const int e = int(gl_GlobalInvocationID.x), angle = int(gl_GlobalInvocationID.y);
    const int per_angle = 2 * (pc.rows + pc.cols);
    if (e >= per_angle || angle >= pc.angles) return;
    const double cs = BufF64(pc.trig).v[2 * angle], sn = BufF64(pc.trig).v[2 * angle + 1];
    const bool inner_along_x = abs(cs) >= abs(sn);
    const int inner_n = 2 * (inner_along_x ? pc.cols : pc.rows);
    const bool is_inner = e < inner_n;
    const bool along_x = is_inner == inner_along_x;
    const int pixels = along_x ? pc.cols : pc.rows;
    const int i = is_inner ? e : e - inner_n;
    const double factor = along_x ? cs : sn;
    const int n = 2 * pixels;
    const int coord = factor >= 0.0 ? i : n - 1 - i;  // index in increasing coordinate
    const int p = along_x ? (coord >> 1) : pixels - 1 - (coord >> 1);
    precise double quarter_step = 0.25 * factor;
    precise double base = along_x ? double(p - pc.x_origin) * factor : double(pc.y_origin - p) * factor;
    precise double value = (coord & 1) != 0 ? base + quarter_step : base - quarter_step;
    BufF64(pc.tables).v[angle * per_angle + e] = value;
}
