// ipt.ordfilt2 / ipt.medfilt2: the order-th smallest of A(p + d) (+ S(d))
// over the window offsets d (centre floor((size+1)/2), pitfall 3).
//
// Selection is a radix select on order-preserving unsigned keys: from the top
// bit down, count the window values whose key is <= prefix|0111..1 and keep
// the bit at 0 when at least `order` values are that small. KEY_BITS passes
// over the window (8 for uint8, 16, 32 or 64), no sorting and no window-size
// limit. Even medfilt2 windows average the two middle orders in double (MATLAB:
// imlincomb(0.5, a, 0.5, b)). The window is a list of offsets (ordfilt2's domain) or,
// with RECT, an m x n rectangle generated here (medfilt2, up to 4096^2).
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;
layout(constant_id = 5) const int WITH_S = 0;     // values are double(A) + S(d)
layout(constant_id = 6) const int PAD = 0;        // 0: constant pad_value, 2: symmetric
layout(constant_id = 7) const int RECT = 0;
layout(constant_id = 8) const int MEDIAN_EVEN = 0;
layout(constant_id = 9) const int OUT_DT = DT_UINT8;

// Class whose keys are compared.
const int KDT = WITH_S != 0 ? DT_DOUBLE : DT;
const int KEY_BITS = KDT == DT_LOGICAL ? 1 : KDT == DT_UINT8 ? 8 : (KDT == DT_UINT16 || KDT == DT_INT16) ? 16
                   : KDT == DT_DOUBLE ? 64 : 32;

layout(buffer_reference, std430, buffer_reference_align = 8) buffer Offsets { ivec2 v[]; };

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

void main() {
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
