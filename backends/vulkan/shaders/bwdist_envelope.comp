// SPDX-License-Identifier: Apache-2.0
// ipt.bwdist, phase 2 for the euclidean metric: per row, the lower envelope
// of the parabolas f_c(x) = (x - c)^2 + g_c^2 over the columns c that hold a
// feature (g_c: the row distance to the column's nearest feature, phase 1),
// one work group per row (rows strided over the groups). Each lane builds the
// envelope of its band of columns with Meijster's stack; log2(width) rounds
// merge neighbouring groups of bands (the sites that survive a merge are a
// prefix of the left envelope and a suffix of the right one, so a merge only
// walks inward from the seam); a max-scan over the survivors' first pixels
// names the site of every pixel. Integer arithmetic only, so the cost does
// not depend on the distances. Ties as the CPU reference: the lower column
// wins at a pixel where two sites are equally near, phase 1 keeps the upper
// row, so IDX is the lowest linear index among the nearest features.
//
// The working set of a row is three arrays indexed by column: where each
// site begins on the envelope, and the envelope's prev/next links (prev
// later holds each pixel's site). Each column's feature row is read from
// phase 1's output, which leaves room for more work groups per
// multiprocessor than a fourth array in shared memory would. The arrays
// live in shared memory, 16-bit when rows and columns are at most 65535
// (STORE 0) or 32-bit (STORE 1), or in a global scratch slice per work group
// for rows too wide (STORE 2). The barriers are work-group scope only: no
// data crosses work groups.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "ipt_math.glsl"

layout(constant_id = 4) const int WANT_IDX = 0;
layout(constant_id = 5) const int STORE = 0;  // 0: shared 16-bit, 1: shared 32-bit, 2: global scratch
layout(constant_id = 6) const int LEN = 1;    // elements per array in shared memory (STORE 0, 1)

const int ENV_SIZE = 3 * LEN;
shared uint16_t env16[STORE == 0 ? ENV_SIZE : 1];
shared int env32[STORE == 1 ? ENV_SIZE : 1];
shared int band_head[gl_WorkGroupSize.x];
shared int band_tail[gl_WorkGroupSize.x];

layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer Scratch { int v[]; };

layout(push_constant) uniform Push {
    uint64_t nearest;  // int32 [rows][cols], phase 1
    uint64_t d;
    uint64_t idx;
    uint64_t scratch;  // int32, 3 * len per work group (STORE 2)
    int rows, cols;
    int len;           // elements per array in scratch (STORE 2)
} pc;

const int NONE = -1;
const int START = 0, PREV = 1, NEXT = 2;

int arr_len;       // elements per array
int scratch_base;  // this work group's slice of scratch (STORE 2)
int row;           // the row being processed

// One padding word after every 32 words: the lanes, each walking its own
// band of columns, then touch different shared-memory banks.
int slot(int c) { return STORE == 0 ? c + ((c >> 6) << 1) : c + (c >> 5); }

int get(int a, int c) {
    const int i = a * arr_len + slot(c);
    if (STORE == 0) {
        const uint v = uint(env16[i]);
        return v == 0xFFFFu ? NONE : int(v);
    }
    if (STORE == 1) return env32[i];
    return Scratch(pc.scratch).v[scratch_base + i];
}
void put(int a, int c, int v) {
    const int i = a * arr_len + slot(c);
    if (STORE == 0) env16[i] = uint16_t(v == NONE ? 0xFFFFu : uint(v));
    else if (STORE == 1) env32[i] = v;
    else Scratch(pc.scratch).v[scratch_base + i] = v;
}

// Row of column c's nearest feature (phase 1), NONE for none.
int feature_row(int c) { return BufI32(pc.nearest).v[row * pc.cols + c]; }

void sync() {
    if (STORE == 2) groupMemoryBarrier();
    barrier();
}

// Squared distance from pixel (row, x) to the nearest feature of column c.
int64_t dist2(int c, int x) {
    const int64_t dx = x - c, dy = row - feature_row(c);
    return dx * dx + dy * dy;
}

// Last pixel where site l is at least as near as site r (l < r), for a pair
// where that holds at some pixel >= 0. f_l(x) <= f_r(x) is 2x(r-l) <= num, so
// the answer is floor(num / den) with num >= 0. Sides below 2^31 keep num and
// den within int64 and the squares within 2^62.
int64_t last_pixel_of_left(int l, int r) {
    const int64_t gl = row - feature_row(l), gr = row - feature_row(r);
    const int64_t num = int64_t(r - l) * int64_t(r + l) + (gr - gl) * (gr + gl);
    const int64_t den = 2 * int64_t(r - l);
    if (num <= 0xFFFFFFFFl) return int64_t(uint(num) / uint(den));  // 32-bit division where it suffices
    return int64_t(uint64_t(num) / uint64_t(den));
}

