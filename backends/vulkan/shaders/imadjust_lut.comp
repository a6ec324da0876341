// ipt.imadjust for uint8, uint16 and int16: MATLAB's table per channel
// (work group z), lut(k) = uint8(255 * curve(k/255)) or uint16(65535 *
// curve(k/65535)), round half away; int16 goes through uint16 and back.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "ipt_math.glsl"
#include "imadjust_curve.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;
const int ENTRIES = DT == DT_UINT8 ? 256 : 65536;

layout(push_constant) uniform Push {
    uint64_t params;  // CurveParams
    uint64_t limits;  // 0 or the stretchlim result
    uint64_t lut;     // [channels][ENTRIES] of class DT
    int channels;
} pc;

void main() {
    const int k = int(linear_group() * gl_WorkGroupSize.x + gl_LocalInvocationID.x);
    if (k >= ENTRIES) return;
    const int ch = int(gl_WorkGroupID.z);
    const double top = double(ENTRIES - 1);
    const double y = channel_curve(pc.params, pc.limits, pc.channels, ch, div_rn(double(k), top));
    precise double scaled = top * y;
    const int at = ch * ENTRIES + k;
    if (DT == DT_UINT8) BufU8(pc.lut).v[at] = uint8_t(uint(saturate_round(scaled, 0.0, 255.0)));
    else if (DT == DT_UINT16) BufU16(pc.lut).v[at] = uint16_t(uint(saturate_round(scaled, 0.0, 65535.0)));
    else BufI16(pc.lut).v[at] = int16_t(int(saturate_round(scaled, 0.0, 65535.0)) - 32768);
}
