// SPDX-License-Identifier: Apache-2.0
// ipt.adapthisteq, pass 1: one work group per tile counts the tile's pixels
// of the symmetrically padded image (backends/common/ops/adapthisteq.hpp;
// symmetric_index) in imhist's NBINS bins (imhist_bin.glsl). Up to
// SHARED_BINS bins are counted in shared memory first; more go straight to
// global atomics.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "imhist_bin.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;
layout(constant_id = 5) const int NBINS = 256;
const int SHARED_BINS = 2048;

layout(push_constant) uniform Push {
    uint64_t a;         // I, rows x cols
    uint64_t hist;      // uint32 [tiles][NBINS], zeroed
    double int_scale;   // (NBINS-1)/top for scaled integer bins
    int rows, cols;
    int tiles_c, tile_h, tile_w;
    int pad_top, pad_left;
    int tiles;
} pc;

shared uint local_hist[NBINS <= SHARED_BINS ? NBINS : 1];

void main() {
    const int tile = int(linear_group());
    if (tile >= pc.tiles) return;
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    const int y0 = (tile / pc.tiles_c) * pc.tile_h, x0 = (tile % pc.tiles_c) * pc.tile_w;
    const uint64_t hist = pc.hist + uint64_t(tile) * uint64_t(NBINS) * 4ul;
    const bool shared_bins = NBINS <= SHARED_BINS;
    if (shared_bins) {
        for (int b = lane; b < NBINS; b += width) local_hist[b] = 0u;
        barrier();
    }
    const int n = pc.tile_h * pc.tile_w;
    for (int k = lane; k < n; k += width) {
        const int y = symmetric_index(y0 + k / pc.tile_w - pc.pad_top, pc.rows);
        const int x = symmetric_index(x0 + k % pc.tile_w - pc.pad_left, pc.cols);
        const int b = imhist_bin(pc.a, y * pc.cols + x, DT, NBINS, pc.int_scale);
        if (shared_bins) atomicAdd(local_hist[b], 1u);
        else atomicAdd(BufU32(hist).v[b], 1u);
    }
    if (shared_bins) {
        barrier();
        for (int b = lane; b < NBINS; b += width)
            if (local_hist[b] != 0u) atomicAdd(BufU32(hist).v[b], local_hist[b]);
    }
}
