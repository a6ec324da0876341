// SPDX-License-Identifier: Apache-2.0
// The stencils of common/ops/imgradientxy.hpp and the magnitude and direction
// of common/ops/imgradient.hpp in GLSL, for imgradientxy.comp and
// imgradient.comp. Arithmetic is in double; with SINGLE != 0 every result is
// rounded to single (fr()), which gives the single operation's result
// exactly. The same differences are taken in the same order as the
// reference, so Gx and Gy match it bit for bit. GLSL has no double atan2 or
// hypot: atan2_d reduces to atan on [0, 1], then about k/8 with a table and a
// short series (about 2 ulp); hypot_d is a correctly rounded root of the
// summed squares, scaled where they could overflow.
// Needs pc.src, pc.rows, pc.cols; include after ipt_common.glsl and
// ipt_math.glsl.

layout(constant_id = 4) const int IN_DT = DT_DOUBLE;
layout(constant_id = 5) const int SINGLE = 0;
layout(constant_id = 6) const int METHOD = 0;  // sobel, prewitt, central, intermediate, roberts

const double PI_HI = 3.141592653589793lf;
const double PI_LO = 1.2246467991473532e-16lf;
const double PIO2_HI = 1.5707963267948966lf;
const double PIO2_LO = 6.123233995736766e-17lf;

double fr(double x) {
    if (SINGLE == 0) return x;
    return f32_bits_to_double(double_to_f32_bits(x));
}

double at(int r, int c) { return load_d(pc.src, IN_DT, r * pc.cols + c); }

void gradient_xy(int r, int c, out double gx, out double gy) {
    const int rows = pc.rows, cols = pc.cols;
    const int rm = max(r - 1, 0), rp = min(r + 1, rows - 1);
    const int cm = max(c - 1, 0), cp = min(c + 1, cols - 1);
    if (METHOD == 0 || METHOD == 1) {
        precise double x0 = fr(at(rm, cp) - at(rm, cm));
        precise double x1 = fr(at(r, cp) - at(r, cm));
        precise double x2 = fr(at(rp, cp) - at(rp, cm));
        precise double y0 = fr(at(rp, cm) - at(rm, cm));
        precise double y1 = fr(at(rp, c) - at(rm, c));
        precise double y2 = fr(at(rp, cp) - at(rm, cp));
        precise double wx = METHOD == 0 ? fr(x1 + x1) : x1;
        precise double wy = METHOD == 0 ? fr(y1 + y1) : y1;
        precise double sx = fr(fr(x0 + wx) + x2);
        precise double sy = fr(fr(y0 + wy) + y2);
        gx = sx;
        gy = sy;
    } else if (METHOD == 2) {
        precise double sx = 0.0, sy = 0.0;
        if (cols >= 2) {
            if (c == 0) sx = fr(at(r, 1) - at(r, 0));
            else if (c == cols - 1) sx = fr(at(r, c) - at(r, c - 1));
            else sx = fr(fr(at(r, c + 1) - at(r, c - 1)) * 0.5);
        }
        if (rows >= 2) {
            if (r == 0) sy = fr(at(1, c) - at(0, c));
            else if (r == rows - 1) sy = fr(at(r, c) - at(r - 1, c));
            else sy = fr(fr(at(r + 1, c) - at(r - 1, c)) * 0.5);
        }
        gx = sx;
        gy = sy;
    } else if (METHOD == 3) {
        precise double sx = c + 1 < cols ? fr(at(r, c + 1) - at(r, c)) : 0.0;
        precise double sy = r + 1 < rows ? fr(at(r + 1, c) - at(r, c)) : 0.0;
        gx = sx;
        gy = sy;
    } else {
        precise double sx = fr(at(r, c) - at(rp, cp));
        precise double sy = fr(at(r, cp) - at(rp, c));
        gx = sx;
        gy = sy;
    }
}

bool sign_bit(double v) { return (unpackDouble2x32(v).y & 0x80000000u) != 0u; }
double inf_d() { return packDouble2x32(uvec2(0u, 0x7FF00000u)); }
double nan_d() { return packDouble2x32(uvec2(0u, 0x7FF80000u)); }
bool is_inf_d(double x) {
    uvec2 b = unpackDouble2x32(x);
    return (b.y & 0x7FFFFFFFu) == 0x7FF00000u && b.x == 0u;
}

