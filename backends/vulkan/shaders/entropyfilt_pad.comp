// SPDX-License-Identifier: Apache-2.0
// ipt.entropyfilt, first pass: every plane binned once, as im2uint8 converts
// it (logical: 0 and 1), into a symmetrically padded copy. Element (i, j) of
// a padded plane is the bin at (i - orow, j - ocol) of the image plane, so
// the window of output (r, c) starts at (r, c) (entropyfilt.comp).
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "ipt_math.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t padded;  // uint8
    int rows, cols;
    int prows, pcols;
    int orow, ocol;
    int n;  // padded elements, all planes
} pc;

// round(255 x) of a floating element (the product in the class of x), half
// away from zero, saturated, NaN to 0: im2uint8's rule.
uint scaled_float(int i) {
    precise double p;
    if (DT == DT_SINGLE) {
        p = f32_bits_to_double(BufU32(pc.a).v[i]) * 255.0;  // exact
        p = f32_bits_to_double(double_to_f32_bits(p));       // the single product
    } else {
        p = BufF64(pc.a).v[i] * 255.0;
    }
    return uint(saturate_round(p, 0.0, 255.0));
}

// Bin of element i; x/257 is never a tie, so round(x/257) = (x+128)/257.
uint bin_of(int i) {
    switch (DT) {
    case DT_LOGICAL: return uint(BufU8(pc.a).v[i]) != 0u ? 1u : 0u;
    case DT_UINT8: return uint(BufU8(pc.a).v[i]);
    case DT_UINT16: return (uint(BufU16(pc.a).v[i]) + 128u) / 257u;
    case DT_INT16: return (uint(int(BufI16(pc.a).v[i]) + 32768) + 128u) / 257u;
    default: return scaled_float(i);
    }
}

void main() {
    const int group = int(linear_group());
    const int width = int(gl_WorkGroupSize.x);
    for (int k = 0; k < int(PER_INV); ++k) {
        const int i = (group * int(PER_INV) + k) * width + int(gl_LocalInvocationID.x);
        if (i >= pc.n) return;
        const int plane_size = pc.prows * pc.pcols;
        const int plane = i / plane_size;
        const int rest = i - plane * plane_size;
        const int pi = rest / pc.pcols, pj = rest - pi * pc.pcols;
        const int r = symmetric_index(pi - pc.orow, pc.rows), c = symmetric_index(pj - pc.ocol, pc.cols);
        BufU8(pc.padded).v[i] = uint8_t(bin_of(plane * pc.rows * pc.cols + r * pc.cols + c));
    }
}
