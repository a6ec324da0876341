// SPDX-License-Identifier: Apache-2.0
// The rule of one dithered pixel, shared by dither.comp and
// dither_skewed.comp: the error shares (n/16 of e, rounded as the reference)
// and the choice of colour. Include after ipt_common.glsl, with the constants
// NCH and USE_TABLE and a push-constant block `pc` holding bias, shift, qm,
// table, mapq, colours, top and white_from.

int share(int e, int n) {
    return e > 0 ? (pc.bias + n * e) >> 4 : (e < 0 ? -((pc.bias - n * e) >> 4) : 0);
}

int nearest(int vr, int vg, int vb) {
    const int ir = vr >> pc.shift, ig = vg >> pc.shift, ib = vb >> pc.shift;
    if (USE_TABLE != 0) return int(BufU32(pc.table).v[(((ir << pc.qm) | ig) << pc.qm) | ib]);
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

// Accumulated values x: clamps them, returns the colour index and turns x
// into the errors.
int dither_pixel(inout int x[3]) {
    int idx;
    if (NCH == 1) {
        const int v = clamp(x[0], 0, pc.top);
        idx = v >= pc.white_from ? 1 : 0;
        x[0] = v - (idx != 0 ? pc.top : 0);
    } else {
        const int vr = clamp(x[0], 0, pc.top), vg = clamp(x[1], 0, pc.top), vb = clamp(x[2], 0, pc.top);
        idx = nearest(vr, vg, vb);
        x[0] = vr - BufI32(pc.mapq).v[3 * idx];
        x[1] = vg - BufI32(pc.mapq).v[3 * idx + 1];
        x[2] = vb - BufI32(pc.mapq).v[3 * idx + 2];
    }
    return idx;
}
