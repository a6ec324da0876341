// SPDX-License-Identifier: Apache-2.0
// ipt.conv2 (fft): the spectrum of A times the spectrum of the kernel, scaled
// by 1/(rows*cols) so that VkFFT's unnormalised inverse gives the
// convolution. Transform 0 holds the product afterwards.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(push_constant) uniform Push {
    uint64_t work;  // two spectra of `count` complex doubles each
    double scale;
    int count;
} pc;

void main() {
    const int i = int(linear_group() * gl_WorkGroupSize.x + gl_LocalInvocationID.x);
    if (i >= pc.count) return;
    const dvec2 a = BufF64x2(pc.work).v[i];
    const dvec2 k = BufF64x2(pc.work).v[pc.count + i];
    BufF64x2(pc.work).v[i] = dvec2(a.x * k.x - a.y * k.y, a.x * k.y + a.y * k.x) * pc.scale;
}
