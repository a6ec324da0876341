// SPDX-License-Identifier: Apache-2.0
// ipt.edge: the per-pixel passes (PASS) of MATLAB's edge detectors, in the
// working class of the CPU reference (single for every class but double,
// WD = 1 for double), with its roundings: every expression is evaluated in
// the same order without fused multiply-adds, and divisions are correctly
// rounded. The filters run on the correlation engine (correlate.comp), the
// sums and the maximum on edge_reduce.comp; `stats` holds the thresholds
// the passes compare with (on the device: nothing waits).
//   0  work = im2single(I) (or I)
//   1  b = kx*bx^2 + ky*by^2                          (sobel, prewitt, roberts)
//   2  BW = b > cutoff, thinned                       (stats[0] = cutoff)
//   3  BW = zero crossings of b over t, interior      (log, zerocross; stats[0] = t)
//   4  mag = hypot(gx, gy)                            (canny)
//   5  mag /= max(mag) when the maximum is > 0        (stats[2] = max)
//   6  histogram of mag in pc.bins bins (imhist(mag, bins))
//   7  thresholds from the histogram (one invocation) -> stats[0..1], thresh
//   8  non-maximum suppression: state 1 weak, 2 strong
//   9  union-find: label = p        10: union weak 8-neighbours
//   11 strong pixels flag their root 12: BW = weak and root flagged
// The automatic thresholds' constants come from the front-end in the push
// block (bins, not_edges, ratio), as doubles where they are doubles.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "ipt_math.glsl"

layout(constant_id = 4) const int PASS = 0;
layout(constant_id = 5) const int WD = 0;        // working class double
layout(constant_id = 6) const int DT = DT_UINT8; // class of I (pass 0)
layout(constant_id = 7) const int ROBERTS = 0;   // thinning offsets [-1 1 1 -1]
layout(constant_id = 8) const int THINNING = 1;

layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer Labels { uint v[]; };

layout(push_constant) uniform Push {
    uint64_t a;      // pass 0: I; 1: bx; 2: b; 3: b; 4: gx; 5, 6, 8: mag; 7: histogram
    uint64_t b;      // pass 0: work; 1: by; 2: bx; 4: gy; 8: gx; 9-12: state
    uint64_t c;      // 1: b; 2: by; 4: mag; 8: gy; 9-12: labels
    uint64_t out_;   // 2, 3, 12: BW; 8: state; 7: thresh; 11: flags; 6: histogram
    uint64_t stats;  // doubles
    uint64_t flags;  // 12: flags
    double kx, ky;
    double not_edges;  // 7: high passes this fraction of the pixels
    double ratio;      // 7: low = ratio*high
    int rows, cols;
    int bins;          // 6, 7: histogram bins
    int pad;
} pc;

double load_w(uint64_t base, int i) { return WD != 0 ? BufF64(base).v[i] : double(BufF32(base).v[i]); }
void store_w(uint64_t base, int i, double v) {
    if (WD != 0) BufF64(base).v[i] = v;
    else BufF32(base).v[i] = float(v);
}

// Working-class operations: results rounded to the working class.
double wmul(double x, double y) {
    if (WD != 0) {
        precise double r = x * y;
        return r;
    }
    precise float r = float(x) * float(y);
    return double(r);
}
double wadd(double x, double y) {
    if (WD != 0) {
        precise double r = x + y;
        return r;
    }
    precise float r = float(x) + float(y);
    return double(r);
}
double wsub(double x, double y) {
    if (WD != 0) {
        precise double r = x - y;
        return r;
    }
    precise float r = float(x) - float(y);
    return double(r);
}
// Correctly rounded in the working class (a single division of two floats,
// rounded once in double and once to float, cannot double-round wrongly).
double wdiv(double x, double y) {
    const double q = div_rn(x, y);
    return WD != 0 ? q : double(float(q));
}

int at(int r, int c) { return r * pc.cols + c; }

void pass_prepare(int i) {
    double v;
    switch (DT) {
    case DT_LOGICAL: v = BufU8(pc.a).v[i] != uint8_t(0) ? 1.0 : 0.0; break;
    case DT_UINT8: v = div_rn(double(uint(BufU8(pc.a).v[i])), 255.0); break;
    case DT_UINT16: v = div_rn(double(uint(BufU16(pc.a).v[i])), 65535.0); break;
    case DT_INT16: v = div_rn(double(int(BufI16(pc.a).v[i])) + 32768.0, 65535.0); break;
    case DT_SINGLE: v = double(BufF32(pc.a).v[i]); break;
    default: v = BufF64(pc.a).v[i]; break;
    }
    store_w(pc.b, i, v);
}

void pass_gradient_b(int i) {
    const double bx = load_w(pc.a, i), by = load_w(pc.b, i);
    const double x = wmul(wmul(pc.kx, bx), bx), y = wmul(wmul(pc.ky, by), by);
    store_w(pc.c, i, wadd(x, y));
}

