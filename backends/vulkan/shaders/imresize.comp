// SPDX-License-Identifier: Apache-2.0
// ipt.imresize, one pass along one dimension: each output element is
//   sum over k in order of w[i][k] * src[idx[i][k]]
// in double without fused multiply-adds (the front-end's indices and
// weights), converted to the destination class. A logical source reads true
// as 255; a logical destination holds the uint8 result > 128.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int SRC_DT = DT_UINT8;
layout(constant_id = 5) const int DST_DT = DT_UINT8;
layout(constant_id = 6) const int ALONG_COLS = 0;  // 0: along dimension 1 (rows)
layout(constant_id = 7) const int LOGICAL_OUT = 0;
// FIXED_TAPS != 0: the number of taps is TAPS, fixed when the pipeline is
// made. Each invocation then keeps one output column and walks STRIP rows of
// it; along the columns it loads its column's indices and weights once for
// all of them.
layout(constant_id = 8) const int TAPS = 1;
layout(constant_id = 9) const int FIXED_TAPS = 0;
// QUADS != 0 (with FIXED_TAPS, along the rows, uint8 to uint8, a width
// divisible by 4): each invocation owns four neighbouring columns, read and
// written as 32-bit words.
layout(constant_id = 10) const int QUADS = 0;
const int STRIP = 8;

layout(push_constant) uniform Push {
    uint64_t src;
    uint64_t dst;
    uint64_t idx;
    uint64_t w;
    int in_rows, in_cols, out_rows, out_cols;
    int taps;
    int channels;
} pc;

double source_value(int e) {
    const double v = load_d(pc.src, SRC_DT, e);
    return SRC_DT == DT_LOGICAL ? 255.0 * v : v;
}

void store(int e, double acc) {
    if (LOGICAL_OUT != 0)
        BufU8(pc.dst).v[e] = uint8_t(saturate_round(acc, 0.0, 255.0) > 128.0 ? 1u : 0u);
    else
        store_d(pc.dst, DST_DT, e, acc);
}

// x: output columns, y: strips of STRIP rows, z: planes, each a strided loop
// over the groups launched.
void fixed_taps() {
    const int width = int(gl_WorkGroupSize.x);
    for (int ch = int(gl_WorkGroupID.z); ch < pc.channels; ch += int(gl_NumWorkGroups.z))
    for (int c = int(gl_WorkGroupID.x) * width + int(gl_LocalInvocationID.x); c < pc.out_cols;
         c += int(gl_NumWorkGroups.x) * width) {
        const int plane = ch * pc.in_rows * pc.in_cols;
        int j[TAPS];
        double w[TAPS];
        if (ALONG_COLS != 0)
            for (int k = 0; k < TAPS; ++k) {
                j[k] = BufI32(pc.idx).v[c * TAPS + k];
                w[k] = BufF64(pc.w).v[c * TAPS + k];
            }
        for (int r0 = int(gl_WorkGroupID.y) * STRIP; r0 < pc.out_rows; r0 += int(gl_NumWorkGroups.y) * STRIP) {
            const int r_end = min(r0 + STRIP, pc.out_rows);
            for (int r = r0; r < r_end; ++r) {
                if (ALONG_COLS == 0)
                    for (int k = 0; k < TAPS; ++k) {
                        j[k] = BufI32(pc.idx).v[r * TAPS + k];
                        w[k] = BufF64(pc.w).v[r * TAPS + k];
                    }
                const int base = ALONG_COLS != 0 ? plane + r * pc.in_cols : plane + c;
                const int step = ALONG_COLS != 0 ? 1 : pc.in_cols;
                double v[TAPS];
                for (int k = 0; k < TAPS; ++k) v[k] = source_value(base + j[k] * step);
                precise double acc = 0.0;
                for (int k = 0; k < TAPS; ++k) {
                    precise double p = w[k] * v[k];
                    acc = acc + p;
                }
                store((ch * pc.out_rows + r) * pc.out_cols + c, acc);
            }
        }
    }
}

// Byte t of w as a double, exactly: the byte placed in the mantissa of 2^52,
// then 2^52 taken away (an addition, cheaper than a conversion).
double byte_value(uint w, int t) {
    return uint64BitsToDouble(0x4330000000000000ul | uint64_t((w >> (8 * t)) & 0xffu)) - 4503599627370496.0;
}

