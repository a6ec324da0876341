// SPDX-License-Identifier: Apache-2.0
// ipt.dither, last pass of the skewed row pairs (dither_skewed.comp): the
// colour indices back in place (the CUDA backend's dither_unskew). Rows 2p
// and 2p+1 of column c are word (c + p) * lane_pairs + p of the skewed
// indices, the even row in bits 0-15. One invocation per row pair and COLS
// columns.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int OUT_DT = DT_LOGICAL;

layout(push_constant) uniform Push {
    uint64_t indices;  // uint32 [skewed_pad][lane_pairs]
    uint64_t out_;
    int rows, cols, lane_pairs;
} pc;

const uint COLS = 16;  // columns per invocation

void main() {
    // Consecutive invocations along a pair of rows: their outputs are adjacent.
    const uint i = linear_group() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    const uint rows = uint(pc.rows), cols = uint(pc.cols);
    const uint pairs = (rows + 1u) / 2u, groups = (cols + COLS - 1u) / COLS;
    if (i >= pairs * groups) return;
    const uint p = i / groups, c0 = (i % groups) * COLS, r = 2u * p;
    const bool odd_row = r + 1u < rows;
    const uint lane_pairs = uint(pc.lane_pairs);
    [[unroll]] for (uint j = 0u; j < COLS; ++j) {
        const uint c = c0 + j;
        if (c >= cols) break;
        const uint word = BufU32(pc.indices).v[(c + p) * lane_pairs + p];
        const uint at = r * cols + c;
        if (OUT_DT == DT_UINT16) {
            BufU16(pc.out_).v[at] = uint16_t(word & 0xffffu);
            if (odd_row) BufU16(pc.out_).v[at + cols] = uint16_t(word >> 16);
        } else {
            BufU8(pc.out_).v[at] = uint8_t(word & 0xffu);
            if (odd_row) BufU8(pc.out_).v[at + cols] = uint8_t(word >> 16);
        }
    }
}
