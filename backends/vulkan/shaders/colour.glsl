// SPDX-License-Identifier: Apache-2.0
// Colour-space formulas of common/colour.hpp in GLSL, for rgb2hsv, hsv2rgb,
// rgb2ycbcr and ycbcr2rgb. Arithmetic is in double; with SINGLE != 0 every
// operation's result is rounded to single (fr()), which gives the single
// operation's result exactly (+, -, *, / of singles rounded twice are rounded
// once) without single arithmetic, whose denormals some drivers flush.
// Every comparison tests NaN on the bits first: a driver may assume no NaN.
// Component c of pixel p is element p * PIXEL_STEP + c * plane, plane given
// by the push constants (an image's planes, or 1 for a c x 3 colormap).

layout(constant_id = 4) const int IN_DT = DT_DOUBLE;
layout(constant_id = 5) const int OUT_DT = DT_DOUBLE;
layout(constant_id = 6) const int SINGLE = 0;

double fr(double x) {
    if (SINGLE == 0) return x;
    return f32_bits_to_double(double_to_f32_bits(x));
}

// MATLAB's max and min of two values: a NaN operand is ignored.
double cmax(double a, double b) {
    if (is_nan_d(a)) return b;
    if (is_nan_d(b)) return a;
    return b > a ? b : a;
}
double cmin(double a, double b) {
    if (is_nan_d(a)) return b;
    if (is_nan_d(b)) return a;
    return b < a ? b : a;
}
bool same(double a, double b) { return !is_nan_d(a) && !is_nan_d(b) && a == b; }

#ifdef COLOUR_AFFINE
// rgb2ycbcr and ycbcr2rgb: out_c = m[c][0]*x0 + m[c][1]*x1 + m[c][2]*x2 +
// offset[c] in double from left to right, converted once to OUT_DT; with
// CLAMP != 0 floating results are limited to [0, 1] (NaN to 0). The twelve
// coefficients (row-major m, then offset) are at pc.coef.
layout(constant_id = 7) const int CLAMP = 0;

layout(push_constant) uniform Push {
    uint64_t src, dst, coef;
    int pixels, pixel_step, plane;
} pc;

double affine(int c, double x0, double x1, double x2) {
    BufF64 m = BufF64(pc.coef);
    precise double acc = m.v[3 * c] * x0;
    acc = acc + m.v[3 * c + 1] * x1;
    acc = acc + m.v[3 * c + 2] * x2;
    acc = acc + m.v[9 + c];
    return acc;
}

void colour_affine_main() {
    const int group = int(linear_group());
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    for (int q = 0; q < int(PER_INV); ++q) {
        const int p = (group * int(PER_INV) + q) * width + lane;
        if (p >= pc.pixels) return;
        const int i = p * pc.pixel_step;
        const double x0 = load_d(pc.src, IN_DT, i), x1 = load_d(pc.src, IN_DT, i + pc.plane),
                     x2 = load_d(pc.src, IN_DT, i + 2 * pc.plane);
        for (int c = 0; c < 3; ++c) {
            double y = affine(c, x0, x1, x2);
            if (CLAMP != 0) y = cmin(cmax(fr(y), 0.0), 1.0);
            store_d(pc.dst, OUT_DT, i + c * pc.plane, y);
        }
    }
}
#endif
