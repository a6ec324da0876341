// Second pass of the upright integral image, cumsum(., 2): the running sums
// along rows 1..rows of the table J (`cols` doubles a row, the first 0). A
// work group owns gl_WorkGroupSize.x (<= 64) consecutive rows and walks them
// in tiles of 32 columns staged in shared memory: the group loads and
// stores each tile row by row (contiguous), and each invocation carries its
// own row's sum through the tile in order, as the CPU reference adds.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "ipt_common.glsl"

layout(push_constant) uniform Push {
    uint64_t j;
    int rows, cols;
} pc;

const int TW = 32;
shared double tile[64 * (TW + 1)];

void main() {
    const int lane = int(gl_LocalInvocationID.x);
    const int width = int(gl_WorkGroupSize.x);
    const int r0 = 1 + int(linear_group()) * width;
    BufF64 J = BufF64(pc.j);
    precise double acc = 0.0;
    for (int c0 = 1; c0 < pc.cols; c0 += TW) {
        const int tw = min(TW, pc.cols - c0);
        for (int idx = lane; idx < width * TW; idx += width) {
            const int k = idx / TW, cc = idx % TW;
            if (r0 + k <= pc.rows && cc < tw) tile[k * (TW + 1) + cc] = J.v[(r0 + k) * pc.cols + c0 + cc];
        }
        barrier();
        if (r0 + lane <= pc.rows)
            for (int cc = 0; cc < tw; ++cc) {
                acc = acc + tile[lane * (TW + 1) + cc];
                tile[lane * (TW + 1) + cc] = acc;
            }
        barrier();
        for (int idx = lane; idx < width * TW; idx += width) {
            const int k = idx / TW, cc = idx % TW;
            if (r0 + k <= pc.rows && cc < tw) J.v[(r0 + k) * pc.cols + c0 + cc] = tile[k * (TW + 1) + cc];
        }
        barrier();
    }
}
