// SPDX-License-Identifier: Apache-2.0
// ipt.bwdist, phase 2: for each pixel, the nearest feature over the columns,
// searched outwards from the pixel's own column (left before right) and
// stopped once the column distance alone reaches the best distance found
// (every metric is >= the column distance). Equal distances keep the lowest
// column, and phase 1 the upper row: the lowest linear index (chessboard,
// where rows of one column can tie, takes the first feature at or below
// r - D). D is single, IDX the 1-based column-major index (0 without any
// feature, where D is Inf).
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "ipt_math.glsl"

layout(constant_id = 4) const int METRIC = 0;  // 0 euclidean, 1 cityblock, 2 chessboard, 3 quasi-euclidean
layout(constant_id = 5) const int WANT_IDX = 0;

layout(push_constant) uniform Push {
    uint64_t nearest;
    uint64_t below;
    uint64_t d;
    uint64_t idx;
    double quasi_k;  // sqrt(2) - 1
    int rows, cols;
} pc;

// Distance of column offset dx and row offset g, as a double that orders
// like the metric (euclidean: the square, exact).
double metric(int dx, int g) {
    if (METRIC == 0) return double(int64_t(dx) * int64_t(dx) + int64_t(g) * int64_t(g));
    if (METRIC == 1) return double(dx + g);
    if (METRIC == 2) return double(max(dx, g));
    precise double q = dx > g ? double(dx) + pc.quasi_k * double(g) : double(g) + pc.quasi_k * double(dx);
    return q;
}

// Smallest possible distance in a column dx away, in metric() units.
double bound(int dx) { return METRIC == 0 ? double(int64_t(dx) * int64_t(dx)) : double(dx); }

void main() {
    const int c = int(gl_GlobalInvocationID.x);
    const int r = int(gl_GlobalInvocationID.y);
    if (c >= pc.cols || r >= pc.rows) return;
    double best = 1.0 / 0.0;
    int best_col = -1, best_row = -1;
    for (int dx = 0; dx < pc.cols; ++dx) {
        if (bound(dx) > best) break;
        for (int side = 0; side < 2; ++side) {
            if (dx == 0 && side == 1) break;
            const int x = side == 0 ? c - dx : c + dx;
            if (x < 0 || x >= pc.cols) continue;
            const int fr = BufI32(pc.nearest).v[r * pc.cols + x];
            if (fr < 0) continue;
            const double v = metric(dx, abs(fr - r));
            if (v < best || (v == best && x < best_col)) {
                best = v;
                best_col = x;
                best_row = fr;
            }
        }
    }
    const int at = r * pc.cols + c;
    float dist;
    if (best_col < 0) dist = 1.0 / 0.0;
    else if (METRIC == 0) dist = float(sqrt_rn(best));  // float(sqrt(double)), as the reference
    else dist = float(best);
    BufF32(pc.d).v[at] = dist;
    if (WANT_IDX != 0) {
        uint index = 0u;
        if (best_col >= 0) {
            int row = best_row;
            if (METRIC == 2) row = BufI32(pc.below).v[max(r - int(best), 0) * pc.cols + best_col];
            index = uint(best_col) * uint(pc.rows) + uint(row) + 1u;
        }
        BufU32(pc.idx).v[at] = index;
    }
}
