// SPDX-License-Identifier: Apache-2.0
// Double-precision helpers GLSL lacks or does not pin down: correctly
// rounded division and square root (Vulkan allows both to be approximate, and
// does not promise a fused fma), and log, exp and pow in double (GLSL has
// them for float only).
// Include after ipt_common.glsl.

// The exact product a*b = p + e (Dekker's TwoProduct with Veltkamp's split),
// from multiplications and additions alone: Vulkan does not promise that
// fma() rounds once, so it cannot be used for exact residuals. Valid unless
// a*b overflows or underflows.
dvec2 two_prod(double a, double b) {
    precise double p = a * b;
    precise double ca = 134217729.0 * a;  // 2^27 + 1
    precise double ah = ca - (ca - a);
    precise double al = a - ah;
    precise double cb = 134217729.0 * b;
    precise double bh = cb - (cb - b);
    precise double bl = b - bh;
    precise double e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
    return dvec2(p, e);
}

// a - q*b, exact when q*b is close to a (Sterbenz) and nothing overflows.
double residual(double a, double q, double b) {
    const dvec2 pe = two_prod(q, b);
    precise double r = (a - pe.x) - pe.y;
    return r;
}

double next_toward(double q, bool up) {
    uvec2 bits = unpackDouble2x32(q);
    uint64_t u = (uint64_t(bits.y) << 32) | uint64_t(bits.x);
    u = ((q > 0.0) == up) ? u + 1ul : u - 1ul;
    return packDouble2x32(uvec2(uint(u & 0xFFFFFFFFul), uint(u >> 32)));
}

// a / b rounded to nearest, as IEEE division. The hardware quotient is at most
// a few ulp off; the exact residual of it and of its neighbours picks the
// nearest (an exact tie cannot happen for finite binary quotients). Falls
// back to the hardware quotient where the residual could overflow.
double div_rn(double a, double b) {
    precise double q = a / b;
    if (is_nan_d(q) || isinf(q) || q == 0.0 || isinf(b) || b == 0.0) return q;
    if (abs(a) > 1e300 || abs(b) > 1e300 || abs(a) < 1e-290 || abs(b) < 1e-290) return q;
    for (int step = 0; step < 3; ++step) {
        const double r = residual(a, q, b);
        if (r == 0.0) return q;
        const double q2 = next_toward(q, (r > 0.0) == (b > 0.0));
        const double r2 = residual(a, q2, b);
        if (abs(r2) < abs(r)) q = q2;
        else return q;
    }
    return q;
}

// sqrt(x) rounded to nearest for finite x >= 0: of the hardware root and its
// neighbours, the one whose square is nearest x (exact residuals).
double sqrt_rn(double x) {
    precise double s = sqrt(x);
    if (!(s > 0.0) || isinf(s) || x > 1e300 || x < 1e-290) return s;
    for (int step = 0; step < 3; ++step) {
        const double r = residual(x, s, s);
        if (r == 0.0) return s;
        const double s2 = next_toward(s, r > 0.0);
        if (abs(residual(x, s2, s2)) < abs(r)) s = s2;
        else return s;
    }
    return s;
}

// Natural logarithm for finite x > 0 (about 1 ulp).
double log_d(double x) {
    int e;
    precise double m = frexp(x, e);  // x = m * 2^e, m in [0.5, 1)
    if (m < 0.70710678118654752440) {
        m *= 2.0;
        e -= 1;
    }
    // log(m) = 2 atanh(f), f = (m-1)/(m+1), |f| <= 0.1716
    precise double f = (m - 1.0) / (m + 1.0);
    precise double f2 = f * f;
    precise double s = 1.0 / 23.0;
    s = s * f2 + 1.0 / 21.0;
    s = s * f2 + 1.0 / 19.0;
    s = s * f2 + 1.0 / 17.0;
    s = s * f2 + 1.0 / 15.0;
    s = s * f2 + 1.0 / 13.0;
    s = s * f2 + 1.0 / 11.0;
    s = s * f2 + 1.0 / 9.0;
    s = s * f2 + 1.0 / 7.0;
    s = s * f2 + 1.0 / 5.0;
    s = s * f2 + 1.0 / 3.0;
    precise double log_m = 2.0 * f + 2.0 * f * f2 * s;
    const double ln2_hi = 6.93147180369123816490e-01;  // 32 leading bits of ln 2
    const double ln2_lo = 1.90821492927058770002e-10;
    return double(e) * ln2_hi + (double(e) * ln2_lo + log_m);
}

// e^x (about 1 ulp); underflows to 0 and overflows to +Inf.
double exp_d(double x) {
    if (x > 709.78) return 1.0 / 0.0;
    if (x < -745.2) return 0.0;
    const double ln2_hi = 6.93147180369123816490e-01;
    const double ln2_lo = 1.90821492927058770002e-10;
    precise double k = round_half_away(x * 1.44269504088896338700);
    precise double r = (x - k * ln2_hi) - k * ln2_lo;  // |r| <= ln2/2
    precise double p = 1.0 / 6227020800.0;            // 1/13!
    p = p * r + 1.0 / 479001600.0;
    p = p * r + 1.0 / 39916800.0;
    p = p * r + 1.0 / 3628800.0;
    p = p * r + 1.0 / 362880.0;
    p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    // ldexp in two steps so that 2^k stays representable near the ends.
    const int ki = int(k);
    const int first = ki / 2;
    return ldexp(ldexp(p, first), ki - first);
}

// y^g for y in [0, 1] and g >= 0 (imadjust's gamma), with std::pow's special
// cases for 0 and 1.
double pow_unit(double y, double g) {
    if (g == 1.0) return y;
    if (g == 0.0 || y == 1.0) return 1.0;
    if (y == 0.0) return 0.0;
    return exp_d(g * log_d(y));
}