// Meijster's stack over the columns [b0, b1), for pixels [0, cols): the
// band's envelope then runs from head to tail through next/prev and START
// holds where each of its sites begins (NONE elsewhere).
void build_band(int b0, int b1, out int head, out int tail) {
    int top = NONE;
    head = NONE;
    for (int c = b0; c < b1; ++c) {
        if (feature_row(c) == NONE) {
            put(START, c, NONE);
            continue;
        }
        // Pop sites that c beats where they begin: c beats them on all of
        // their range (the difference of two parabolas is linear).
        while (top != NONE) {
            const int t = get(START, top);
            if (dist2(top, t) <= dist2(c, t)) break;
            put(START, top, NONE);
            top = get(PREV, top);
        }
        if (top == NONE) {
            put(START, c, 0);
            put(PREV, c, NONE);
            head = top = c;
            continue;
        }
        const int64_t begins = last_pixel_of_left(top, c) + 1;
        if (begins >= pc.cols) {  // c is never strictly nearer inside the row
            put(START, c, NONE);
            continue;
        }
        put(START, c, int(begins));
        put(PREV, c, top);
        put(NEXT, top, c);
        top = c;
    }
    if (top != NONE) put(NEXT, top, NONE);
    tail = top;
}

// Merges the envelope head..tail with the next group's (right_head ..
// right_tail, all of whose columns lie to the right). The survivors are a
// prefix of the left list and a suffix of the right one: drop the left tail
// while the right head beats it where it begins, drop the right head while
// the left tail is at least as near where the right head ends; every dropped
// site is beaten on its whole range by a site that exists.
void merge(inout int head, inout int tail, int right_head, int right_tail) {
    int l = tail, r = right_head;
    while (l != NONE && r != NONE) {
        const int l_begins = get(START, l);
        if (dist2(l, l_begins) > dist2(r, l_begins)) {
            put(START, l, NONE);
            l = get(PREV, l);
            continue;
        }
        const int r_next = get(NEXT, r);
        const int r_ends = r_next == NONE ? pc.cols - 1 : get(START, r_next) - 1;
        if (dist2(l, r_ends) <= dist2(r, r_ends)) {
            put(START, r, NONE);
            r = r_next;
            continue;
        }
        break;
    }
    if (l == NONE) {  // the whole left group is beaten (or was empty)
        head = r;
        if (r != NONE) {
            put(START, r, 0);
            put(PREV, r, NONE);
        }
    } else if (r != NONE) {
        put(START, r, int(last_pixel_of_left(l, r) + 1));
        put(NEXT, l, r);
        put(PREV, r, l);
    } else {
        put(NEXT, l, NONE);
    }
    tail = r == NONE ? l : right_tail;
}

void main() {
    const int lane = int(gl_LocalInvocationID.x), lanes = int(gl_WorkGroupSize.x);
    arr_len = STORE == 2 ? pc.len : LEN;
    scratch_base = STORE == 2 ? int(linear_group()) * 3 * pc.len : 0;
    // Columns [b0, b1) of this lane: equal bands, the last ones possibly empty.
    const int width = (pc.cols + lanes - 1) / lanes;
    const int b0 = min(lane * width, pc.cols), b1 = min(b0 + width, pc.cols);
    const int groups = int(gl_NumWorkGroups.x * gl_NumWorkGroups.y);
    for (int r = int(linear_group()); r < pc.rows; r += groups) {
        row = r;
        const int at = r * pc.cols;
        int head, tail;
        build_band(b0, b1, head, tail);
        band_head[lane] = head;
        band_tail[lane] = tail;
        sync();
        for (int span = 1; span < lanes; span *= 2) {
            if (lane % (2 * span) == 0 && lane + span < lanes) {
                merge(head, tail, band_head[lane + span], band_tail[lane + span]);
                band_head[lane] = head;
                band_tail[lane] = tail;
            }
            sync();
        }
        if (band_head[0] == NONE) {  // no feature in the image
            for (int x = lane; x < pc.cols; x += lanes) {
                BufF32(pc.d).v[at + x] = 1.0 / 0.0;
                if (WANT_IDX != 0) BufU32(pc.idx).v[at + x] = 0u;
            }
            sync();
            continue;
        }
        // Each pixel's site: every survivor marks its first pixel (in PREV,
        // by pixel), and a pixel's site is the last mark at or before it.
        for (int x = b0; x < b1; ++x) put(PREV, x, NONE);
        sync();
        for (int c = b0; c < b1; ++c) {
            const int s = get(START, c);
            if (s != NONE) put(PREV, s, c);
        }
        sync();
        int last = NONE;
        for (int x = b0; x < b1; ++x) last = max(last, get(PREV, x));
        band_tail[lane] = last;
        sync();
        // Marks grow with x (survivors are in column order and begin in that
        // order), so the carry into this band is the largest mark before it.
        int carry = NONE;
        for (int k = 0; k < lane; ++k) carry = max(carry, band_tail[k]);
        for (int x = b0; x < b1; ++x) {
            const int mark = get(PREV, x);
            if (mark != NONE) carry = mark;
            else put(PREV, x, carry);
        }
        sync();
        // D = single(sqrt(double(d2))) as the reference (sqrt_rn is correctly
        // rounded, and so is the conversion).
        for (int x = lane; x < pc.cols; x += lanes) {
            const int site = get(PREV, x);
            BufF32(pc.d).v[at + x] = float(sqrt_rn(double(dist2(site, x))));
            if (WANT_IDX != 0)
                BufU32(pc.idx).v[at + x] = uint(site) * uint(pc.rows) + uint(feature_row(site)) + 1u;
        }
        sync();  // the next row overwrites what other lanes may still read
    }
}
