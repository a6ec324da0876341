// SPDX-License-Identifier: Apache-2.0
// ipt.dither, the error diffusion of dither.comp (the CUDA backend's row
// pairs, one work group) with its input and output skewed as the CUDA
// backend's: dither_levels.comp writes the levels skewed and transposed, so
// that skewed column k holds, for every pair of rows p, the two levels pair
// p uses in step pair k (column k - p) in one 32-bit word (even row in bits
// 0-15, odd row in 16-31), word p of a contiguous column of lane_pairs words.
// The colour indices go out the same way, one word per pair and step pair,
// and dither_unskew.comp puts them back in place.
//
// The loop runs GROUP step pairs per iteration, unrolled, and each lane keeps
// its levels for the next GROUP step pairs in registers (staged[kk][i][ch]):
// in step pair k it takes the word of column k and issues the load of column
// k + GROUP into the same register, so every load has GROUP step pairs (2 *
// GROUP barriers) to arrive before it is used, and all lanes' loads of a step
// are one contiguous, coalesced run. (CUDA stages tiles of skewed columns in
// shared memory with cp.async, which Vulkan lacks; registers filled GROUP
// steps ahead hide the latency the same way.) No conversion is left in the
// loop: the levels are integers already.
//
// Slots between pairs as dither.comp, always in shared memory here (the host
// takes dither.comp when they do not fit). Steps past the last step pair
// (the loop's last iteration may run over) have no pixel: c = k - p >= cols.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int NCH = 1;        // 1: dither(I), grey; 3: RGB with map
layout(constant_id = 5) const int USE_TABLE = 1;  // RGB: inverse colormap table
layout(constant_id = 6) const int SLOTS = 64;     // slots in shared memory, at least pairs + 2
layout(constant_id = 7) const int PAIRS = 1;      // row pairs per lane
layout(constant_id = 8) const int GROUP = 8;      // step pairs per loop iteration: loads this far ahead

shared int even_slots[SLOTS * NCH];
shared int odd_slots[SLOTS * NCH];

layout(push_constant) uniform Push {
    uint64_t levels;   // uint32 [NCH][skewed_pad][lane_pairs] (dither_levels.comp)
    uint64_t mapq;     // int32 n x 3
    uint64_t table;    // uint32 per cell (RGB, USE_TABLE)
    uint64_t indices;  // uint32 [skewed_pad][lane_pairs]: index of row 2p in bits 0-15, row 2p+1 in 16-31
    int rows, cols, colours;
    int top, bias, shift, qm;
    int white_from;    // grey: the first clamped value whose colour is white
    int lane_pairs;    // lanes * PAIRS: the words of one skewed column
    int skewed_pad;    // columns of the skewed buffers, (iterations + 1) * GROUP
    int iterations;    // ceil((cols + pairs - 1) / GROUP)
} pc;

#include "dither_rule.glsl"

int low_half(int packed) { return (packed << 16) >> 16; }  // sign-extended
int high_half(int packed) { return packed >> 16; }

