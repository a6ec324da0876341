// ipt.dither: MATLAB's ditherc. Floyd-Steinberg with integer error shares
// over a column-major scan, run as a wavefront in one work group: pixel
// (r, c) needs the errors of (r-1, c), (r, c-1), (r+1, c-1) and (r-1, c-1),
// so it is processed at step r + 2c, after all of them; each step is one
// barrier. A pixel pulls its four shares instead of having them pushed,
// which sums the same integers. The inverse colormap is a table (when it is
// small enough, see dither_inverse.comp) or a search per pixel.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"
#include "ipt_math.glsl"

layout(constant_id = 4) const int DT = DT_UINT8;
layout(constant_id = 5) const int NCH = 1;        // 1: dither(I), grey; 3: RGB with map
layout(constant_id = 6) const int USE_TABLE = 1;
layout(constant_id = 7) const int OUT_DT = DT_LOGICAL;

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

// im2uint8 of the input, as the reference converts it.
int to_uint8(int i) {
    switch (DT) {
    case DT_UINT8: return int(uint(BufU8(pc.img).v[i]));
    case DT_UINT16: return int(saturate_round(div_rn(double(uint(BufU16(pc.img).v[i])), 257.0), 0.0, 255.0));
    case DT_SINGLE: {
        precise float s = 255.0 * BufF32(pc.img).v[i];
        return int(saturate_round(double(s), 0.0, 255.0));
    }
    default: {
        precise double s = 255.0 * BufF64(pc.img).v[i];
        return int(saturate_round(s, 0.0, 255.0));
    }
    }
}

// floor(v*(L-1)/255 + 0.5) in integers.
int quantise(int ch, int r, int c) {
    const int plane = NCH == 1 ? 0 : ch * pc.rows * pc.cols;
    const int64_t a = int64_t(to_uint8(plane + r * pc.cols + c)) * int64_t(pc.top);
    return int((2l * a + 255l) / 510l);
}

int share(int e, int n) {
    return e > 0 ? (pc.bias + n * e) >> 4 : (e < 0 ? -((pc.bias - n * e) >> 4) : 0);
}

int error_at(int ch, int r, int c) {
    return Errors(pc.errors).v[(ch * pc.rows + r) * pc.cols + c];
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

void process(int r, int c) {
    int v[3];
    for (int ch = 0; ch < NCH; ++ch) {
        int value = quantise(ch, r, c);
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
    for (int ch = 0; ch < NCH; ++ch)
        Errors(pc.errors).v[(ch * pc.rows + r) * pc.cols + c] = v[ch] - BufI32(pc.mapq).v[3 * idx + ch];
    const int at = r * pc.cols + c;
    if (OUT_DT == DT_UINT16) BufU16(pc.out_).v[at] = uint16_t(idx);
    else BufU8(pc.out_).v[at] = uint8_t(idx);
}

void main() {
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    const int steps = pc.rows + 2 * (pc.cols - 1);
    for (int t = 0; t < steps; ++t) {
        // Columns whose pixel at row t - 2c exists.
        const int c_first = max(0, (t - pc.rows + 2) / 2);
        const int c_last = min(pc.cols - 1, t / 2);
        for (int c = c_first + lane; c <= c_last; c += width) {
            const int r = t - 2 * c;
            if (r >= 0 && r < pc.rows) process(r, c);
        }
        memoryBarrierBuffer();
        barrier();
    }
}
