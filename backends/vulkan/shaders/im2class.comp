// SPDX-License-Identifier: Apache-2.0
// ipt.im2double, im2single, im2uint8, im2uint16 and im2int16: each element of
// I converted to the class OUT_DT by MATLAB's image scaling, the rules of
// backends/common/class_scaling.hpp (docs/matlab-semantics.md#image-scaling):
// integers onto [0,1] by one correctly rounded division (div_rn: Vulkan's
// division may be approximate); floating values to integers as
// round(top * x) with the product in the class of x, half away from zero,
// saturated, NaN to 0. Single values are handled on their bits (NVIDIA flushes
// single denormals in arithmetic): a single product is the exact double
// product rounded once to single.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "ipt_math.glsl"

layout(constant_id = 4) const int IN_DT = DT_UINT8;
layout(constant_id = 5) const int OUT_DT = DT_DOUBLE;
// 1: uint8 to single or double through the host's table of the 256 results.
layout(constant_id = 6) const int LUT = 0;

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t z;
    uint64_t lut;
    int n;
} pc;

// round(top * x) for a floating input element, as an integer in [0, top].
uint scaled_float(int i, double top) {
    precise double p;
    if (IN_DT == DT_SINGLE) {
        p = f32_bits_to_double(BufU32(pc.a).v[i]) * top;  // exact: 24 + 16 bits
        p = f32_bits_to_double(double_to_f32_bits(p));     // the single product
    } else {
        p = BufF64(pc.a).v[i] * top;
    }
    return uint(saturate_round(p, 0.0, top));
}

// im2uint16 of element i.
uint to_uint16(int i) {
    switch (IN_DT) {
    case DT_LOGICAL: return uint(BufU8(pc.a).v[i]) != 0u ? 65535u : 0u;
    case DT_UINT8: return uint(BufU8(pc.a).v[i]) * 257u;
    case DT_UINT16: return uint(BufU16(pc.a).v[i]);
    case DT_INT16: return uint(int(BufI16(pc.a).v[i]) + 32768);
    default: return scaled_float(i, 65535.0);
    }
}

// im2uint8 of element i; x/257 is never a tie, so round(x/257) = (x+128)/257.
uint to_uint8(int i) {
    switch (IN_DT) {
    case DT_LOGICAL: return uint(BufU8(pc.a).v[i]) != 0u ? 255u : 0u;
    case DT_UINT8: return uint(BufU8(pc.a).v[i]);
    case DT_UINT16: return (uint(BufU16(pc.a).v[i]) + 128u) / 257u;
    case DT_INT16: return (uint(int(BufI16(pc.a).v[i]) + 32768) + 128u) / 257u;
    default: return scaled_float(i, 255.0);
    }
}

// im2int16 of element i: through the uint16 value, as MATLAB's im2int16.
int to_int16(int i) {
    if (IN_DT == DT_LOGICAL) return uint(BufU8(pc.a).v[i]) != 0u ? 32767 : -32768;
    if (IN_DT == DT_INT16) return int(BufI16(pc.a).v[i]);
    return int(to_uint16(i)) - 32768;
}

// im2double of element i (exact for single inputs).
double to_unit(int i) {
    switch (IN_DT) {
    case DT_LOGICAL: return uint(BufU8(pc.a).v[i]) != 0u ? 1.0 : 0.0;
    case DT_UINT8: return div_rn(double(uint(BufU8(pc.a).v[i])), 255.0);
    case DT_UINT16: return div_rn(double(uint(BufU16(pc.a).v[i])), 65535.0);
    case DT_INT16: return div_rn(double(int(BufI16(pc.a).v[i])) + 32768.0, 65535.0);
    case DT_SINGLE: return f32_bits_to_double(BufU32(pc.a).v[i]);
    default: return BufF64(pc.a).v[i];
    }
}

void convert(int i) {
    if (LUT != 0) {
        const uint v = uint(BufU8(pc.a).v[i]);
        if (OUT_DT == DT_SINGLE) BufU32(pc.z).v[i] = BufU32(pc.lut).v[v];
        else BufF64(pc.z).v[i] = BufF64(pc.lut).v[v];
        return;
    }
    switch (OUT_DT) {
    case DT_UINT8: BufU8(pc.z).v[i] = uint8_t(to_uint8(i)); break;
    case DT_UINT16: BufU16(pc.z).v[i] = uint16_t(to_uint16(i)); break;
    case DT_INT16: BufI16(pc.z).v[i] = int16_t(to_int16(i)); break;
    case DT_SINGLE:
        // A single input is copied as it is; otherwise the double value
        // rounded once to single (the correctly rounded single quotient).
        BufU32(pc.z).v[i] = IN_DT == DT_SINGLE ? BufU32(pc.a).v[i] : double_to_f32_bits(to_unit(i));
        break;
    default: BufF64(pc.z).v[i] = to_unit(i); break;
    }
}

void main() {
    const int group = int(linear_group());
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    for (int k = 0; k < int(PER_INV); ++k) {
        const int i = (group * int(PER_INV) + k) * width + lane;
        if (i >= pc.n) return;
        convert(i);
    }
}