void main() {
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    const int pairs = (pc.rows + 1) / 2;
    for (int i = lane; i < SLOTS * NCH; i += width) {
        even_slots[i] = 0;
        odd_slots[i] = 0;
    }

    // Per pair i of this lane and channel ch, at [i * 3 + ch]: the shares
    // waiting for a pixel of the pair (named as in dither.comp).
    int t1_above[PAIRS * 3];     // even row, next column: 1/16 of the odd row above
    int t5_even[PAIRS * 3];      // even row, next column: 5/16 of the even row
    int t3_from_odd[PAIRS * 3];  // even row, next column: 3/16 of the odd row
    int t7_for_odd[PAIRS * 3];   // odd row, this column: 7/16 of the even row
    int t1_for_odd[PAIRS * 3];   // odd row, this column: 1/16 of the even row one column back
    int t1_pending[PAIRS * 3];   // odd row, next column: 1/16 of the even row
    int t5_odd[PAIRS * 3];       // odd row, next column: 5/16 of the odd row
    int level_odd[PAIRS * 3];
    int index_even[PAIRS];
    uint staged[GROUP * PAIRS * 3];  // [kk][i][ch]: the level words of step pair k0 + kk
    const int pair0 = lane * PAIRS;
    [[unroll]] for (int i = 0; i < PAIRS; ++i) {
        index_even[i] = 0;
        [[unroll]] for (int ch = 0; ch < NCH; ++ch) {
            const int s = i * 3 + ch;
            t1_above[s] = 0;
            t5_even[s] = 0;
            t3_from_odd[s] = 0;
            t7_for_odd[s] = 0;
            t1_for_odd[s] = 0;
            t1_pending[s] = 0;
            t5_odd[s] = 0;
            level_odd[s] = 0;
        }
    }
    [[unroll]] for (int kk = 0; kk < GROUP; ++kk)
        [[unroll]] for (int i = 0; i < PAIRS; ++i)
            [[unroll]] for (int ch = 0; ch < NCH; ++ch)
                staged[(kk * PAIRS + i) * 3 + ch] = BufU32(pc.levels).v[(ch * pc.skewed_pad + kk) * pc.lane_pairs + pair0 + i];
    barrier();

    for (int it = 0; it < pc.iterations; ++it) {
        [[unroll]] for (int kk = 0; kk < GROUP; ++kk) {
            const int k = it * GROUP + kk;
            // Even rows.
            [[unroll]] for (int i = 0; i < PAIRS; ++i) {
                const int p = pair0 + i, c = k - p;
                uint words[3];
                [[unroll]] for (int ch = 0; ch < NCH; ++ch) {
                    const int st = (kk * PAIRS + i) * 3 + ch;
                    words[ch] = staged[st];
                    staged[st] = BufU32(pc.levels).v[(ch * pc.skewed_pad + k + GROUP) * pc.lane_pairs + pair0 + i];
                }
                if (p >= pairs || c < 0 || c >= pc.cols) continue;
                int x[3] = {0, 0, 0};
                [[unroll]] for (int ch = 0; ch < NCH; ++ch) {
                    const int s = i * 3 + ch;
                    const int above = odd_slots[p * NCH + ch];  // slot of pair p - 1
                    x[ch] = int(words[ch] & 0xffffu) + low_half(above) + t1_above[s] + t5_even[s] + t3_from_odd[s];
                    t1_above[s] = high_half(above);
                    level_odd[s] = int(words[ch] >> 16);
                }
                index_even[i] = dither_pixel(x);
                [[unroll]] for (int ch = 0; ch < NCH; ++ch) {
                    const int s = i * 3 + ch;
                    t7_for_odd[s] = share(x[ch], 7);
                    t5_even[s] = share(x[ch], 5);
                    t1_pending[s] = share(x[ch], 1);
                    even_slots[(p + 1) * NCH + ch] = share(x[ch], 3);
                }
            }
            barrier();

            // Odd rows, same columns; then the pair's two indices.
            [[unroll]] for (int i = 0; i < PAIRS; ++i) {
                const int p = pair0 + i, c = k - p;
                if (p >= pairs || c < 0 || c >= pc.cols) continue;
                int index_odd = 0;
                if (2 * p + 1 < pc.rows) {
                    int x[3] = {0, 0, 0};
                    [[unroll]] for (int ch = 0; ch < NCH; ++ch) {
                        const int s = i * 3 + ch;
                        x[ch] = level_odd[s] + even_slots[(p + 2) * NCH + ch] + t7_for_odd[s] + t5_odd[s] + t1_for_odd[s];
                        t1_for_odd[s] = t1_pending[s];
                    }
                    index_odd = dither_pixel(x);
                    [[unroll]] for (int ch = 0; ch < NCH; ++ch) {
                        const int s = i * 3 + ch;
                        t5_odd[s] = share(x[ch], 5);
                        t3_from_odd[s] = share(x[ch], 3);
                        odd_slots[(p + 1) * NCH + ch] = (share(x[ch], 7) & 0xffff) | (share(x[ch], 1) << 16);
                    }
                }
                BufU32(pc.indices).v[k * pc.lane_pairs + p] = uint(index_even[i]) | (uint(index_odd) << 16);
            }
            barrier();
        }
    }
}
