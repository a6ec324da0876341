// ipt.entropyfilt: J(p) = -sum over the distinct bins b of the neighbourhood
// of q log2 q, q = count(b)/n, with each value binned as im2uint8 converts it
// (logical: 0 and 1) and read through symmetric padding
// (backends/common/ops/entropyfilt.hpp). Each bin's count is taken at its
// first member by a pass over the members (n^2 bin reads per pixel, no
// histogram storage). Each invocation computes PER_INV pixels of a column;
// work group z is the channel plane.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "ipt_math.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;

layout(buffer_reference, std430, buffer_reference_align = 8) buffer Offsets { ivec2 v[]; };

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t j;
    uint64_t offsets;  // ivec2 (dr, dc)
    int rows, cols, count;
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

uint member_bin(int plane, int r, int c, int m) {
    const ivec2 d = Offsets(pc.offsets).v[m];
    return bin_of(plane + symmetric_index(r + d.x, pc.rows) * pc.cols + symmetric_index(c + d.y, pc.cols));
}

void main() {
    const int c = int(gl_GlobalInvocationID.x);
    const int r0 = int(gl_WorkGroupID.y * gl_WorkGroupSize.y * PER_INV + gl_LocalInvocationID.y);
    const int plane = int(gl_WorkGroupID.z) * pc.rows * pc.cols;
    if (c >= pc.cols) return;
    const double n = double(pc.count);
    const double inv_ln2 = 1.44269504088896340736;
    for (int k = 0; k < int(PER_INV); ++k) {
        const int r = r0 + k * int(gl_WorkGroupSize.y);
        if (r >= pc.rows) return;
        precise double e = 0.0;
        for (int m = 0; m < pc.count; ++m) {
            const uint b = member_bin(plane, r, c, m);
            int count = 0;
            bool first = true;
            for (int q = 0; q < pc.count; ++q) {
                if (member_bin(plane, r, c, q) != b) continue;
                if (q < m) {
                    first = false;
                    break;
                }
                ++count;
            }
            if (!first) continue;
            precise double p = div_rn(double(count), n);
            e -= p * (log_d(p) * inv_ln2);
        }
        BufF64(pc.j).v[plane + r * pc.cols + c] = e;
    }
}
