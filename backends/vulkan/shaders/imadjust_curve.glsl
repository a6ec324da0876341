// SPDX-License-Identifier: Apache-2.0
// imadjust's transfer curve (backends/common/intensity.hpp, AdjustCurve):
// clamp first (NaN becomes high_in, as fmax/fmin do), then
// ((x - li) / (hi - li))^gamma * (ho - lo) + lo, in double with a correctly
// rounded division, so that for gamma = 1 every step rounds as on the host.
// Include after ipt_common.glsl and ipt_math.glsl.

// Per channel: li, hi, lo, ho, gamma.
layout(buffer_reference, std430, buffer_reference_align = 8) buffer CurveParams {
    double v[];  // [channel * 5 + field]
};

double adjust_curve(double x, double li, double hi, double lo, double ho, double g) {
    if (is_nan_d(x) || x > hi) x = hi;
    if (x < li) x = li;
    precise double y = div_rn(x - li, hi - li);
    if (g != 1.0) y = pow_unit(y, g);
    precise double r = y * (ho - lo) + lo;
    return r;
}

// The curve of a channel; the limits come from the stretchlim buffer when
// one is given (2 x channels doubles), else from the parameters.
double channel_curve(uint64_t params, uint64_t limits, int channels, int ch, double x) {
    CurveParams p = CurveParams(params);
    double li = p.v[ch * 5 + 0], hi = p.v[ch * 5 + 1];
    if (limits != 0ul) {
        li = BufF64(limits).v[ch];
        hi = BufF64(limits).v[channels + ch];
    }
    return adjust_curve(x, li, hi, p.v[ch * 5 + 2], p.v[ch * 5 + 3], p.v[ch * 5 + 4]);
}
