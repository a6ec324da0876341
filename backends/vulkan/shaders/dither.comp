// SPDX-License-Identifier: Apache-2.0
// ipt.dither: MATLAB's ditherc. Floyd-Steinberg with integer error shares
// over a column-major scan. Pixel (r, c) receives shares of (r-1, c),
// (r-1, c-1), (r, c-1) and (r+1, c-1), so it can run at step r + 2c: a
// wavefront, walked by one work group with the CUDA backend's row pairs
// (backends/cuda/ops/dither.cu).
//
// Lane j owns PAIRS consecutive pairs of rows. Pair p (rows 2p and 2p+1) is
// at column k - p in step pair k: its even row in the first half, its odd row
// in the second, a barrier after each. Everything a pixel needs from its own
// pair stays in registers; the one value per half that crosses pairs goes
// through a slot (pair p at index p + 1, the outer two never written, so
// zero):
//   even slot p: the 3/16 share of row 2p, for the odd row of pair p-1,
//                which is one column ahead;
//   odd slot p:  the 7/16 and 1/16 shares of row 2p+1, for the even row of
//                pair p+1 in the next step pair (same column).
// A slot is written in one half, read in the next and rewritten only after
// another barrier. A share is at most 7/16 of 65535 in magnitude, so the two
// of an odd slot are packed as 16-bit halves of one int. The slots live in
// shared memory when they fit (SLOTS > 0), else in a global buffer, ordered
// by a work-group-scope barrier (one work group: no device-scope fence).
//
// Each pair loads its next column's input a step pair ahead. This is the
// direct path, for images too tall for the skewed buffers of
// dither_skewed.comp (the default, which reads the levels skewed and loads
// them further ahead) and for IPT_VULKAN_DITHER=direct. Grey images
// pick the colour by a threshold (white from pc.white_from); RGB images look
// up the inverse colormap table (the front-end's) or search the colormap.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "ipt_common.glsl"
#include "ipt_math.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;
layout(constant_id = 5) const int NCH = 1;        // 1: dither(I), grey; 3: RGB with map
layout(constant_id = 6) const int USE_TABLE = 1;  // RGB: inverse colormap table
layout(constant_id = 7) const int OUT_DT = DT_LOGICAL;
layout(constant_id = 8) const int SLOTS = 0;      // > 0: slots in shared memory, at least pairs + 2
layout(constant_id = 9) const int PAIRS = 1;      // row pairs per lane

shared int even_slots[SLOTS > 0 ? SLOTS * NCH : 1];
shared int odd_slots[SLOTS > 0 ? SLOTS * NCH : 1];

layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer Slots { int v[]; };

layout(push_constant) uniform Push {
    uint64_t img;
    uint64_t mapq;    // int32 n x 3
    uint64_t table;   // uint32 per cell (RGB, USE_TABLE)
    uint64_t slots;   // int32 [2][slot_count][NCH] (SLOTS == 0): even slots, then odd
    uint64_t out_;
    int rows, cols, colours;
    int top, bias, shift, qm;
    int white_from;   // grey: the first clamped value whose colour is white
    int slot_count;   // pairs + 2
} pc;

// ---- input ----

// The raw bits of channel ch of pixel (r, c); converted only when used, so
// that a load issued a step pair ahead is not waited for.
uint64_t input_bits(int ch, int r, int c) {
    const int plane = NCH == 1 ? 0 : ch * pc.rows * pc.cols;
    return load_bits(pc.img, DT, plane + r * pc.cols + c);
}

// im2uint8 of an input value, as the reference converts it.
int to_uint8(uint64_t bits) {
    switch (DT) {
    case DT_UINT8: return int(bits);
    case DT_UINT16: return int(saturate_round(div_rn(double(uint(bits)), 257.0), 0.0, 255.0));
    case DT_SINGLE: {
        precise float s = 255.0 * uintBitsToFloat(uint(bits));
        return int(saturate_round(double(s), 0.0, 255.0));
    }
    default: {
        precise double s = 255.0 * packDouble2x32(uvec2(uint(bits), uint(bits >> 32)));
        return int(saturate_round(s, 0.0, 255.0));
    }
    }
}

// floor(v*(L-1)/255 + 0.5) in integers.
int quantise(uint64_t bits) {
    const int64_t a = int64_t(to_uint8(bits)) * int64_t(pc.top);
    return int((2l * a + 255l) / 510l);
}

// ---- the rule of one pixel ----

#include "dither_rule.glsl"

// Pixel (r, c) with accumulated values x: writes the colour index and turns
// x into the errors.
void diffuse(int r, int c, inout int x[3]) {
    const int idx = dither_pixel(x);
    const int at = r * pc.cols + c;
    if (OUT_DT == DT_UINT16) BufU16(pc.out_).v[at] = uint16_t(idx);
    else BufU8(pc.out_).v[at] = uint8_t(idx);
}

// ---- slots ----

int slot_index(int p, int ch) { return (p + 1) * NCH + ch; }

