// SPDX-License-Identifier: Apache-2.0
// ipt.histeq, last pass: every element replaced by the table entry of its
// imhist bin (256 bins, imhist_bin.glsl). The table (in J's class) comes from
// the host (backends/common/ops/histeq.hpp).
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "imhist_bin.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t table;     // 256 entries of J's class
    uint64_t j;
    double int_scale;   // 255/65535 for uint16 and int16
    int numel;
} pc;

void main() {
    const int width = int(gl_WorkGroupSize.x);
    const int begin = int(linear_group()) * width * int(PER_INV) + int(gl_LocalInvocationID.x);
    for (int k = 0; k < int(PER_INV); ++k) {
        const int i = begin + k * width;
        if (i >= pc.numel) return;
        const int b = imhist_bin(pc.a, i, DT, 256, pc.int_scale);
        switch (DT) {
        case DT_UINT8: BufU8(pc.j).v[i] = BufU8(pc.table).v[b]; break;
        case DT_UINT16: BufU16(pc.j).v[i] = BufU16(pc.table).v[b]; break;
        case DT_INT16: BufI16(pc.j).v[i] = BufI16(pc.table).v[b]; break;
        case DT_SINGLE: BufF32(pc.j).v[i] = BufF32(pc.table).v[b]; break;
        default: BufF64(pc.j).v[i] = BufF64(pc.table).v[b]; break;
        }
    }
}
