// SPDX-License-Identifier: Apache-2.0
// ipt.dither, first pass of the skewed row pairs (dither_skewed.comp): the
// levels of the input, skewed and transposed as the CUDA backend's
// dither_skew_levels. The levels of rows 2p and 2p+1 at column c (channel
// ch) go in one 32-bit word, the even row in bits 0-15, at
// (ch * skewed_pad + c + p) * lane_pairs + p: skewed column k holds the words
// that all pairs use in step pair k as one contiguous run. Words of pixels
// outside the image are never written (the wavefront never reads them).
// One invocation per row pair and COLS columns.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "ipt_common.glsl"
#include "ipt_math.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;
layout(constant_id = 5) const int NCH = 1;

layout(push_constant) uniform Push {
    uint64_t img;
    uint64_t levels;  // uint32 [NCH][skewed_pad][lane_pairs]
    int rows, cols, top;
    int lane_pairs, skewed_pad;
} pc;

// im2uint8 of an input value, as the reference converts it.
int to_uint8(uint64_t bits) {
    switch (DT) {
    case DT_UINT8: return int(bits);
    case DT_UINT16: return int(saturate_round(div_rn(double(uint(bits)), 257.0), 0.0, 255.0));
    case DT_SINGLE: {
        precise float s = 255.0 * uintBitsToFloat(uint(bits));
        return int(saturate_round(double(s), 0.0, 255.0));
    }
    default: {
        precise double s = 255.0 * packDouble2x32(uvec2(uint(bits), uint(bits >> 32)));
        return int(saturate_round(s, 0.0, 255.0));
    }
    }
}

// floor(v*(L-1)/255 + 0.5) in integers (2 * 255 * 65535 + 255 < 2^31).
int quantise(uint64_t bits) { return (2 * to_uint8(bits) * pc.top + 255) / 510; }

const uint COLS = 16;  // columns per invocation

void main() {
    // Consecutive invocations along a pair of rows: their inputs are adjacent.
    const uint i = linear_group() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    const uint rows = uint(pc.rows), cols = uint(pc.cols);
    const uint pairs = (rows + 1u) / 2u, groups = (cols + COLS - 1u) / COLS;
    if (i >= pairs * groups) return;
    const uint p = i / groups, c0 = (i % groups) * COLS, r = 2u * p;
    const bool odd_row = r + 1u < rows;
    const uint lane_pairs = uint(pc.lane_pairs);
    [[unroll]] for (int ch = 0; ch < NCH; ++ch) {
        const uint plane = uint(ch) * rows * cols;
        [[unroll]] for (uint j = 0u; j < COLS; ++j) {
            const uint c = c0 + j;
            if (c >= cols) break;
            const int even = quantise(load_bits(pc.img, DT, int(plane + r * cols + c)));
            const int odd = odd_row ? quantise(load_bits(pc.img, DT, int(plane + (r + 1u) * cols + c))) : 0;
            BufU32(pc.levels).v[(uint(ch * pc.skewed_pad) + c + p) * lane_pairs + p] = uint(even) | (uint(odd) << 16);
        }
    }
}
