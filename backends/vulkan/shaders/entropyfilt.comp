// SPDX-License-Identifier: Apache-2.0
// ipt.entropyfilt, second pass: J(p) = -sum over the occupied bins b of the
// neighbourhood, in increasing order, of T[count(b)], T[k] = q log2 q with
// q = k/n from the host (common/ops/entropyfilt.hpp: the CPU reference's
// doubles in its order). Each invocation owns one column and slides a running
// histogram down a strip of rows of the padded bins (entropyfilt_pad.comp):
// per step the members `leave` lose their pixel and the members `enter` gain
// one, whatever the nhood. Counts are packed BITS wide (n < 2^BITS) in words
// laid out word-major by invocation (neighbouring invocations in different
// banks), beside a bit per occupied bin; in shared memory (STORE 0) or, where
// that does not fit, in a global scratch slot per invocation (STORE 1). Work
// group y is the strip, z the channel plane.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int BITS = 8;
layout(constant_id = 5) const int STORE = 0;  // 0: shared, 1: global scratch

const int PER_WORD = 32 / BITS;
const int HIST_WORDS = 256 / PER_WORD;
const uint FIELD = 0xFFFFFFFFu >> (32 - BITS);

shared uint hist_s[STORE == 0 ? HIST_WORDS * gl_WorkGroupSize.x : 1];
shared uint occ_s[STORE == 0 ? 8 * gl_WorkGroupSize.x : 1];

layout(buffer_reference, std430, buffer_reference_align = 8) buffer Offsets { int v[]; };

layout(push_constant) uniform Push {
    uint64_t padded;  // uint8 bins, prows x pcols per plane
    uint64_t j;
    uint64_t offsets;  // int: all members, then leave, then enter (enter already one row down)
    uint64_t terms;    // double [n + 1]
    uint64_t scratch;  // uint, (HIST_WORDS + 8) x slots (STORE 1)
    int rows, cols, prows, pcols;
    int strip;
    int n_all, n_leave, n_enter;
    int slots;  // invocations in the dispatch (STORE 1)
} pc;

int lane;    // this invocation's column of words (STORE 1)
int stride;  // words between one of its words and the next (STORE 1)

// Index of this invocation's word w: in shared memory by the invocation's
// place in the group (constants the compiler folds), else in its slot.
int slot_word(int w) {
    return STORE == 0 ? w * int(gl_WorkGroupSize.x) + int(gl_LocalInvocationID.x) : w * stride + lane;
}

uint hist_word(uint w) { return STORE == 0 ? hist_s[slot_word(int(w))] : BufU32(pc.scratch).v[slot_word(int(w))]; }
void set_hist_word(uint w, uint v) {
    if (STORE == 0)
        hist_s[slot_word(int(w))] = v;
    else
        BufU32(pc.scratch).v[slot_word(int(w))] = v;
}
uint occ_word(int w) { return STORE == 0 ? occ_s[slot_word(w)] : BufU32(pc.scratch).v[slot_word(HIST_WORDS + w)]; }
void flip_occ(uint b) {
    const int w = int(b >> 5u);
    const uint bit = 1u << (b & 31u);
    if (STORE == 0)
        occ_s[slot_word(w)] ^= bit;
    else
        BufU32(pc.scratch).v[slot_word(HIST_WORDS + w)] ^= bit;
}

// Bin b's field: word b / PER_WORD, bits from (b % PER_WORD) * BITS (unsigned,
// so both are a shift and a mask).
uint field_word(uint b) { return b / uint(PER_WORD); }
uint field_shift(uint b) { return (b % uint(PER_WORD)) * uint(BITS); }

void add(uint b) {
    const uint w = field_word(b), shift = field_shift(b);
    const uint word = hist_word(w);
    if (((word >> shift) & FIELD) == 0u) flip_occ(b);
    set_hist_word(w, word + (1u << shift));
}
void remove(uint b) {
    const uint w = field_word(b), shift = field_shift(b);
    const uint word = hist_word(w) - (1u << shift);
    set_hist_word(w, word);
    if (((word >> shift) & FIELD) == 0u) flip_occ(b);
}

void main() {
    const int c = int(gl_GlobalInvocationID.x);
    const int r0 = int(gl_WorkGroupID.y) * pc.strip;
    if (STORE == 1) {
        lane = int((gl_WorkGroupID.z * gl_NumWorkGroups.y + gl_WorkGroupID.y) * gl_NumWorkGroups.x * gl_WorkGroupSize.x +
                   gl_GlobalInvocationID.x);
        stride = pc.slots;
    }
    // No barriers: every invocation touches only its own words.
    if (c >= pc.cols || r0 >= pc.rows) return;
    const int r_end = min(pc.rows, r0 + pc.strip);
    const int plane = int(gl_WorkGroupID.z);
    int window = plane * pc.prows * pc.pcols + r0 * pc.pcols + c;
    const int out_plane = plane * pc.rows * pc.cols;
    Offsets off = Offsets(pc.offsets);
    BufU8 bins = BufU8(pc.padded);

    for (int w = 0; w < HIST_WORDS; ++w) set_hist_word(uint(w), 0u);
    for (int w = 0; w < 8; ++w) {
        if (STORE == 0)
            occ_s[slot_word(w)] = 0u;
        else
            BufU32(pc.scratch).v[slot_word(HIST_WORDS + w)] = 0u;
    }
    for (int m = 0; m < pc.n_all; ++m) add(uint(bins.v[window + off.v[m]]));
    for (int r = r0;; ++r) {
        // One loop over the occupied bins and the 8 words together, so a
        // subgroup waits for its busiest lane's total only.
        precise double e = 0.0;
        int w = 0;
        uint u = occ_word(0);
        for (;;) {
            if (u == 0u) {
                if (++w == 8) break;
                u = occ_word(w);
                continue;
            }
            const uint b = uint(w * 32 + findLSB(u));
            u &= u - 1u;
            const uint k = (hist_word(field_word(b)) >> field_shift(b)) & FIELD;
            e -= BufF64(pc.terms).v[k];
        }
        BufF64(pc.j).v[out_plane + r * pc.cols + c] = e;
        if (r + 1 == r_end) break;
        // Leave before enter: a count never exceeds n, so never its field.
        for (int m = 0; m < pc.n_leave; ++m) remove(uint(bins.v[window + off.v[pc.n_all + m]]));
        for (int m = 0; m < pc.n_enter; ++m) add(uint(bins.v[window + off.v[pc.n_all + pc.n_leave + m]]));
        window += pc.pcols;
    }
}
