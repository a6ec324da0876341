// SPDX-License-Identifier: Apache-2.0
// The correlation engine shared by conv2, imfilter and edge:
//
//   out(o, c) = sum over taps (t, s) of w(t, s) * P(o + off_r + t, c + off_c + s)
//
// where w is the kernel (rotated by 180 degrees when ROTATE, for
// convolution) and P the source with a padding rule:
//   PAD 0: terms outside the source are left out (MATLAB's conv2, which sums
//          the overlapping terms only: 0 * Inf in a kernel never appears);
//   PAD 1: constant pad_value; 2: symmetric; 3: replicate; 4: circular.
// SKIP_ZERO drops taps whose weight is exactly 0 (imfilter uses the nonzero
// taps of h only). The taps of a kernel row are summed into a partial first,
// then the partials are added, in the reference's order and without fused
// multiply-adds, so integer outputs round exactly as the CPU backend's do.
// Each invocation computes PER_INV outputs of one column, consecutive rows
// (they share most source rows). Work group z is the channel plane.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT_A = DT_DOUBLE;
layout(constant_id = 5) const int DT_K = DT_DOUBLE;
layout(constant_id = 6) const int DT_OUT = DT_DOUBLE;
layout(constant_id = 7) const int ACC_DOUBLE = 1;
layout(constant_id = 8) const int PAD = 0;
layout(constant_id = 9) const int SKIP_ZERO = 0;
layout(constant_id = 10) const int ROTATE = 0;
// TILED: the work group's source tile (padding resolved, converted to the
// accumulation class) and the kernel are staged in shared memory first; the
// host chooses it when both fit (tile_w x tile_h <= TILE_CAP, kr*kc <= K_CAP).
layout(constant_id = 11) const int TILED = 0;
const int TILE_CAP = 2048;
const int K_CAP = 512;
shared double tile_d[TILED != 0 && ACC_DOUBLE != 0 ? TILE_CAP : 1];
shared float tile_f[TILED != 0 && ACC_DOUBLE == 0 ? TILE_CAP : 1];
shared double kernel_d[TILED != 0 ? K_CAP : 1];

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t k;
    uint64_t out_;
    double pad_value;
    int ma, na;              // source plane
    int out_rows, out_cols;
    int off_r, off_c;
    int kr, kc;
    int tile_w, tile_h;      // TILED: group width + kc - 1, group rows + kr - 1
} pc;

const int MAX_PER_INV = 8;

// Maps a source index onto [0, n) by the padding rule; -1: outside (PAD 0
// skips the term, PAD 1 uses the constant).
int pad_index(int i, int n) {
    if (i >= 0 && i < n) return i;
    if (PAD == 2) return symmetric_index(i, n);
    if (PAD == 3) return clamp(i, 0, n - 1);
    if (PAD == 4) return floor_mod(i, n);
    return -1;
}

double weight_d(int t, int s) {
    const int idx = ROTATE != 0 ? (pc.kr - 1 - t) * pc.kc + (pc.kc - 1 - s) : t * pc.kc + s;
    return DT_K == DT_SINGLE ? double(BufF32(pc.k).v[idx]) : BufF64(pc.k).v[idx];
}

int source_bytes() {
    return DT_A == DT_DOUBLE ? 8 : (DT_A == DT_SINGLE || DT_A == DT_INT32 || DT_A == DT_UINT32) ? 4
         : (DT_A == DT_UINT16 || DT_A == DT_INT16) ? 2 : 1;
}

