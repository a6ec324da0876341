// ipt.dither: MATLAB's ditherc. Floyd-Steinberg with integer error shares
// over a column-major scan, run as a wavefront in one work group: pixel
// (r, c) needs the errors of (r-1, c), (r, c-1), (r+1, c-1) and (r-1, c-1),
// so it is processed at step r + 2c, after all of them; each step is one
// barrier. A pixel pulls its four shares instead of having them pushed,
// which sums the same integers. The inverse colormap is a table (when it is
// small enough, see dither_inverse.comp) or a search per pixel.
//
// The steps are a chain (rows + 2*cols of them), so what counts is the
// latency of one step. Errors live in shared memory when they fit
// (RING_COLS > 0): column c keeps its last four rows at slot c % RING_COLS,
// which no other live column shares once RING_COLS > rows/2 + 1 (a column is
// read until its right neighbour ends, rows + 1 steps after it starts, and
// starts 2 steps after its left one). Otherwise they go through a global
// buffer, ordered by a work-group-scope barrier (one work group: no device-
// scope fence). Lane i takes the columns c = i (mod width) and loads the
// input of its next pixel one step ahead.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "ipt_common.glsl"
#include "ipt_math.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;
layout(constant_id = 5) const int NCH = 1;        // 1: dither(I), grey; 3: RGB with map
layout(constant_id = 6) const int USE_TABLE = 1;
layout(constant_id = 7) const int OUT_DT = DT_LOGICAL;
layout(constant_id = 8) const int RING_COLS = 0;  // > 0: errors in shared memory
layout(constant_id = 9) const int RING16 = 0;     // 1: 16-bit errors (|error| <= top < 2^15)

const int RING_SIZE = RING_COLS * 4 * NCH;
shared int ring32[RING_COLS > 0 && RING16 == 0 ? RING_SIZE : 1];
shared int16_t ring16[RING_COLS > 0 && RING16 != 0 ? RING_SIZE : 1];

layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer Errors { int v[]; };

layout(push_constant) uniform Push {
    uint64_t img;
    uint64_t mapq;    // int32 n x 3
    uint64_t table;   // uint32 per cell (USE_TABLE)
    uint64_t errors;  // int32 [NCH][rows][cols]
    uint64_t out_;
    int rows, cols, colours;
    int top, bias, shift, qm;
} pc;

// The raw bits of channel ch of pixel (r, c); converted only when used, so
// that a load issued a step ahead is not waited for.
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

int share(int e, int n) {
    return e > 0 ? (pc.bias + n * e) >> 4 : (e < 0 ? -((pc.bias - n * e) >> 4) : 0);
}

int ring_slot(int ch, int r, int c) { return ((c % RING_COLS) * 4 + (r & 3)) * NCH + ch; }

int error_at(int ch, int r, int c) {
    if (RING_COLS > 0) return RING16 != 0 ? int(ring16[ring_slot(ch, r, c)]) : ring32[ring_slot(ch, r, c)];
    return Errors(pc.errors).v[(ch * pc.rows + r) * pc.cols + c];
}

void set_error(int ch, int r, int c, int e) {
    if (RING_COLS == 0) Errors(pc.errors).v[(ch * pc.rows + r) * pc.cols + c] = e;
    else if (RING16 != 0) ring16[ring_slot(ch, r, c)] = int16_t(e);
    else ring32[ring_slot(ch, r, c)] = e;
}

int nearest(int vr, int vg, int vb) {
    const int ir = vr >> pc.shift, ig = vg >> pc.shift, ib = vb >> pc.shift;
    if (USE_TABLE != 0) {
        const int cell = NCH == 1 ? ir : (((ir << pc.qm) | ig) << pc.qm) | ib;
        return int(BufU32(pc.table).v[cell]);
    }
    const int w = 1 << pc.shift, half_w = w / 2;
    const int64_t cr = int64_t(ir * w + half_w), cg = int64_t(ig * w + half_w), cb = int64_t(ib * w + half_w);
    int best = 0;
    int64_t best_d = -1;
    for (int k = 0; k < pc.colours; ++k) {
        const int64_t dr = cr - BufI32(pc.mapq).v[3 * k], dg = cg - BufI32(pc.mapq).v[3 * k + 1],
                      db = cb - BufI32(pc.mapq).v[3 * k + 2];
        const int64_t d = dr * dr + dg * dg + db * db;
        if (best_d < 0 || d < best_d) {
            best_d = d;
            best = k;
        }
    }
    return best;
}

void process(int r, int c, uint64_t bits[3]) {
    int v[3];
    [[unroll]] for (int ch = 0; ch < NCH; ++ch) {
        int value = quantise(bits[ch]);
        if (r > 0) value += share(error_at(ch, r - 1, c), 7);
        if (c > 0) {
            value += share(error_at(ch, r, c - 1), 5);
            if (r + 1 < pc.rows) value += share(error_at(ch, r + 1, c - 1), 3);
            if (r > 0) value += share(error_at(ch, r - 1, c - 1), 1);
        }
        v[ch] = clamp(value, 0, pc.top);
    }
    if (NCH == 1) {
        v[1] = v[0];
        v[2] = v[0];
    }
    const int idx = nearest(v[0], v[1], v[2]);
    [[unroll]] for (int ch = 0; ch < NCH; ++ch) set_error(ch, r, c, v[ch] - BufI32(pc.mapq).v[3 * idx + ch]);
    const int at = r * pc.cols + c;
    if (OUT_DT == DT_UINT16) BufU16(pc.out_).v[at] = uint16_t(idx);
    else BufU8(pc.out_).v[at] = uint8_t(idx);
}

void main() {
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    const int steps = pc.rows + 2 * (pc.cols - 1);
    // The pixel whose input this lane loaded ahead, and its bits.
    int ahead_r = -1, ahead_c = -1;
    uint64_t ahead[3] = {0ul, 0ul, 0ul};
    for (int t = 0; t < steps; ++t) {
        // Columns whose pixel at row t - 2c exists (no / of a negative number).
        const int c_first = t - pc.rows + 2 > 0 ? (t - pc.rows + 2) / 2 : 0;
        const int c_last = min(pc.cols - 1, t / 2);
        for (int c = c_first + floor_mod(lane - c_first, width); c <= c_last; c += width) {
            const int r = t - 2 * c;
            if (r < 0 || r >= pc.rows) continue;
            uint64_t bits[3];
            const bool hit = r == ahead_r && c == ahead_c;
            [[unroll]] for (int ch = 0; ch < NCH; ++ch) bits[ch] = hit ? ahead[ch] : input_bits(ch, r, c);
            // This column's next pixel is this lane's at the next step (with
            // several columns per step, the last one's is kept).
            if (r + 1 < pc.rows) {
                ahead_r = r + 1;
                ahead_c = c;
                [[unroll]] for (int ch = 0; ch < NCH; ++ch) ahead[ch] = input_bits(ch, r + 1, c);
            }
            process(r, c, bits);
        }
        if (RING_COLS == 0) groupMemoryBarrier();
        barrier();
    }
}
