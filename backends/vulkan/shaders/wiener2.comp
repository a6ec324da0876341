// SPDX-License-Identifier: Apache-2.0
// ipt.wiener2 (backends/common/ops/wiener2.hpp), one pass per MODE, in the
// reference's order and without fused multiply-adds so that every class
// agrees with it bit for bit:
//   0: per pixel, the window sums of g and g.^2 (row by row, left to right,
//      zero outside I), the local mean and variance into scratch;
//   1: per column, its variances summed top to bottom;
//   2: one invocation, the column sums added in order and divided by numel
//      (or the given noise), written to the noise word and noise_out;
//   3: per pixel, ((g - mu) / max(var, noise)) * max(var - noise, 0) + mu in
//      I's class (MATLAB's max ignores NaN).
// g is im2double of I: integers by one correctly rounded division (div_rn).
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "ipt_math.glsl"

layout(constant_id = 4) const int MODE = 0;
layout(constant_id = 5) const int DT = DT_DOUBLE;

layout(push_constant) uniform Push {
    uint64_t a;      // I
    uint64_t z;      // J
    uint64_t mu;     // rows*cols doubles
    uint64_t var;    // rows*cols doubles
    uint64_t column; // cols doubles
    uint64_t noise;  // 1 double
    uint64_t noise_out;  // 0 when not wanted
    double given;    // the noise when given
    int rows, cols, m, n, top, left, has_given, pad;
} pc;

double unit(int i) {
    switch (DT) {
    case DT_UINT8: return div_rn(double(uint(BufU8(pc.a).v[i])), 255.0);
    case DT_UINT16: return div_rn(double(uint(BufU16(pc.a).v[i])), 65535.0);
    case DT_INT16: return div_rn(double(int(BufI16(pc.a).v[i])) + 32768.0, 65535.0);
    case DT_SINGLE: return f32_bits_to_double(BufU32(pc.a).v[i]);
    default: return BufF64(pc.a).v[i];
    }
}

double nanmax(double a, double b) {
    if (is_nan_d(a)) return b;
    if (is_nan_d(b)) return a;
    return a < b ? b : a;
}

// round(top * f) half away, saturated, NaN to 0 (im2uint8, im2uint16).
double scaled(double f, double top) {
    precise double p = f * top;
    return saturate_round(p, 0.0, top);
}

void store(int i, double f) {
    switch (DT) {
    case DT_UINT8: BufU8(pc.z).v[i] = uint8_t(uint(scaled(f, 255.0))); break;
    case DT_UINT16: BufU16(pc.z).v[i] = uint16_t(uint(scaled(f, 65535.0))); break;
    case DT_INT16: BufI16(pc.z).v[i] = int16_t(int(scaled(f, 65535.0)) - 32768); break;
    case DT_SINGLE: BufU32(pc.z).v[i] = double_to_f32_bits(f); break;
    default: BufF64(pc.z).v[i] = f; break;
    }
}

void main() {
    const int width = int(gl_WorkGroupSize.x);
    const int base = int(linear_group()) * int(PER_INV) * width + int(gl_LocalInvocationID.x);
    const double count = double(pc.m) * double(pc.n);
    if (MODE == 2) {
        if (base != 0) return;
        precise double nz = pc.given;
        if (pc.has_given == 0) {
            precise double total = 0.0;
            for (int c = 0; c < pc.cols; ++c) total = total + BufF64(pc.column).v[c];
            nz = div_rn(total, double(pc.rows) * double(pc.cols));
            if (pc.rows == 0 || pc.cols == 0) nz = packDouble2x32(uvec2(0u, 0x7FF80000u));  // mean2 of nothing: NaN
        }
        BufF64(pc.noise).v[0] = nz;
        if (pc.noise_out != 0ul) BufF64(pc.noise_out).v[0] = nz;
        return;
    }
    for (int k = 0; k < int(PER_INV); ++k) {
        const int i = base + k * width;
        if (MODE == 1) {
            if (i >= pc.cols) return;
            precise double s = 0.0;
            for (int r = 0; r < pc.rows; ++r) s = s + BufF64(pc.var).v[r * pc.cols + i];
            BufF64(pc.column).v[i] = s;
            continue;
        }
        if (i >= pc.rows * pc.cols) return;
        if (MODE == 0) {
            const int r = i / pc.cols, c = i % pc.cols;
            precise double s1 = 0.0, s2 = 0.0;
            for (int y = r - pc.top; y < r - pc.top + pc.m; ++y) {
                if (y < 0 || y >= pc.rows) continue;
                for (int x = c - pc.left; x < c - pc.left + pc.n; ++x) {
                    if (x < 0 || x >= pc.cols) continue;
                    const double v = unit(y * pc.cols + x);
                    precise double sq = v * v;
                    s1 = s1 + v;
                    s2 = s2 + sq;
                }
            }
            const double mu = div_rn(s1, count);
            precise double mu2 = mu * mu;
            precise double var = div_rn(s2, count) - mu2;
            BufF64(pc.mu).v[i] = mu;
            BufF64(pc.var).v[i] = var;
        } else {
            const double nz = BufF64(pc.noise).v[0];
            const double mu = BufF64(pc.mu).v[i], var = BufF64(pc.var).v[i];
            precise double d = unit(i) - mu;
            const double f = div_rn(d, nanmax(var, nz));
            precise double vn = var - nz;
            precise double p = f * nanmax(vn, 0.0);
            precise double res = p + mu;
            store(i, res);
        }
    }
}
