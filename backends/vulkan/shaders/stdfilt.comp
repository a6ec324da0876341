// SPDX-License-Identifier: Apache-2.0
// ipt.stdfilt: J(p) = sqrt(max(S2/(n-1) - S1^2/(n(n-1)), 0)) with S1, S2 the
// sums of I and I.^2 over the neighbourhood's offsets, read through
// symmetric padding, in double (backends/common/ops/stdfilt.hpp). A NaN
// variance (non-finite values) gives 0, as MATLAB's max does; n <= 1 gives 0.
// Each invocation computes PER_INV pixels of a column; work group z is the
// channel plane. Integer classes sum in integers where the front-end says
// that is exact (SUMS); pixels whose whole neighbourhood lies inside the
// image read it without the padding rule.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "ipt_math.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;
layout(constant_id = 5) const int OUT_SINGLE = 0;
layout(constant_id = 6) const int SUMS = 0;  // StdfiltPlan::Sums: 0 double, 1 uint32, 2 int64

layout(buffer_reference, std430, buffer_reference_align = 8) buffer Offsets { ivec2 v[]; };

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t j;
    uint64_t offsets;  // ivec2 (dr, dc)
    int rows, cols, count;
    int extent;  // max |dr|, |dc| over the members
} pc;

int load_i(int i) {
    switch (DT) {
        case DT_LOGICAL:
        case DT_UINT8: return int(uint(BufU8(pc.a).v[i]));
        case DT_UINT16: return int(uint(BufU16(pc.a).v[i]));
        default: return int(BufI16(pc.a).v[i]);
    }
}

// The running sums of one pixel (SUMS picks the pair in use).
uint u1, u2;
int64_t l1, l2;
double d1, d2;

void add_member(int i) {
    if (SUMS == 1) {
        const uint v = uint(load_i(i));
        u1 += v;
        u2 += v * v;
    } else if (SUMS == 2) {
        const int v = load_i(i);
        l1 += int64_t(v);
        l2 += int64_t(uint(v) * uint(v));  // v^2 < 2^32 for these classes
    } else {
        precise double v = load_d(pc.a, DT, i);
        precise double square = v * v;  // not fused into the sum
        d1 += v;
        d2 += square;
    }
}

void main() {
    const int c = int(gl_GlobalInvocationID.x);
    const int r0 = int(gl_WorkGroupID.y * gl_WorkGroupSize.y * PER_INV + gl_LocalInvocationID.y);
    const int plane = int(gl_WorkGroupID.z) * pc.rows * pc.cols;
    if (c >= pc.cols) return;
    const double n = double(pc.count);
    Offsets members = Offsets(pc.offsets);
    for (int k = 0; k < int(PER_INV); ++k) {
        const int r = r0 + k * int(gl_WorkGroupSize.y);
        if (r >= pc.rows) return;
        double sd = 0.0;
        if (pc.count > 1) {
            u1 = 0u, u2 = 0u;
            l1 = 0, l2 = 0;
            d1 = 0.0, d2 = 0.0;
            // Two loops, so that a pixel inside does not evaluate the
            // padding rule's divisions for every member.
            if (r >= pc.extent && r < pc.rows - pc.extent && c >= pc.extent && c < pc.cols - pc.extent) {
                const int centre = plane + r * pc.cols + c;
                for (int m = 0; m < pc.count; ++m) add_member(centre + members.v[m].x * pc.cols + members.v[m].y);
            } else {
                for (int m = 0; m < pc.count; ++m) {
                    const ivec2 d = members.v[m];
                    add_member(plane + symmetric_index(r + d.x, pc.rows) * pc.cols + symmetric_index(c + d.y, pc.cols));
                }
            }
            precise double s1 = SUMS == 1 ? double(u1) : SUMS == 2 ? double(l1) : d1;
            precise double s2 = SUMS == 1 ? double(u2) : SUMS == 2 ? double(l2) : d2;
            precise double var = div_rn(s2, n - 1.0) - div_rn(s1 * s1, n * (n - 1.0));
            if (!is_nan_d(var) && var > 0.0) sd = isinf(var) ? var : sqrt_rn(var);
        }
        const int o = plane + r * pc.cols + c;
        if (OUT_SINGLE != 0) BufU32(pc.j).v[o] = double_to_f32_bits(sd);
        else BufF64(pc.j).v[o] = sd;
    }
}