void main() {
    const int c = int(gl_GlobalInvocationID.x);
    const int o_base = int(gl_WorkGroupID.y * gl_WorkGroupSize.y * PER_INV);
    const int o0 = o_base + int(gl_LocalInvocationID.y);
    const int stride = int(gl_WorkGroupSize.y);
    const int plane = int(gl_WorkGroupID.z);
    const uint64_t a = pc.a + uint64_t(plane) * uint64_t(pc.ma) * uint64_t(pc.na) * uint64_t(source_bytes());
    const int out_plane = plane * pc.out_rows * pc.out_cols;
    const int c_base = int(gl_WorkGroupID.x * gl_WorkGroupSize.x);

    if (TILED != 0) {
        // Every invocation helps to stage, then waits (no early return before).
        const int lanes = int(gl_WorkGroupSize.x * gl_WorkGroupSize.y);
        const int lane = int(gl_LocalInvocationIndex);
        for (int idx = lane; idx < pc.tile_w * pc.tile_h; idx += lanes) {
            const int ty = idx / pc.tile_w, tx = idx - ty * pc.tile_w;
            const int row = pad_index(o_base + pc.off_r + ty, pc.ma);
            const int col = pad_index(c_base + pc.off_c + tx, pc.na);
            const bool inside = row >= 0 && col >= 0;
            if (ACC_DOUBLE != 0) tile_d[idx] = inside ? load_d(a, DT_A, row * pc.na + col) : (PAD == 0 ? 0.0 : pc.pad_value);
            else tile_f[idx] = inside ? load_f(a, DT_A, row * pc.na + col) : (PAD == 0 ? 0.0 : float(pc.pad_value));
        }
        for (int idx = lane; idx < pc.kr * pc.kc; idx += lanes) {
            const int t = idx / pc.kc;
            kernel_d[idx] = weight_d(t, idx - t * pc.kc);
        }
        barrier();
    }
    if (c >= pc.out_cols || o0 >= pc.out_rows) return;

    precise double acc_d[MAX_PER_INV];
    precise double part_d[MAX_PER_INV];
    precise float acc_f[MAX_PER_INV];
    precise float part_f[MAX_PER_INV];
    for (int k = 0; k < int(PER_INV); ++k) {
        acc_d[k] = 0.0;
        acc_f[k] = 0.0;
    }
    for (int t = 0; t < pc.kr; ++t) {
        for (int k = 0; k < int(PER_INV); ++k) {
            part_d[k] = 0.0;
            part_f[k] = 0.0;
        }
        bool any = false;
        for (int s = 0; s < pc.kc; ++s) {
            const double w = TILED != 0 ? kernel_d[t * pc.kc + s] : weight_d(t, s);
            if (SKIP_ZERO != 0 && w == 0.0) continue;
            any = true;
            const int col_index = c + pc.off_c + s;
            const int col = pad_index(col_index, pc.na);
            if (col < 0 && PAD == 0) continue;
            for (int k = 0; k < int(PER_INV); ++k) {
                const int o = o0 + k * stride;
                const int row = pad_index(o + pc.off_r + t, pc.ma);
                if ((row < 0 || col < 0) && PAD == 0) continue;
                if (TILED != 0) {
                    const int ti = (o - o_base + t) * pc.tile_w + (c - c_base + s);
                    if (ACC_DOUBLE != 0) {
                        precise double p = w * tile_d[ti];
                        part_d[k] = part_d[k] + p;
                    } else {
                        precise float p = float(w) * tile_f[ti];
                        part_f[k] = part_f[k] + p;
                    }
                } else if (ACC_DOUBLE != 0) {
                    const double x = (row < 0 || col < 0) ? pc.pad_value : load_d(a, DT_A, row * pc.na + col);
                    precise double p = w * x;
                    part_d[k] = part_d[k] + p;
                } else {
                    const float x = (row < 0 || col < 0) ? float(pc.pad_value) : load_f(a, DT_A, row * pc.na + col);
                    precise float p = float(w) * x;
                    part_f[k] = part_f[k] + p;
                }
            }
        }
        if (!any) continue;
        for (int k = 0; k < int(PER_INV); ++k) {
            acc_d[k] = acc_d[k] + part_d[k];
            acc_f[k] = acc_f[k] + part_f[k];
        }
    }
    for (int k = 0; k < int(PER_INV); ++k) {
        const int o = o0 + k * stride;
        if (o >= pc.out_rows) break;
        store_d(pc.out_, DT_OUT, out_plane + o * pc.out_cols + c, ACC_DOUBLE != 0 ? acc_d[k] : double(acc_f[k]));
    }
}
