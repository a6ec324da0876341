// SPDX-License-Identifier: Apache-2.0
// ipt.imrotate, ipt.imtranslate, ipt.imwarp: each output element samples A
// through the front-end's matrix (common/ops/warp.hpp states the rule and
// the order of every operation), in double without fused multiply-adds, so
// integer results match the CPU bit for bit. Outside the sampled window of A
// reads the plane's fill value (smooth edges) or the sharp rule's taps;
// logical reads as 0/1 and is true where the result rounds to 1.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;
// Interpolation (0 nearest, 1 bilinear, 2 bicubic) and the kind of map, fixed
// per pipeline so that each variant carries only its own code and registers.
layout(constant_id = 5) const int INTERP = 0;
layout(constant_id = 6) const int PROJECTIVE = 0;
// The edge rule: 0 smooth (A padded with the fill value), 1 sharp.
layout(constant_id = 7) const int SHARP = 0;

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t b;
    uint64_t params;  // M[9], fill[3]
    int rows, cols, row0, col0, win_rows, win_cols, out_rows, out_cols;
    // Each work group's lanes cover tiles of tile_w x (group size / tile_w)
    // outputs, so a subgroup samples a compact patch of A
    // (common/ops/warp.hpp, warp_patch_width); tiles_x x tiles_y per plane.
    int tile_w, tiles_x, tiles_y, tiles;
} pc;

double param(int k) { return BufF64(pc.params).v[k]; }

// Exact doubles of small integers without a conversion instruction (whose
// throughput, a quarter of the double adds', bounds this shader): v placed
// in the mantissa of 2^52, less 2^52; and back, an integer-valued double's
// int from the low word of it plus 1.5 * 2^52.
double small_uint_to_double(uint v) { return uint64BitsToDouble(0x4330000000000000ul | uint64_t(v)) - 4503599627370496.0; }
int integral_to_int(double v) {
    precise double t = v + 6755399441055744.0;
    return int(unpackDouble2x32(t).x);
}

// Element i of A as a double: unsigned 8- and 16-bit classes through the
// mantissa, the others by load_d.
double tap(int i) {
    if (DT == DT_UINT8) return small_uint_to_double(uint(BufU8(pc.a).v[i]));
    if (DT == DT_UINT16) return small_uint_to_double(uint(BufU16(pc.a).v[i]));
    return load_d(pc.a, DT, i);
}

double pixel(int plane, int y, int x) {
    return tap(plane + (pc.row0 + y - 1) * pc.cols + (pc.col0 + x - 1));
}

// round(v) half away from zero for v in [0, 2^31): floor(v) plus one where v
// less it (exact) is at least a half. Nearest and bilinear samples of
// unsigned classes, convex combinations of values and a fill of the class,
// always lie there.
uint round_nonnegative(double v) {
    precise double f = floor(v);
    precise double rest = v - f;
    return uint(integral_to_int(f)) + (rest >= 0.5 ? 1u : 0u);
}

// Outside the window: the fill value (smooth edges) or, sharp, the nearest
// pixel (bicubic's extrapolated taps are set in its 4 x 4 neighbourhood).
double at(int plane, double fill, int y, int x) {
    if (y < 1 || y > pc.win_rows || x < 1 || x > pc.win_cols) {
        if (SHARP == 0) return fill;
        y = clamp(y, 1, pc.win_rows);
        x = clamp(x, 1, pc.win_cols);
    }
    return pixel(plane, y, x);
}

// Sharp bicubic: the taps of index 0 or n + 1 in a line of n >= 3 become
// Keys' extrapolation of the three taps inside the line next to them, as
// the rule states (a tap n + 1 with no three taps inside before it has
// weight 0 and keeps the nearest pixel). Rows first, then the columns of the
// extended rows: the CPU's values, operation for operation, with one
// neighbourhood of loads instead of a call per extrapolated tap (lavapipe
// compiles a shader per variant, and the calls inlined sixteen times took
// it minutes).
void extrapolate_taps(inout double v[16], int y0, int x0) {
    const int nr = pc.win_rows, nc = pc.win_cols;
    if (nr >= 3) {
        for (int c = 0; c < 4; ++c) {
            if (y0 - 1 == 0) {
                precise double e = (3.0 * v[4 + c] - 3.0 * v[8 + c]) + v[12 + c];
                v[c] = e;
            }
            if (y0 + 2 == nr + 1) {
                precise double e = (3.0 * v[8 + c] - 3.0 * v[4 + c]) + v[c];
                v[12 + c] = e;
            }
        }
    }
    if (nc >= 3) {
        for (int r = 0; r < 4; ++r) {
            if (x0 - 1 == 0) {
                precise double e = (3.0 * v[r * 4 + 1] - 3.0 * v[r * 4 + 2]) + v[r * 4 + 3];
                v[r * 4] = e;
            }
            if (x0 + 2 == nc + 1) {
                precise double e = (3.0 * v[r * 4 + 2] - 3.0 * v[r * 4 + 1]) + v[r * 4];
                v[r * 4 + 3] = e;
            }
        }
    }
}

double round_away(double x) {
    precise double t = trunc(x);
    precise double f = x - t;
    if (f >= 0.5) t += 1.0;
    else if (f <= -0.5) t -= 1.0;
    return t;
}

