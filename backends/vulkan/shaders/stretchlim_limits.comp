// SPDX-License-Identifier: Apache-2.0
// ipt.stretchlim / ipt.imadjust, pass 2: per channel (work group z), the first
// bins where the cumulative count reaches the thresholds the host derived
// from tol (count_low: first count whose cdf > tol_low; count_high: first
// whose cdf >= tol_high), then [low; high] = [ilow; ihigh] / (NBINS-1), or
// [0; 1] when they coincide. Each invocation owns a run of bins; a shared
// scan gives each run its starting count.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "ipt_math.glsl"

layout(constant_id = 4) const int NBINS = 256;

layout(push_constant) uniform Push {
    uint64_t hist;    // uint32 [channels][NBINS]
    uint64_t limits;  // double [2][channels]
    uint count_low;
    uint count_high;
    int channels;
} pc;

shared uint run_total[gl_WorkGroupSize.x];
shared int first_low;
shared int first_high;

void main() {
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    const int channel = int(gl_WorkGroupID.z);
    const uint64_t hist = pc.hist + uint64_t(channel) * uint64_t(NBINS) * 4ul;
    const int per_lane = (NBINS + width - 1) / width;
    const int begin = lane * per_lane;
    const int end = min(NBINS, begin + per_lane);
    uint total = 0u;
    for (int b = begin; b < end; ++b) total += BufU32(hist).v[b];
    run_total[lane] = total;
    if (lane == 0) {
        first_low = NBINS;
        first_high = NBINS;
    }
    barrier();
    // Inclusive scan (Hillis-Steele).
    for (int stride = 1; stride < width; stride *= 2) {
        const uint add = lane >= stride ? run_total[lane - stride] : 0u;
        barrier();
        run_total[lane] += add;
        barrier();
    }
    uint cumulative = run_total[lane] - total;
    for (int b = begin; b < end; ++b) {
        cumulative += BufU32(hist).v[b];
        if (cumulative >= pc.count_low) atomicMin(first_low, b);
        if (cumulative >= pc.count_high) {
            atomicMin(first_high, b);
            break;
        }
    }
    barrier();
    if (lane == 0) {
        double low = 0.0, high = 1.0;
        if (first_low != first_high) {
            low = div_rn(double(first_low), double(NBINS - 1));
            high = div_rn(double(first_high), double(NBINS - 1));
        }
        BufF64(pc.limits).v[channel] = low;
        BufF64(pc.limits).v[pc.channels + channel] = high;
    }
}
