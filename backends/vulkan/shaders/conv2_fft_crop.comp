// SPDX-License-Identifier: Apache-2.0
// ipt.conv2 (fft): the wanted part of the circular convolution (rows off_r..
// and columns off_c.., none of them wrapped: the transform size is chosen so)
// converted to the output class. Writes nothing when the pack flagged a value
// the transform cannot take: the direct route writes the output instead.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT_OUT = DT_DOUBLE;

layout(push_constant) uniform Push {
    uint64_t work;
    uint64_t out_;
    uint64_t flag;
    int out_rows, out_cols, off_r, off_c, stride;
} pc;

void main() {
    const int c = int(gl_GlobalInvocationID.x), r = int(gl_GlobalInvocationID.y);
    if (c >= pc.out_cols || r >= pc.out_rows || BufU32(pc.flag).v[0] != 0u) return;
    store_d(pc.out_, DT_OUT, r * pc.out_cols + c, BufF64(pc.work).v[(r + pc.off_r) * pc.stride + c + pc.off_c]);
}
