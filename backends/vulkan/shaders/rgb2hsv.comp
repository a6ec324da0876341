// SPDX-License-Identifier: Apache-2.0
// ipt.rgb2hsv: one invocation per pixel; common/colour.hpp's rgb_to_hsv,
// integer values read as double(x)/255 or double(x)/65535; uint8 through
// the equivalent form with fewer divisions (hsv_of_bytes).
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "colour.glsl"

layout(push_constant) uniform Push {
    uint64_t src, dst;
    int pixels, pixel_step, plane;
} pc;

// x/255 of a byte, correctly rounded, without a division: the binary
// expansion of x/255 is x's eight bits repeated, and the first 64 of them,
// converted to double (correctly rounded) and scaled by 2^-64, give the
// quotient for all 256 bytes (the rgb2hsv uint8 host test checks each).
double byte_unit(uint x) { return ldexp(double(uint64_t(x) * 0x0101010101010101UL), -64); }

// common/colour.hpp's rgb_to_hsv_u8: the formula's bits with three divisions
// where it has up to eight (a lane runs every branch another lane takes):
// the comparisons on the bytes, the hue's numerator and offset chosen before
// its one division, grey and black without arithmetic.
void hsv_of_bytes(uint R, uint G, uint B, out double h, out double s, out double v) {
    const double r = byte_unit(R), g = byte_unit(G), b = byte_unit(B);
    const uint hi = max(max(R, G), B), lo = min(min(R, G), B);
    v = hi == R ? r : (hi == G ? g : b);
    h = 0.0;
    s = 0.0;
    if (hi == lo) return;
    precise double d = v - (lo == R ? r : (lo == G ? g : b));
    precise double num = B == hi ? r - g : (G == hi ? b - r : g - b);
    precise double q = num / d;
    precise double hue = B == hi ? 4.0 + q : (G == hi ? 2.0 + q : q);
    hue = hue / 6.0;
    if (hue < 0.0) hue = hue + 1.0;
    h = hue;
    s = d / v;
}

double unit_value(int i) {
    const double x = load_d(pc.src, IN_DT, i);
    if (IN_DT == DT_UINT8) { precise double u = x / 255.0; return u; }
    if (IN_DT == DT_UINT16) { precise double u = x / 65535.0; return u; }
    return x;
}

void main() {
    const int group = int(linear_group());
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    for (int k = 0; k < int(PER_INV); ++k) {
        const int p = (group * int(PER_INV) + k) * width + lane;
        if (p >= pc.pixels) return;
        const int i = p * pc.pixel_step;
        if (IN_DT == DT_UINT8) {
            double h, s, v;
            hsv_of_bytes(uint(BufU8(pc.src).v[i]), uint(BufU8(pc.src).v[i + pc.plane]),
                         uint(BufU8(pc.src).v[i + 2 * pc.plane]), h, s, v);
            store_d(pc.dst, OUT_DT, i, h);
            store_d(pc.dst, OUT_DT, i + pc.plane, s);
            store_d(pc.dst, OUT_DT, i + 2 * pc.plane, v);
            continue;
        }
        const double r = unit_value(i), g = unit_value(i + pc.plane), b = unit_value(i + 2 * pc.plane);
        const double v = cmax(cmax(r, g), b);
        precise double d = fr(v - cmin(cmin(r, g), b));
        const bool grey = same(d, 0.0);
        const double div = grey ? 1.0 : d;
        precise double hue = 0.0;
        if (same(r, v)) hue = fr(fr(g - b) / div);
        if (same(g, v)) hue = fr(2.0 + fr(fr(b - r) / div));
        if (same(b, v)) hue = fr(4.0 + fr(fr(r - g) / div));
        hue = fr(hue / 6.0);
        if (!is_nan_d(hue) && hue < 0.0) hue = fr(hue + 1.0);
        precise double h = (grey ? 0.0 : 1.0) * hue;
        precise double s = 0.0;
        if (is_nan_d(v) || v != 0.0) s = fr(((grey ? 0.0 : 1.0) * div) / v);
        store_d(pc.dst, OUT_DT, i, h);
        store_d(pc.dst, OUT_DT, i + pc.plane, s);
        store_d(pc.dst, OUT_DT, i + 2 * pc.plane, v);
    }
}