void pass_gradient_bw(int r, int col) {
    const double cutoff = BufF64(pc.stats).v[0];
    const int i = at(r, col);
    const double v = load_w(pc.a, i);
    bool edge = false;
    if (v > cutoff) {
        if (THINNING == 0) {
            edge = true;
        } else {
            const int o1 = ROBERTS != 0 ? -1 : 0, o2 = ROBERTS != 0 ? 1 : 0;
            const int o3 = o2, o4 = o1;
            // A neighbour outside the image never vetoes a pixel.
            bool b1 = true, b2 = true, b3 = true, b4 = true;
            int rr = r + o1, cc = col - 1;
            if (rr >= 0 && rr < pc.rows && cc >= 0 && cc < pc.cols) b1 = load_w(pc.a, at(rr, cc)) <= v;
            rr = r + o2, cc = col + 1;
            if (rr >= 0 && rr < pc.rows && cc >= 0 && cc < pc.cols) b2 = v > load_w(pc.a, at(rr, cc));
            rr = r - 1, cc = col + o3;
            if (rr >= 0 && rr < pc.rows && cc >= 0 && cc < pc.cols) b3 = load_w(pc.a, at(rr, cc)) <= v;
            rr = r + 1, cc = col + o4;
            if (rr >= 0 && rr < pc.rows && cc >= 0 && cc < pc.cols) b4 = v > load_w(pc.a, at(rr, cc));
            const double ax = abs(load_w(pc.b, i)), ay = abs(load_w(pc.c, i));
            const double tol = 100.0 * 2.220446049250313e-16;
            precise double ly = pc.kx * ay - tol;
            precise double lx = pc.ky * ax - tol;
            edge = (ax >= ly && b1 && b2) || (ay >= lx && b3 && b4);
        }
    }
    BufU8(pc.out_).v[i] = uint8_t(edge ? 1u : 0u);
}

// |a - z| rounded in the working class, compared with thr.
bool over(double a, double z, double thr) { return abs(wsub(a, z)) > thr; }

void pass_zero_cross(int r, int col) {
    const double t = BufF64(pc.stats).v[0];
    bool edge = false;
    if (r >= 1 && r + 1 < pc.rows && col >= 1 && col + 1 < pc.cols) {
        const double v = load_w(pc.a, at(r, col));
        const double up = load_w(pc.a, at(r - 1, col)), down = load_w(pc.a, at(r + 1, col));
        const double left = load_w(pc.a, at(r, col - 1)), right = load_w(pc.a, at(r, col + 1));
        if (v < 0.0) {
            edge = (right > 0.0 && over(v, right, t)) || (left > 0.0 && over(v, left, t)) ||
                   (down > 0.0 && over(v, down, t)) || (up > 0.0 && over(v, up, t));
        } else if (v == 0.0) {
            precise double t2 = 2.0 * t;
            edge = (((up < 0.0 && down > 0.0) || (up > 0.0 && down < 0.0)) && over(up, down, t2)) ||
                   (((left < 0.0 && right > 0.0) || (left > 0.0 && right < 0.0)) && over(left, right, t2));
        }
    }
    BufU8(pc.out_).v[at(r, col)] = uint8_t(edge ? 1u : 0u);
}

void pass_magnitude(int i) {
    const double x = load_w(pc.a, i), y = load_w(pc.b, i);
    precise double s = x * x + y * y;
    // single: the double square root of the double sum, rounded once (what
    // hypotf gives); double: sqrt of the rounded sum (within an ulp of hypot).
    store_w(pc.c, i, sqrt_rn(s));
}

void pass_normalise(int i) {
    const double m = BufF64(pc.stats).v[2];
    if (m > 0.0) store_w(pc.a, i, wdiv(load_w(pc.a, i), m));
}

void pass_histogram(int i) {
    const double x = clamp(load_w(pc.a, i), 0.0, 1.0);
    precise double y = x * double(pc.bins - 1) + 0.5;
    atomicAdd(BufU32(pc.out_).v[int(floor(y))], 1u);
}

void pass_thresholds() {
    // (not_edges*m)*n, the reference's order.
    precise double need = pc.not_edges * double(pc.rows) * double(pc.cols);
    uint cum = 0u;
    int k = 0;
    for (; k < pc.bins; ++k) {
        cum += BufU32(pc.a).v[k];
        if (double(cum) > need) break;
    }
    const double high = div_rn(double(k + 1), double(pc.bins));
    precise double low = pc.ratio * high;
    BufF64(pc.stats).v[0] = low;
    BufF64(pc.stats).v[1] = high;
    BufF64(pc.out_).v[0] = low;
    BufF64(pc.out_).v[1] = high;
}

double M(int r, int c) { return load_w(pc.a, at(r, c)); }

