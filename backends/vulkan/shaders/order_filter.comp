// SPDX-License-Identifier: Apache-2.0
// ipt.ordfilt2 / ipt.medfilt2: the order-th smallest of A(p + d) (+ S(d))
// over the window offsets d (centre floor((size+1)/2), docs/matlab-semantics.md#centre).
//
// Selection is a radix select on order-preserving unsigned keys: from the top
// bit down, count the window values whose key is <= prefix|0111..1 and keep
// the bit at 0 when at least `order` values are that small. KEY_BITS passes
// over the window (8 for uint8, 16, 32 or 64), no sorting and no window-size
// limit. Even medfilt2 windows average the two middle orders in double (MATLAB:
// imlincomb(0.5, a, 0.5, b)). The window is a list of offsets (ordfilt2's domain) or,
// with RECT, an m x n rectangle generated here (medfilt2, up to 4096^2).
//
// NET_ROWS x NET_COLS (medfilt2 windows of up to 25 values, no S): the work
// group's tile of keys, padding resolved, is staged in shared memory, and each
// output sorts its window's keys in registers with an odd-even transposition
// network. Every loop there is bounded by constants, so the driver unrolls it
// and the keys stay in registers (the radix path's dynamically indexed key
// array lives in local memory on NVIDIA). Each invocation computes PER_INV
// outputs of one column, rows strided by the group height.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;
layout(constant_id = 5) const int WITH_S = 0;     // values are double(A) + S(d)
layout(constant_id = 6) const int PAD = 0;        // 0: constant pad_value, 2: symmetric
layout(constant_id = 7) const int RECT = 0;
layout(constant_id = 8) const int MEDIAN_EVEN = 0;
layout(constant_id = 9) const int OUT_DT = DT_UINT8;
layout(constant_id = 10) const int NET_ROWS = 0;  // > 0: the sorting-network path
layout(constant_id = 11) const int NET_COLS = 0;

// Class whose keys are compared.
const int KDT = WITH_S != 0 ? DT_DOUBLE : DT;
const int KEY_BITS = KDT == DT_LOGICAL ? 1 : KDT == DT_UINT8 ? 8 : (KDT == DT_UINT16 || KDT == DT_INT16) ? 16
                   : KDT == DT_DOUBLE ? 64 : 32;

layout(buffer_reference, std430, buffer_reference_align = 8) buffer Offsets { ivec2 v[]; };

const int NET_N = NET_ROWS * NET_COLS;
// The two middle orders, 0-based (equal for an odd window).
const int NET_LO = (NET_N - 1) / 2;
const int NET_HI = NET_N / 2;
// Keys of the tile: 32 bits wide for every class but double. The host uses
// the network only when the tile fits (12 KiB at most: within Vulkan's
// guaranteed 16 KiB of shared memory).
const int NET_TILE_CAP32 = 2048;
const int NET_TILE_CAP64 = 1536;
shared uint net_tile32[NET_N > 0 && KEY_BITS <= 32 ? NET_TILE_CAP32 : 1];
shared uint64_t net_tile64[NET_N > 0 && KEY_BITS > 32 ? NET_TILE_CAP64 : 1];

layout(push_constant) uniform Push {
    uint64_t a;
    uint64_t out_;
    uint64_t offsets;  // ivec2 per window element (not RECT)
    uint64_t s;        // double per window element (WITH_S)
    double pad_value;
    int rows, cols, count;
    int order;         // 1-based
    int rect_rows, rect_cols, origin_r, origin_c;
} pc;

uint64_t key_of_double(double v) {
    uvec2 b = unpackDouble2x32(v);
    uint64_t u = (uint64_t(b.y) << 32) | uint64_t(b.x);
    return (u & 0x8000000000000000ul) != 0ul ? ~u : (u | 0x8000000000000000ul);
}
double double_of_key(uint64_t k) {
    uint64_t u = (k & 0x8000000000000000ul) != 0ul ? (k & 0x7FFFFFFFFFFFFFFFul) : ~k;
    return packDouble2x32(uvec2(uint(u & 0xFFFFFFFFul), uint(u >> 32)));
}
// Single keys from and to the bits (ipt_common.glsl), never through a float
// operation that could flush a denormal.
uint key_of_float_bits(uint u) {
    return (u & 0x80000000u) != 0u ? ~u : (u | 0x80000000u);
}
uint float_bits_of_key(uint k) {
    return (k & 0x80000000u) != 0u ? (k & 0x7FFFFFFFu) : ~k;
}