// The pass along the rows for uint8, four columns (one word) an invocation:
// x: words of an output row, y: strips of STRIP rows, z: planes.
void quads_along_rows() {
    const int width = int(gl_WorkGroupSize.x);
    const int words = pc.out_cols / 4;
    for (int ch = int(gl_WorkGroupID.z); ch < pc.channels; ch += int(gl_NumWorkGroups.z))
    for (int q = int(gl_WorkGroupID.x) * width + int(gl_LocalInvocationID.x); q < words;
         q += int(gl_NumWorkGroups.x) * width) {
        const int plane = ch * pc.in_rows * words;
        for (int r0 = int(gl_WorkGroupID.y) * STRIP; r0 < pc.out_rows; r0 += int(gl_NumWorkGroups.y) * STRIP) {
            const int r_end = min(r0 + STRIP, pc.out_rows);
            for (int r = r0; r < r_end; ++r) {
                int j[TAPS];
                double w[TAPS];
                uint v[TAPS];
                for (int k = 0; k < TAPS; ++k) {
                    j[k] = BufI32(pc.idx).v[r * TAPS + k];
                    w[k] = BufF64(pc.w).v[r * TAPS + k];
                }
                for (int k = 0; k < TAPS; ++k) v[k] = BufU32(pc.src).v[plane + j[k] * words + q];
                uint packed = 0u;
                for (int t = 0; t < 4; ++t) {
                    precise double acc = 0.0;
                    for (int k = 0; k < TAPS; ++k) {
                        precise double p = w[k] * byte_value(v[k], t);
                        acc = acc + p;
                    }
                    packed |= uint(saturate_round(acc, 0.0, 255.0)) << (8 * t);
                }
                BufU32(pc.dst).v[(ch * pc.out_rows + r) * words + q] = packed;
            }
        }
    }
}

// Any number of taps. x: output columns, y: rows, z: planes (each a strided
// loop over the groups launched), so no invocation divides.
void main() {
    if (QUADS != 0) {
        quads_along_rows();
        return;
    }
    if (FIXED_TAPS != 0) {
        fixed_taps();
        return;
    }
    const int width = int(gl_WorkGroupSize.x);
    for (int ch = int(gl_WorkGroupID.z); ch < pc.channels; ch += int(gl_NumWorkGroups.z))
    for (int r = int(gl_WorkGroupID.y); r < pc.out_rows; r += int(gl_NumWorkGroups.y))
    for (int c = int(gl_WorkGroupID.x) * width + int(gl_LocalInvocationID.x); c < pc.out_cols;
         c += int(gl_NumWorkGroups.x) * width) {
        const int plane = ch * pc.in_rows * pc.in_cols;
        const int i = ALONG_COLS != 0 ? c : r;
        const int base = ALONG_COLS != 0 ? plane + r * pc.in_cols : plane + c;
        const int step = ALONG_COLS != 0 ? 1 : pc.in_cols;
        // Four taps' indices, weights and values are loaded before any is
        // used, so that their latencies overlap; the sum stays in tap order.
        precise double acc = 0.0;
        int k = 0;
        for (; k + 4 <= pc.taps; k += 4) {
            const int o = i * pc.taps + k;
            const ivec4 j = ivec4(BufI32(pc.idx).v[o], BufI32(pc.idx).v[o + 1], BufI32(pc.idx).v[o + 2],
                                  BufI32(pc.idx).v[o + 3]);
            const dvec4 wk = dvec4(BufF64(pc.w).v[o], BufF64(pc.w).v[o + 1], BufF64(pc.w).v[o + 2],
                                   BufF64(pc.w).v[o + 3]);
            const dvec4 v = dvec4(source_value(base + j.x * step), source_value(base + j.y * step),
                                  source_value(base + j.z * step), source_value(base + j.w * step));
            for (int q = 0; q < 4; ++q) {
                precise double p = wk[q] * v[q];
                acc = acc + p;
            }
        }
        for (; k < pc.taps; ++k) {
            const int j = BufI32(pc.idx).v[i * pc.taps + k];
            precise double p = BufF64(pc.w).v[i * pc.taps + k] * source_value(base + j * step);
            acc = acc + p;
        }
        store((ch * pc.out_rows + r) * pc.out_cols + c, acc);
    }
}