int load_even(int p, int ch) {
    const int i = slot_index(p, ch);
    return SLOTS > 0 ? even_slots[i] : Slots(pc.slots).v[i];
}
void store_even(int p, int ch, int s3) {
    const int i = slot_index(p, ch);
    if (SLOTS > 0) even_slots[i] = s3;
    else Slots(pc.slots).v[i] = s3;
}
int load_odd(int p, int ch) {
    const int i = slot_index(p, ch);
    return SLOTS > 0 ? odd_slots[i] : Slots(pc.slots).v[pc.slot_count * NCH + i];
}
void store_odd(int p, int ch, int s7, int s1) {
    const int i = slot_index(p, ch), packed = (s7 & 0xffff) | (s1 << 16);
    if (SLOTS > 0) odd_slots[i] = packed;
    else Slots(pc.slots).v[pc.slot_count * NCH + i] = packed;
}
int low_half(int packed) { return (packed << 16) >> 16; }  // sign-extended
int high_half(int packed) { return packed >> 16; }

void step_barrier() {
    if (SLOTS == 0) groupMemoryBarrier();
    barrier();
}

void main() {
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    const int pairs = (pc.rows + 1) / 2;
    for (int i = lane; i < pc.slot_count * NCH; i += width) {
        if (SLOTS > 0) {
            even_slots[i] = 0;
            odd_slots[i] = 0;
        } else {
            Slots(pc.slots).v[i] = 0;
            Slots(pc.slots).v[pc.slot_count * NCH + i] = 0;
        }
    }
    step_barrier();

    // Per pair i of this lane and channel ch, at [i * 3 + ch]: the shares
    // waiting for a pixel of the pair, and the input of its next column.
    int t1_above[PAIRS * 3];     // even row, next column: 1/16 of the odd row above
    int t5_even[PAIRS * 3];      // even row, next column: 5/16 of the even row
    int t3_from_odd[PAIRS * 3];  // even row, next column: 3/16 of the odd row
    int t7_for_odd[PAIRS * 3];   // odd row, this column: 7/16 of the even row
    int t1_for_odd[PAIRS * 3];   // odd row, this column: 1/16 of the even row one column back
    int t1_pending[PAIRS * 3];   // odd row, next column: 1/16 of the even row
    int t5_odd[PAIRS * 3];       // odd row, next column: 5/16 of the odd row
    int level_odd[PAIRS * 3];
    uint64_t next_even[PAIRS * 3], next_odd[PAIRS * 3];
    const int pair0 = lane * PAIRS;
    [[unroll]] for (int i = 0; i < PAIRS; ++i) {
        const int p = pair0 + i;
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
            next_even[s] = p < pairs ? input_bits(ch, 2 * p, 0) : 0ul;
            next_odd[s] = 2 * p + 1 < pc.rows ? input_bits(ch, 2 * p + 1, 0) : 0ul;
        }
    }

    const int step_pairs = pc.cols + pairs - 1;
    for (int k = 0; k < step_pairs; ++k) {
        // Even rows.
        [[unroll]] for (int i = 0; i < PAIRS; ++i) {
            const int p = pair0 + i, c = k - p;
            if (p >= pairs || c < 0 || c >= pc.cols) continue;
            const bool odd_row = 2 * p + 1 < pc.rows;
            int x[3] = {0, 0, 0};
            [[unroll]] for (int ch = 0; ch < NCH; ++ch) {
                const int s = i * 3 + ch;
                const int above = load_odd(p - 1, ch);
                x[ch] = quantise(next_even[s]) + low_half(above) + t1_above[s] + t5_even[s] + t3_from_odd[s];
                t1_above[s] = high_half(above);
                level_odd[s] = quantise(next_odd[s]);
                if (c + 1 < pc.cols) {
                    next_even[s] = input_bits(ch, 2 * p, c + 1);
                    if (odd_row) next_odd[s] = input_bits(ch, 2 * p + 1, c + 1);
                }
            }
            diffuse(2 * p, c, x);
            [[unroll]] for (int ch = 0; ch < NCH; ++ch) {
                const int s = i * 3 + ch;
                t7_for_odd[s] = share(x[ch], 7);
                t5_even[s] = share(x[ch], 5);
                t1_pending[s] = share(x[ch], 1);
                store_even(p, ch, share(x[ch], 3));
            }
        }
        step_barrier();

        // Odd rows, same columns.
        [[unroll]] for (int i = 0; i < PAIRS; ++i) {
            const int p = pair0 + i, c = k - p;
            if (2 * p + 1 >= pc.rows || c < 0 || c >= pc.cols) continue;
            int x[3] = {0, 0, 0};
            [[unroll]] for (int ch = 0; ch < NCH; ++ch) {
                const int s = i * 3 + ch;
                x[ch] = level_odd[s] + load_even(p + 1, ch) + t7_for_odd[s] + t5_odd[s] + t1_for_odd[s];
                t1_for_odd[s] = t1_pending[s];
            }
            diffuse(2 * p + 1, c, x);
            [[unroll]] for (int ch = 0; ch < NCH; ++ch) {
                const int s = i * 3 + ch;
                t5_odd[s] = share(x[ch], 5);
                t3_from_odd[s] = share(x[ch], 3);
                store_odd(p, ch, share(x[ch], 7), share(x[ch], 1));
            }
        }
        step_barrier();
    }
}
