// SPDX-License-Identifier: Apache-2.0
// ipt.edge: sums and maximum over the working image, two levels (FINAL 0:
// per-group partials, FINAL 1: one group over the partials, then the
// threshold). Sums are double-double (TwoSum at every addition), so they are
// the correctly rounded sum in practice, as the reference's compensated sum
// is; an infinite or NaN sum is returned as it is.
//   MODE 0: sum(b)   -> stats[0] = cutoff = scale*sum/n, thresh = sqrt(cutoff)
//   MODE 1: sum(|b|) -> stats[0] = t = scale*sum/n,      thresh = t
//   MODE 2: max(mag, 0) (NaN ignored) -> stats[2]
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "ipt_math.glsl"

layout(constant_id = 4) const int MODE = 0;
layout(constant_id = 5) const int WD = 0;
layout(constant_id = 6) const int FINAL = 0;

layout(push_constant) uniform Push {
    uint64_t src;       // working image (FINAL 0) or partials (dvec2 per group)
    uint64_t partials;  // dvec2 per group
    uint64_t stats;
    uint64_t thresh;
    double scale;       // MODE 0: the operators' scale; MODE 1: the front-end's zero-crossing scale
    int n;              // elements (FINAL 0) or partials (FINAL 1)
    int chunk;
    int count;          // numel of the image (FINAL 1)
} pc;

shared double s_hi[gl_WorkGroupSize.x];
shared double s_lo[gl_WorkGroupSize.x];

// (hi, lo) + (bh, bl), TwoSum on the high parts.
dvec2 dd_add(dvec2 a, dvec2 b) {
    precise double s = a.x + b.x;
    precise double bp = s - a.x;
    precise double e = (a.x - (s - bp)) + (b.x - bp);
    precise double lo = a.y + b.y + e;
    return dvec2(s, lo);
}

double element(int i) {
    const double v = WD != 0 ? BufF64(pc.src).v[i] : double(BufF32(pc.src).v[i]);
    return MODE == 1 ? abs(v) : v;
}

void main() {
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    dvec2 acc = dvec2(0.0);
    if (FINAL == 0) {
        const int begin = int(linear_group()) * pc.chunk;
        const int end = min(pc.n, begin + pc.chunk);
        for (int i = begin + lane; i < end; i += width) {
            const double v = element(i);
            if (MODE == 2) {
                if (v > acc.x) acc.x = v;
            } else {
                acc = dd_add(acc, dvec2(v, 0.0));
            }
        }
    } else {
        for (int g = lane; g < pc.n; g += width) {
            const dvec2 p = BufF64x2(pc.src).v[g];
            if (MODE == 2) {
                if (p.x > acc.x) acc.x = p.x;
            } else {
                acc = dd_add(acc, p);
            }
        }
    }
    s_hi[lane] = acc.x;
    s_lo[lane] = acc.y;
    barrier();
    for (int stride = width / 2; stride > 0; stride /= 2) {
        if (lane < stride) {
            if (MODE == 2) {
                if (s_hi[lane + stride] > s_hi[lane]) s_hi[lane] = s_hi[lane + stride];
            } else {
                const dvec2 r = dd_add(dvec2(s_hi[lane], s_lo[lane]), dvec2(s_hi[lane + stride], s_lo[lane + stride]));
                s_hi[lane] = r.x;
                s_lo[lane] = r.y;
            }
        }
        barrier();
    }
    if (lane != 0) return;
    if (FINAL == 0) {
        BufF64x2(pc.partials).v[linear_group()] = dvec2(s_hi[0], s_lo[0]);
        return;
    }
    if (MODE == 2) {
        BufF64(pc.stats).v[2] = s_hi[0];
        return;
    }
    const double hi = s_hi[0];
    const double sum = (is_nan_d(hi) || isinf(hi)) ? hi : hi + s_lo[0];
    precise double scaled = pc.scale * sum;
    const double value = div_rn(scaled, double(pc.count));
    BufF64(pc.stats).v[0] = value;
    if (MODE == 0) {
        BufF64(pc.thresh).v[0] = sqrt_rn(value);
    } else {
        BufF64(pc.thresh).v[0] = value;
    }
}
