// SPDX-License-Identifier: Apache-2.0
// The histogram of each channel (work group z), for ipt.stretchlim,
// ipt.imadjust, ipt.imhist and ipt.graythresh. BINNING 0 is imhist's rule
// (backends/common/intensity.hpp, histogram_bin); BINNING 1 is graythresh's,
// the value's im2uint8 (backends/common/class_scaling.hpp, to_uint8_scale)
// in 256 bins. Up to SHARED_BINS bins are counted in shared memory first;
// more go straight to global atomics. The host launches a bounded number of
// groups that stride over the plane, so that few partial histograms are
// added into the global one.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "imhist_bin.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;
layout(constant_id = 5) const int NBINS = 256;
layout(constant_id = 6) const int BINNING = 0;
const int SHARED_BINS = 2048;

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t hist;      // uint32 [channels][NBINS], zeroed
    double int_scale;   // (NBINS-1) / top for scaled integer bins: top 255, 65535 or 2^32-1
    int plane;          // elements per channel
} pc;

shared uint local_hist[NBINS <= SHARED_BINS ? NBINS : 1];

// im2uint8 of a floating value: round(255 v) half away from zero, saturated,
// NaN to 0 (class_scaling.hpp's round_to_range).
int uint8_of(double p) {
    if (!(p > 0.0)) return 0;
    if (p >= 255.0) return 255;
    const int t = int(p);
    return p - double(t) >= 0.5 ? t + 1 : t;
}

int im2uint8_bin(int i) {
    switch (DT) {
    case DT_UINT8: return int(uint(BufU8(pc.a).v[i]));
    case DT_UINT16: return int((uint(BufU16(pc.a).v[i]) + 128u) / 257u);
    case DT_INT16: return int((uint(int(BufI16(pc.a).v[i]) + 32768) + 128u) / 257u);
    case DT_SINGLE: {
        precise float p = BufF32(pc.a).v[i] * 255.0;
        return uint8_of(double(p));
    }
    default: {
        precise double p = BufF64(pc.a).v[i] * 255.0;
        return uint8_of(p);
    }
    }
}

int bin_of(int i) {
    if (BINNING == 1) return im2uint8_bin(i);
    return imhist_bin(pc.a, i, DT, NBINS, pc.int_scale);
}

void main() {
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    const int channel = int(gl_WorkGroupID.z);
    const uint stride = gl_NumWorkGroups.x * gl_NumWorkGroups.y * uint(width);
    const int offset = channel * pc.plane;
    const uint64_t hist = pc.hist + uint64_t(channel) * uint64_t(NBINS) * 4ul;
    const bool shared_bins = NBINS <= SHARED_BINS;
    if (shared_bins) {
        for (int b = lane; b < NBINS; b += width) local_hist[b] = 0u;
        barrier();
    }
    // plane < 2^31 and stride < 2^31: i + stride stays below 2^32.
    for (uint i = linear_group() * uint(width) + uint(lane); i < uint(pc.plane); i += stride) {
        const int b = bin_of(offset + int(i));
        if (shared_bins) atomicAdd(local_hist[b], 1u);
        else atomicAdd(BufU32(hist).v[b], 1u);
    }
    if (shared_bins) {
        barrier();
        for (int b = lane; b < NBINS; b += width)
            if (local_hist[b] != 0u) atomicAdd(BufU32(hist).v[b], local_hist[b]);
    }
}
