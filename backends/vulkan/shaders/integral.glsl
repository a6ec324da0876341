// SPDX-License-Identifier: Apache-2.0
// Shared by the integral-image and box-filter shaders: the padded plane P of
// an image A (m x n, class DT) under the border rule PAD,
// P(r, c) = A(border(r - top, m), border(c - left, n)), or the constant.
// Include after ipt_common.glsl; declares constant_id 4 and 5.

layout(constant_id = 4) const int DT = DT_DOUBLE;
// Border rule of P outside the image: 1 constant, 2 symmetric, 3 replicate, 4 circular.
layout(constant_id = 5) const int PAD = 3;

// A's row or column for P's index i (any i), or -1 for the constant.
int border(int i, int n) {
    if (i >= 0 && i < n) return i;
    if (PAD == 2) return symmetric_index(i, n);
    if (PAD == 3) return clamp(i, 0, n - 1);
    if (PAD == 4) return floor_mod(i, n);
    return -1;
}

// P's value at A's row ar and column ac (border()'s results; A has n columns).
double padded_value(uint64_t a, int n, int ar, int ac, double pad) {
    return (ar < 0 || ac < 0) ? pad : load_d(a, DT, ar * n + ac);
}