// Key of a class value given as double (exact for every class).
uint64_t key_of(double v) {
    switch (KDT) {
    case DT_LOGICAL: return v != 0.0 ? 1ul : 0ul;
    case DT_UINT8:
    case DT_UINT16:
    case DT_UINT32: return uint64_t(v);
    case DT_INT16: return uint64_t(uint(int(v) + 32768));
    case DT_INT32: return uint64_t(uint(int(v)) ^ 0x80000000u);
    // NaN sorts last, as MATLAB's sort puts it (whatever its sign bit).
    case DT_SINGLE: return is_nan_d(v) ? 0xFFFFFFFFul : uint64_t(key_of_float_bits(double_to_f32_bits(v)));
    default: return is_nan_d(v) ? 0xFFFFFFFFFFFFFFFFul : key_of_double(v);
    }
}
double value_of(uint64_t k) {
    switch (KDT) {
    case DT_LOGICAL:
    case DT_UINT8:
    case DT_UINT16:
    case DT_UINT32: return double(k);
    case DT_INT16: return double(int(uint(k)) - 32768);
    case DT_INT32: return double(int(uint(k) ^ 0x80000000u));
    case DT_SINGLE: return f32_bits_to_double(float_bits_of_key(uint(k)));
    default: return double_of_key(k);
    }
}

// Key of element i of A, from its bits (no arithmetic: exact for every
// class, denormals included). Equal to key_of(load_d(...)).
uint64_t key_at(int i) {
    switch (DT) {
    case DT_LOGICAL: return BufU8(pc.a).v[i] != uint8_t(0) ? 1ul : 0ul;
    case DT_UINT8: return uint64_t(BufU8(pc.a).v[i]);
    case DT_UINT16: return uint64_t(BufU16(pc.a).v[i]);
    case DT_INT16: return uint64_t(uint(int(BufI16(pc.a).v[i]) + 32768));
    case DT_INT32: return uint64_t(uint(BufI32(pc.a).v[i]) ^ 0x80000000u);
    case DT_UINT32: return uint64_t(BufU32(pc.a).v[i]);
    case DT_SINGLE: {
        const uint b = BufU32(pc.a).v[i];
        return is_nan_f(uintBitsToFloat(b)) ? 0xFFFFFFFFul : uint64_t(key_of_float_bits(b));
    }
    default: {
        const double d = BufF64(pc.a).v[i];
        return is_nan_d(d) ? 0xFFFFFFFFFFFFFFFFul : key_of_double(d);
    }
    }
}

// The bits of the class value whose key is k (inverse of key_at; NaN keys
// give a NaN), for a store with no floating-point arithmetic on the way.
uint64_t bits_of_key(uint64_t k) {
    switch (DT) {
    case DT_INT16: return uint64_t(uint(int(k) - 32768) & 0xFFFFu);
    case DT_INT32: return uint64_t(uint(k) ^ 0x80000000u);
    case DT_SINGLE: return uint64_t((uint(k) & 0x80000000u) != 0u ? (uint(k) & 0x7FFFFFFFu) : ~uint(k));
    case DT_DOUBLE: return (k & 0x8000000000000000ul) != 0ul ? (k & 0x7FFFFFFFFFFFFFFFul) : ~k;
    default: return k;
    }
}

int map_index(int i, int n) {
    if (i >= 0 && i < n) return i;
    if (PAD == 2) return symmetric_index(i, n);
    return -1;
}

int window_size() { return RECT != 0 ? pc.rect_rows * pc.rect_cols : pc.count; }

// The key of window element j at pixel (r, c) of the plane at `plane`.
uint64_t window_key(int plane, int r, int c, int j) {
    ivec2 d;
    if (RECT != 0) d = ivec2(j / pc.rect_cols - pc.origin_r, j % pc.rect_cols - pc.origin_c);
    else d = Offsets(pc.offsets).v[j];
    const int sr = map_index(r + d.x, pc.rows), sc = map_index(c + d.y, pc.cols);
    precise double v = (sr < 0 || sc < 0) ? pc.pad_value : load_d(pc.a, DT, plane + sr * pc.cols + sc);
    if (WITH_S != 0) v = v + BufF64(pc.s).v[j];
    return key_of(v);
}

// Small windows are read once into registers; larger ones are re-read by
// every pass (through the caches).
const int CACHED = 32;
uint64_t cached_keys[CACHED];

uint64_t select_key(int plane, int r, int c, int order, bool cached) {
    const int n = window_size();
    uint64_t result = 0ul;
    for (int bit = KEY_BITS - 1; bit >= 0; --bit) {
        const uint64_t low_ones = (1ul << uint(bit)) - 1ul;
        const uint64_t trial = result | low_ones;
        int at_most = 0;
        if (cached) {
            for (int j = 0; j < n; ++j) at_most += cached_keys[j] <= trial ? 1 : 0;
        } else {
            for (int j = 0; j < n; ++j) at_most += window_key(plane, r, c, j) <= trial ? 1 : 0;
        }
        if (at_most < order) result |= 1ul << uint(bit);
    }
    return result;
}