// atan(k/8), k = 0..8, rounded to double.
const double ATAN_K[9] = double[9](0.0lf, 0.12435499454676144lf, 0.24497866312686414lf, 0.35877067027057225lf,
                                   0.4636476090008061lf, 0.5585993153435624lf, 0.6435011087932844lf,
                                   0.7188299996216245lf, 0.7853981633974483lf);

// atan(t) for 0 <= t <= 1: atan(c) + atan(u), c = k/8 nearest t and
// u = (t - c)/(1 + t c), |u| <= 1/16, by its series to u^17.
double atan_unit(double t) {
    const int k = int(t * 8.0 + 0.5);
    const double c = double(k) * 0.125;
    precise double num = t - c;  // exact (Sterbenz)
    precise double den = 1.0 + t * c;
    const double u = div_rn(num, den);
    precise double z = u * u;
    precise double p = -0.3333333333333333lf + z * (0.2lf + z * (-0.14285714285714285lf + z * (0.1111111111111111lf + z * (-0.09090909090909091lf +
                       z * (0.07692307692307693lf + z * (-0.06666666666666667lf + z * (0.058823529411764705lf)))))));
    precise double r = ATAN_K[k] + (u + u * (z * p));
    return r;
}

// atan2(y, x) with C99's special cases (signed zeros, infinities).
double atan2_d(double y, double x) {
    if (is_nan_d(x) || is_nan_d(y)) return nan_d();
    const double ax = abs(x), ay = abs(y);
    const bool xneg = sign_bit(x);
    precise double a;
    if (ay == 0.0) a = xneg ? PI_HI : 0.0;
    else if (is_inf_d(ax) && is_inf_d(ay)) a = xneg ? 2.356194490192345lf : 0.7853981633974483lf;
    else if (ax == 0.0 || is_inf_d(ay)) a = PIO2_HI;
    else if (is_inf_d(ax)) a = xneg ? PI_HI : 0.0;
    else {
        if (ay <= ax) a = atan_unit(div_rn(ay, ax));
        else a = (PIO2_HI - atan_unit(div_rn(ax, ay))) + PIO2_LO;
        if (xneg) a = (PI_HI - a) + PI_LO;
    }
    return sign_bit(y) ? -a : a;
}

// hypot(x, y): infinite if either is (even beside a NaN).
double hypot_d(double x, double y) {
    const double ax = abs(x), ay = abs(y);
    if (is_inf_d(ax) || is_inf_d(ay)) return inf_d();
    if (is_nan_d(ax) || is_nan_d(ay)) return nan_d();
    const double m = max(ax, ay), n = min(ax, ay);
    if (m == 0.0) return 0.0;
    if (m > 1e150 || m < 1e-150) {
        // Scale by 2^-600 or 2^600 (exact, denormals included) so the squares
        // neither overflow nor underflow, and back.
        const bool big = m > 1e150;
        const double s = ldexp(1.0lf, big ? -600 : 600), back = ldexp(1.0lf, big ? 600 : -600);
        precise double xm = m * s, xn = n * s;
        precise double q = xm * xm + xn * xn;
        precise double h = sqrt_rn(q) * back;
        return h;
    }
    precise double q = ax * ax + ay * ay;
    return sqrt_rn(q);
}

// Gmag in the class of Gx.
double gradient_magnitude(double gx, double gy) { return fr(hypot_d(gx, gy)); }

// atan2(-gy, gx) * 180 / pi in the class of Gx (single: the double atan2
// rounded once, as the reference takes it).
double gradient_direction(double gx, double gy) {
    const double pi_t = SINGLE != 0 ? 3.1415927410125732lf : PI_HI;
    precise double a = fr(atan2_d(-gy, gx));
    precise double d = fr(a * 180.0);
    return fr(div_rn(d, pi_t));
}

// Roberts' direction, in double.
double roberts_direction(double gx, double gy) {
    if (!is_nan_d(gx) && !is_nan_d(gy) && gx == 0.0 && gy == 0.0) return 0.0;
    const double quarter = SINGLE != 0 ? 0.7853981852531433lf : 0.7853981633974483lf;
    const double three = SINGLE != 0 ? 2.356194496154785lf : 2.356194490192345lf;
    double a;
    if (!is_nan_d(gx) && !is_nan_d(gy) && abs(gx) == abs(gy)) {
        a = -gx > 0.0 ? quarter : three;
        if (gy < 0.0) a = -a;
    } else {
        a = fr(atan2_d(gy, -gx));
    }
    precise double t = fr(a - quarter);
    if (t < -PI_HI) t = t + 6.283185307179586lf;
    precise double d = t * 180.0;
    return div_rn(d, PI_HI);
}
