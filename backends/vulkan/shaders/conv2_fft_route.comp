// SPDX-License-Identifier: Apache-2.0
// ipt.conv2 (fft): picks the route on the device, as imfilter_rank1 does.
// When the pack flagged a value the transform cannot take, the direct
// engine's passes (up to two indirect dispatches) get their work groups;
// otherwise none, and the transform's output stands. Nothing waits on the host.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(push_constant) uniform Push {
    uint64_t flag;
    uint64_t args;  // 2 x VkDispatchIndirectCommand
    uint first_x, first_y, first_z;
    uint second_x, second_y, second_z;
} pc;

void main() {
    const bool direct = BufU32(pc.flag).v[0] != 0u;
    BufU32 a = BufU32(pc.args);
    a.v[0] = direct ? pc.first_x : 0u;
    a.v[1] = pc.first_y;
    a.v[2] = pc.first_z;
    a.v[3] = direct ? pc.second_x : 0u;
    a.v[4] = pc.second_y;
    a.v[5] = pc.second_z;
}