// Sorts the window whose top-left key is at `at` in the tile and returns the
// keys of orders NET_LO and NET_HI. One definition per key width.
#define SORT_WINDOW(KT, NAME, TILE)                                                \
    void NAME(int at, int tile_w, out KT lo, out KT hi) {                          \
        KT v[NET_N > 0 ? NET_N : 1];                                               \
        [[unroll]] for (int i = 0; i < NET_ROWS; ++i)                              \
            [[unroll]] for (int j = 0; j < NET_COLS; ++j)                          \
                v[i * NET_COLS + j] = TILE[at + i * tile_w + j];                   \
        [[unroll]] for (int round = 0; round < NET_N; round += 2) {                \
            [[unroll]] for (int e = 0; e + 1 < NET_N; e += 2) {                    \
                const KT a = v[e], b = v[e + 1];                                   \
                v[e] = min(a, b);                                                  \
                v[e + 1] = max(a, b);                                              \
            }                                                                      \
            [[unroll]] for (int e = 1; e + 1 < NET_N; e += 2) {                    \
                const KT a = v[e], b = v[e + 1];                                   \
                v[e] = min(a, b);                                                  \
                v[e + 1] = max(a, b);                                              \
            }                                                                      \
        }                                                                          \
        lo = v[NET_LO];                                                            \
        hi = v[NET_HI];                                                            \
    }
SORT_WINDOW(uint, sort_window32, net_tile32)
SORT_WINDOW(uint64_t, sort_window64, net_tile64)

// The median from the two middle keys (MATLAB's mean of the two for an even
// window: imlincomb(0.5, lower, 0.5, upper), the upper one for logical).
double median_of(uint64_t lo, uint64_t hi) {
    const double v = value_of(lo);
    if (MEDIAN_EVEN == 0) return v;
    const double upper = value_of(hi);
    if (DT == DT_LOGICAL) return upper;
    precise double m = 0.5 * v + 0.5 * upper;
    return m;
}

void network_main() {
    const int gx = int(gl_WorkGroupSize.x), gy = int(gl_WorkGroupSize.y);
    const int tile_w = gx + NET_COLS - 1;
    const int tile_h = gy * int(PER_INV) + NET_ROWS - 1;
    const int r0 = int(gl_WorkGroupID.y) * gy * int(PER_INV);
    const int c0 = int(gl_WorkGroupID.x) * gx;
    const int plane = int(gl_WorkGroupID.z) * pc.rows * pc.cols;
    const uint64_t pad_key = key_of(pc.pad_value);
    // Every invocation helps to stage, then waits (no early return before).
    for (int idx = int(gl_LocalInvocationIndex); idx < tile_w * tile_h; idx += gx * gy) {
        const int ty = idx / tile_w, tx = idx - ty * tile_w;
        const int sr = map_index(r0 + ty - pc.origin_r, pc.rows), sc = map_index(c0 + tx - pc.origin_c, pc.cols);
        const uint64_t k = (sr < 0 || sc < 0) ? pad_key : key_at(plane + sr * pc.cols + sc);
        if (KEY_BITS <= 32) net_tile32[idx] = uint(k);
        else net_tile64[idx] = k;
    }
    barrier();
    const int lx = int(gl_LocalInvocationID.x), ly = int(gl_LocalInvocationID.y);
    const int c = c0 + lx;
    if (c >= pc.cols) return;
    for (int k = 0; k < int(PER_INV); ++k) {
        const int ry = ly + k * gy;  // row in the tile
        const int r = r0 + ry;
        if (r >= pc.rows) return;
        uint64_t lo, hi;
        if (KEY_BITS <= 32) {
            uint lo32, hi32;
            sort_window32(ry * tile_w + lx, tile_w, lo32, hi32);
            lo = uint64_t(lo32);
            hi = uint64_t(hi32);
        } else {
            sort_window64(ry * tile_w + lx, tile_w, lo, hi);
        }
        // An odd window's median is a value of A: stored from its bits, so
        // that no driver's denormal flushing can touch it.
        if (MEDIAN_EVEN == 0 && OUT_DT == DT) store_bits(pc.out_, DT, plane + r * pc.cols + c, bits_of_key(lo));
        else store_d(pc.out_, OUT_DT, plane + r * pc.cols + c, median_of(lo, hi));
    }
}

void main() {
    if (NET_N > 0) {
        network_main();
        return;
    }
    const int c = int(gl_GlobalInvocationID.x);
    const int r = int(gl_GlobalInvocationID.y);
    if (c >= pc.cols || r >= pc.rows) return;
    const int plane = int(gl_WorkGroupID.z) * pc.rows * pc.cols;
    const bool cached = window_size() <= CACHED;
    if (cached)
        for (int j = 0; j < window_size(); ++j) cached_keys[j] = window_key(plane, r, c, j);
    const uint64_t k1 = select_key(plane, r, c, pc.order, cached);
    double v = value_of(k1);
    if (MEDIAN_EVEN != 0) {
        // MATLAB's medfilt2: imlincomb(0.5, lower, 0.5, upper) (b1 | b2, the
        // upper one, for logical), in double, rounded once by store_d.
        const double upper = value_of(select_key(plane, r, c, pc.order + 1, cached));
        if (DT == DT_LOGICAL) {
            v = upper;
        } else {
            precise double m = 0.5 * v + 0.5 * upper;
            v = m;
        }
    }
    store_d(pc.out_, OUT_DT, plane + r * pc.cols + c, v);
}