// (a*(1-d)) + (b*d) in the working class.
double lerp_w(double a, double b, double d) { return wadd(wmul(a, wsub(1.0, d)), wmul(b, d)); }

void pass_nms(int r, int col) {
    const int i = at(r, col);
    uint state = 0u;
    if (r >= 1 && r + 1 < pc.rows && col >= 1 && col + 1 < pc.cols) {
        const double low = BufF64(pc.stats).v[0], high = BufF64(pc.stats).v[1];
        const double ix = load_w(pc.b, i), iy = load_w(pc.c, i), v = load_w(pc.a, i);
        if (v > low) {
            bool is_max = false;
            if ((iy <= 0.0 && ix > -iy) || (iy >= 0.0 && ix < -iy)) {
                const double d = abs(wdiv(iy, ix));
                const double g1 = lerp_w(M(r, col + 1), M(r - 1, col + 1), d);
                const double g2 = lerp_w(M(r, col - 1), M(r + 1, col - 1), d);
                is_max = is_max || (v >= g1 && v >= g2);
            }
            if ((ix > 0.0 && -iy >= ix) || (ix < 0.0 && -iy <= ix)) {
                const double d = abs(wdiv(ix, iy));
                const double g1 = lerp_w(M(r - 1, col), M(r - 1, col + 1), d);
                const double g2 = lerp_w(M(r + 1, col), M(r + 1, col - 1), d);
                is_max = is_max || (v >= g1 && v >= g2);
            }
            if ((ix <= 0.0 && ix > iy) || (ix >= 0.0 && ix < iy)) {
                const double d = abs(wdiv(ix, iy));
                const double g1 = lerp_w(M(r - 1, col), M(r - 1, col - 1), d);
                const double g2 = lerp_w(M(r + 1, col), M(r + 1, col + 1), d);
                is_max = is_max || (v >= g1 && v >= g2);
            }
            if ((iy < 0.0 && ix <= iy) || (iy > 0.0 && ix >= iy)) {
                const double d = abs(wdiv(iy, ix));
                const double g1 = lerp_w(M(r, col - 1), M(r - 1, col - 1), d);
                const double g2 = lerp_w(M(r, col + 1), M(r + 1, col + 1), d);
                is_max = is_max || (v >= g1 && v >= g2);
            }
            if (is_max) state = v > high ? 2u : 1u;
        }
    }
    BufU8(pc.out_).v[i] = uint8_t(state);
}

uint find_root(uint x) {
    Labels l = Labels(pc.c);
    uint parent = l.v[x];
    while (parent != x) {
        x = parent;
        parent = l.v[x];
    }
    return x;
}

void unite(uint a, uint b) {
    Labels l = Labels(pc.c);
    bool done = false;
    while (!done) {
        a = find_root(a);
        b = find_root(b);
        if (a < b) {
            const uint old = atomicMin(l.v[b], a);
            done = old == b;
            b = old;
        } else if (b < a) {
            const uint old = atomicMin(l.v[a], b);
            done = old == a;
            a = old;
        } else {
            done = true;
        }
    }
}

uint state_at(int i) { return uint(BufU8(pc.b).v[i]); }

void main() {
    const int col = int(gl_GlobalInvocationID.x);
    const int r = int(gl_GlobalInvocationID.y);
    if (PASS == 7) {
        if (col == 0 && r == 0) pass_thresholds();
        return;
    }
    if (col >= pc.cols || r >= pc.rows) return;
    const int i = at(r, col);
    switch (PASS) {
    case 0: pass_prepare(i); break;
    case 1: pass_gradient_b(i); break;
    case 2: pass_gradient_bw(r, col); break;
    case 3: pass_zero_cross(r, col); break;
    case 4: pass_magnitude(i); break;
    case 5: pass_normalise(i); break;
    case 6: pass_histogram(i); break;
    case 8: pass_nms(r, col); break;
    case 9: Labels(pc.c).v[i] = uint(i); break;
    case 10:
        if (state_at(i) != 0u)
            for (int dr = 0; dr <= 1; ++dr)
                for (int dc = -1; dc <= 1; ++dc) {
                    if (dr == 0 && dc <= 0) continue;  // forward neighbours: each pair once
                    const int rr = r + dr, cc = col + dc;
                    if (rr >= pc.rows || cc < 0 || cc >= pc.cols) continue;
                    if (state_at(at(rr, cc)) != 0u) unite(uint(i), uint(at(rr, cc)));
                }
        break;
    case 11:
        if (state_at(i) == 2u) BufU32(pc.out_).v[find_root(uint(i))] = 1u;
        break;
    case 12: {
        const bool on = state_at(i) != 0u && BufU32(pc.flags).v[find_root(uint(i))] != 0u;
        BufU8(pc.out_).v[i] = uint8_t(on ? 1u : 0u);
        break;
    }
    default: break;
    }
}
