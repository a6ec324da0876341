// SPDX-License-Identifier: Apache-2.0
// ipt.imhist, pass 2: the uint32 bin counts as doubles (the output counts).
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(push_constant) uniform Push {
    uint64_t hist;    // uint32 [nbins]
    uint64_t counts;  // double [nbins]
    int nbins;
} pc;

void main() {
    const int width = int(gl_WorkGroupSize.x);
    const int begin = int(linear_group()) * width * int(PER_INV) + int(gl_LocalInvocationID.x);
    for (int k = 0; k < int(PER_INV); ++k) {
        const int i = begin + k * width;
        if (i < pc.nbins) BufF64(pc.counts).v[i] = double(BufU32(pc.hist).v[i]);
    }
}