double cubic(double s) {
    precise double a = abs(s);
    precise double a2 = a * a;
    precise double a3 = a2 * a;
    precise double r = 0.0;
    if (a <= 1.0) r = (1.5 * a3 - 2.5 * a2) + 1.0;
    else if (a <= 2.0) r = ((-0.5 * a3 + 2.5 * a2) - 4.0 * a) + 2.0;
    return r;
}

void main() {
    const int group = int(linear_group());
    const int lane = int(gl_LocalInvocationID.x);
    const int tile_h = int(gl_WorkGroupSize.x) / pc.tile_w;
    const int dj = lane % pc.tile_w, di = lane / pc.tile_w;
    for (int n = 0; n < int(PER_INV); ++n) {
        const int tile = group * int(PER_INV) + n;
        if (tile >= pc.tiles) return;
        const int rest = tile / pc.tiles_x;
        const int j = (tile - rest * pc.tiles_x) * pc.tile_w + dj;
        const int i = (rest % pc.tiles_y) * tile_h + di;
        const int ch = rest / pc.tiles_y;
        if (j >= pc.out_cols || i >= pc.out_rows) continue;
        const int e = (ch * pc.out_rows + i) * pc.out_cols + j;
        const int plane = ch * pc.rows * pc.cols;
        const double fill = param(9 + min(ch, 2));
        const double jd = small_uint_to_double(uint(j + 1)), id = small_uint_to_double(uint(i + 1));
        precise double x = (jd * param(0) + id * param(3)) + param(6);
        precise double y = (jd * param(1) + id * param(4)) + param(7);
        if (PROJECTIVE != 0) {
            precise double h = (jd * param(2) + id * param(5)) + param(8);
            x = x / h;
            y = y / h;
        }
        precise double v = fill;
        const double pad = SHARP != 0 ? 0.0 : 2.0;
        if (x >= 1.0 - pad && x <= double(pc.win_cols) + pad && y >= 1.0 - pad && y <= double(pc.win_rows) + pad) {
            if (INTERP == 0) {
                v = at(plane, fill, int(round_away(y)), int(round_away(x)));
            } else {
                precise double xf = floor(x);
                precise double yf = floor(y);
                precise double fx = x - xf;
                precise double fy = y - yf;
                const int x0 = integral_to_int(xf), y0 = integral_to_int(yf);
                if (INTERP == 1) {
                    double t00, t01, t10, t11;
                    if (x0 >= 1 && x0 < pc.win_cols && y0 >= 1 && y0 < pc.win_rows) {
                        // Every tap inside the window: read A directly.
                        const int first = plane + (pc.row0 + y0 - 1) * pc.cols + (pc.col0 + x0 - 1);
                        t00 = tap(first);
                        t01 = tap(first + 1);
                        t10 = tap(first + pc.cols);
                        t11 = tap(first + pc.cols + 1);
                    } else {
                        t00 = at(plane, fill, y0, x0);
                        t01 = at(plane, fill, y0, x0 + 1);
                        t10 = at(plane, fill, y0 + 1, x0);
                        t11 = at(plane, fill, y0 + 1, x0 + 1);
                    }
                    precise double top = t00 * (1.0 - fx) + t01 * fx;
                    precise double bottom = t10 * (1.0 - fx) + t11 * fx;
                    v = top * (1.0 - fy) + bottom * fy;
                } else {
                    double wx[4], wy[4];
                    for (int k = 0; k < 4; ++k) {
                        wx[k] = cubic(fx - double(k - 1));
                        wy[k] = cubic(fy - double(k - 1));
                    }
                    double t[16];
                    if (x0 >= 2 && x0 + 2 <= pc.win_cols && y0 >= 2 && y0 + 2 <= pc.win_rows) {
                        const int first = plane + (pc.row0 + y0 - 2) * pc.cols + (pc.col0 + x0 - 2);
                        for (int r = 0; r < 4; ++r)
                            for (int c = 0; c < 4; ++c) t[r * 4 + c] = tap(first + r * pc.cols + c);
                    } else {
                        for (int r = 0; r < 4; ++r)
                            for (int c = 0; c < 4; ++c) t[r * 4 + c] = at(plane, fill, y0 - 1 + r, x0 - 1 + c);
                        if (SHARP != 0) extrapolate_taps(t, y0, x0);
                    }
                    precise double acc = 0.0;
                    for (int r = 0; r < 4; ++r) {
                        precise double row = wx[0] * t[r * 4];
                        row = row + wx[1] * t[r * 4 + 1];
                        row = row + wx[2] * t[r * 4 + 2];
                        row = row + wx[3] * t[r * 4 + 3];
                        acc = acc + wy[r] * row;
                    }
                    v = acc;
                }
            }
        }
        if (DT == DT_LOGICAL)
            BufU8(pc.b).v[e] = uint8_t(saturate_round(v, 0.0, 255.0) != 0.0 ? 1u : 0u);
        else if (DT == DT_UINT8 && INTERP <= 1)
            BufU8(pc.b).v[e] = uint8_t(min(round_nonnegative(v), 255u));
        else if (DT == DT_UINT16 && INTERP <= 1)
            BufU16(pc.b).v[e] = uint16_t(min(round_nonnegative(v), 65535u));
        else
            store_d(pc.b, DT, e, v);
    }
}
