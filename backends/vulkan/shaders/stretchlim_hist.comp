// ipt.stretchlim / ipt.imadjust, pass 1: the histogram of each channel with
// imhist's binning (backends/common/intensity.hpp, histogram_bin). 256 bins
// are counted in shared memory first; 65536 bins go straight to global
// atomics. Work group z is the channel.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;
layout(constant_id = 5) const int NBINS = 256;

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t hist;      // uint32 [channels][NBINS], zeroed
    double int_scale;   // (NBINS-1) / (2^32-1) for int32 and uint32
    int plane;          // elements per channel
} pc;

shared uint local_hist[NBINS == 256 ? 256 : 1];

int bin_of(int i) {
    switch (DT) {
    case DT_LOGICAL: return BufU8(pc.a).v[i] != uint8_t(0) ? NBINS - 1 : 0;
    case DT_UINT8: return int(uint(BufU8(pc.a).v[i]));
    case DT_UINT16: return int(uint(BufU16(pc.a).v[i]));
    case DT_INT16: return int(BufI16(pc.a).v[i]) + 32768;
    case DT_INT32:
    case DT_UINT32: {
        precise double u = DT == DT_INT32 ? double(BufI32(pc.a).v[i]) + 2147483648.0
                                          : double(BufU32(pc.a).v[i]);
        precise double idx = u * pc.int_scale + 0.5;
        return int(min(int64_t(idx), int64_t(NBINS - 1)));
    }
    case DT_SINGLE: {
        const float v = BufF32(pc.a).v[i];
        if (is_nan_f(v)) return 0;
        precise float idx = v * float(NBINS - 1) + 0.5;
        if (idx < 0.0) return 0;
        if (idx > float(NBINS - 1) || isinf(v)) return NBINS - 1;
        return int(idx);
    }
    default: {
        const double v = BufF64(pc.a).v[i];
        if (is_nan_d(v)) return 0;
        precise double idx = v * double(NBINS - 1) + 0.5;
        if (idx < 0.0) return 0;
        if (idx > double(NBINS - 1) || isinf(v)) return NBINS - 1;
        return int(idx);
    }
    }
}

void main() {
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    const int channel = int(gl_WorkGroupID.z);
    const int per_group = width * int(PER_INV);
    const int begin = int(linear_group()) * per_group;
    const int offset = channel * pc.plane;
    const uint64_t hist = pc.hist + uint64_t(channel) * uint64_t(NBINS) * 4ul;
    if (NBINS == 256) {
        for (int b = lane; b < 256; b += width) local_hist[b] = 0u;
        barrier();
    }
    for (int k = 0; k < int(PER_INV); ++k) {
        const int i = begin + k * width + lane;
        if (i < pc.plane) {
            const int b = bin_of(offset + i);
            if (NBINS == 256) atomicAdd(local_hist[b], 1u);
            else atomicAdd(BufU32(hist).v[b], 1u);
        }
    }
    if (NBINS == 256) {
        barrier();
        for (int b = lane; b < 256; b += width)
            if (local_hist[b] != 0u) atomicAdd(BufU32(hist).v[b], local_hist[b]);
    }
}
