// SPDX-License-Identifier: Apache-2.0
// ipt.adapthisteq, pass 2: every pixel's mapping bin (the host's value bins,
// indexed as grayxform indexes), its four nearest tiles' table values and
// MATLAB's bilinear blend in double (backends/common/ops/adapthisteq.hpp:
// clahe_grayxform_index, clahe_axis, adapthisteq_blend). Integer classes
// round the blend of exact integers half away as (2S + D) / 2D in integers,
// which is what the correctly rounded S/D + 0.5 gives.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;

layout(push_constant) uniform Push {
    uint64_t a;         // I
    uint64_t bins;      // int32 [nvalue]: mapping bin per first-stage index
    uint64_t table;     // double [tiles][nbins], on the working scale
    uint64_t j;         // J
    double top;         // 255, 65535 or 1
    double scale1;      // (nvalue-1)/top for integer classes
    int nvalue;
    int nbins;
    int rows, cols;
    int tiles_r, tiles_c, tile_h, tile_w;
    int pad_top, pad_left;
    int H, W;
} pc;

void axis(int y, int tile, int tiles, int len, out int t0, out int t1, out int w, out int n) {
    const int half_tile = tile / 2;
    if (y < half_tile) {
        t0 = 0; t1 = 0; w = y; n = half_tile;
    } else if (y >= len - half_tile) {
        t0 = tiles - 1; t1 = tiles - 1; w = y - (len - half_tile); n = half_tile;
    } else {
        const int q = y - half_tile;
        t0 = q / tile; t1 = t0 + 1; w = q % tile; n = tile;
    }
}

int first_index(int i) {
    const int n = pc.nvalue;
    if (DT == DT_UINT8 || DT == DT_UINT16 || DT == DT_INT16) {
        int u;
        if (DT == DT_UINT8) u = int(uint(BufU8(pc.a).v[i]));
        else if (DT == DT_UINT16) u = int(uint(BufU16(pc.a).v[i]));
        else u = int(BufI16(pc.a).v[i]) + 32768;
        if (double(n) == pc.top + 1.0) return u;
        precise double idx = double(u) * pc.scale1 + 0.5;
        return int(min(int64_t(idx), int64_t(n - 1)));
    }
    const double u = DT == DT_SINGLE ? double(BufF32(pc.a).v[i]) : BufF64(pc.a).v[i];
    if (!(u > 0.0)) return 0;
    if (u >= 1.0) return n - 1;
    precise double idx = u * double(n - 1) + 0.5;
    return int(min(int64_t(idx), int64_t(n - 1)));
}

void main() {
    const int width = int(gl_WorkGroupSize.x);
    const int begin = int(linear_group()) * width * int(PER_INV) + int(gl_LocalInvocationID.x);
    const int numel = pc.rows * pc.cols;
    for (int k = 0; k < int(PER_INV); ++k) {
        const int i = begin + k * width;
        if (i >= numel) return;
        int r0, r1, rw, rn, c0, c1, cw, cn;
        axis(i / pc.cols + pc.pad_top, pc.tile_h, pc.tiles_r, pc.H, r0, r1, rw, rn);
        axis(i % pc.cols + pc.pad_left, pc.tile_w, pc.tiles_c, pc.W, c0, c1, cw, cn);
        const int b = BufI32(pc.bins).v[first_index(i)];
        const double ul = BufF64(pc.table).v[(r0 * pc.tiles_c + c0) * pc.nbins + b];
        const double ur = BufF64(pc.table).v[(r0 * pc.tiles_c + c1) * pc.nbins + b];
        const double bl = BufF64(pc.table).v[(r1 * pc.tiles_c + c0) * pc.nbins + b];
        const double br = BufF64(pc.table).v[(r1 * pc.tiles_c + c1) * pc.nbins + b];
        const double rW = double(rw), rR = double(rn - rw), cW = double(cw), cR = double(cn - cw);
        precise double up = cR * ul + cW * ur;
        precise double low = cR * bl + cW * br;
        precise double s = rR * up + rW * low;
        if (DT == DT_SINGLE || DT == DT_DOUBLE) {
            precise double v = s / double(rn * cn);
            if (DT == DT_SINGLE) BufF32(pc.j).v[i] = float(v);
            else BufF64(pc.j).v[i] = v;
        } else {
            const int64_t d = int64_t(rn) * int64_t(cn);
            int64_t q = (2l * int64_t(s) + d) / (2l * d);
            q = min(q, int64_t(pc.top));
            if (DT == DT_UINT8) BufU8(pc.j).v[i] = uint8_t(q);
            else if (DT == DT_UINT16) BufU16(pc.j).v[i] = uint16_t(q);
            else BufI16(pc.j).v[i] = int16_t(q - 32768l);
        }
    }
}
