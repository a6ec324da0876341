// ipt.imresize, one pass along one dimension: each output element is
//   sum over k in order of w[i][k] * src[idx[i][k]]
// in double without fused multiply-adds (the front-end's indices and
// weights), converted to the destination class. A logical source reads true
// as 255; a logical destination holds the uint8 result > 128.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(constant_id = 4) const int SRC_DT = DT_UINT8;
layout(constant_id = 5) const int DST_DT = DT_UINT8;
layout(constant_id = 6) const int ALONG_COLS = 0;  // 0: along dimension 1 (rows)
layout(constant_id = 7) const int LOGICAL_OUT = 0;

layout(push_constant) uniform Push {
    uint64_t src;
    uint64_t dst;
    uint64_t idx;
    uint64_t w;
    int in_rows, in_cols, out_rows, out_cols;
    int taps;
    int total;  // out_rows * out_cols * channels
} pc;

double source_value(int e) {
    const double v = load_d(pc.src, SRC_DT, e);
    return SRC_DT == DT_LOGICAL ? 255.0 * v : v;
}

void main() {
    const int group = int(linear_group());
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    for (int n = 0; n < int(PER_INV); ++n) {
        const int e = (group * int(PER_INV) + n) * width + lane;
        if (e >= pc.total) return;
        const int c = e % pc.out_cols;
        const int t = e / pc.out_cols;
        const int r = t % pc.out_rows;
        const int ch = t / pc.out_rows;
        const int plane = ch * pc.in_rows * pc.in_cols;
        const int i = ALONG_COLS != 0 ? c : r;
        precise double acc = 0.0;
        for (int k = 0; k < pc.taps; ++k) {
            const int j = BufI32(pc.idx).v[i * pc.taps + k];
            const int at = ALONG_COLS != 0 ? plane + r * pc.in_cols + j : plane + j * pc.in_cols + c;
            precise double p = BufF64(pc.w).v[i * pc.taps + k] * source_value(at);
            acc = acc + p;
        }
        if (LOGICAL_OUT != 0)
            BufU8(pc.dst).v[e] = uint8_t(saturate_round(acc, 0.0, 255.0) > 128.0 ? 1u : 0u);
        else
            store_d(pc.dst, DST_DT, e, acc);
    }
}
