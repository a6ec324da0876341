// dither: MATLAB's Floyd-Steinberg (ditherc) with integer error terms over a
// column-major scan, exactly as the reference, on a wavefront schedule.
//
// Pixel (r, c) needs (r-1, c) (7/16 down its column) and (r-1, c-1), (r, c-1),
// (r+1, c-1) (1/16, 5/16, 3/16 from the previous column). So column c may
// process row r once column c-1 has finished row r+1: a skew of two rows per
// column. One warp owns 32 consecutive columns, lane i on column i at row
// s - 2i of step s; errors between lanes go through a four-row ring in shared
// memory, and between warps through global memory with a progress counter
// that the next warp's first lane waits on. The grid is persistent: each
// warp takes chunks of columns in order, so every wait is on earlier work
// already running. The inverse colormap (2^Qm cells per axis, ties to the
// lowest index) is built on the host and looked up on the device.
#include <algorithm>
#include <cmath>
#include <vector>

#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"

namespace ipt::cuda {
namespace {

struct DitherParams {
    int64_t rows, cols;
    int top, bias, shift, qm;
    const int* mapq;            // n x 3
    const uint16_t* inverse;    // cells -> colour index
    const int* qtab;            // uint8 value -> quantised value
    int* boundary;              // (chunks) x rows x 3: errors into each chunk's first column
    unsigned* progress;         // per chunk: rows of its last column finished
    int chunks;
};

__device__ inline int share(int e, int n, int bias) {
    return e > 0 ? (bias + n * e) >> 4 : (e < 0 ? -((bias - n * e) >> 4) : 0);
}

template <class T>
__device__ inline int to_uint8(T v) {
    if constexpr (std::is_same_v<T, uint8_t>) return v;
    else if constexpr (std::is_same_v<T, uint16_t>) return saturate_round<uint8_t>(v / 257.0);
    else if constexpr (std::is_same_v<T, float>) return saturate_round<uint8_t>(static_cast<double>(255.0f * v));
    else return saturate_round<uint8_t>(255.0 * static_cast<double>(v));
}

template <class T, int C, class Out>
__global__ void __launch_bounds__(32) dither_wavefront(const T* __restrict__ img, Out* __restrict__ out, DitherParams p) {
    __shared__ int ring[33][4][C];  // ring[lane][row % 4][ch]: errors from the column on the left
    __shared__ int qtab[256];
    constexpr int kBatch = 8;  // rows exchanged between warps at a time
    __shared__ int inbuf[kBatch][C];
    const int lane = threadIdx.x;
    for (int k = lane; k < 256; k += 32) qtab[k] = p.qtab[k];
    const int64_t rows = p.rows, cols = p.cols, plane = rows * cols;
    for (int chunk = blockIdx.x; chunk < p.chunks; chunk += gridDim.x) {
        for (int k = lane; k < 33 * 4 * C; k += 32) (&ring[0][0][0])[k] = 0;
        int carry[C];
        // Last lane: errors for rows r-1, r, r+1 of the next chunk's first
        // column, stored (never read back) once complete.
        int pend_prev[C], pend_cur[C], pend_next[C];
#pragma unroll
        for (int ch = 0; ch < C; ++ch) carry[ch] = pend_prev[ch] = pend_cur[ch] = pend_next[ch] = 0;
        const int64_t c = static_cast<int64_t>(chunk) * 32 + lane;
        const bool active = c < cols;
        const bool last_lane = lane == 31 || c == cols - 1;
        const int64_t steps = rows + 2 * 31 + 1;
        const int* incoming = p.boundary + static_cast<int64_t>(chunk) * rows * 3;
        int* outgoing = chunk + 1 < p.chunks ? p.boundary + static_cast<int64_t>(chunk + 1) * rows * 3 : nullptr;
        // Quantised inputs of the next rows, loaded ahead so that the load
        // latency stays off the wavefront's critical path.
        constexpr int kAhead = 4;
        int queue[kAhead][C];
        auto quantised = [&](int64_t row, int ch) -> int {
            return (row < rows && c < cols) ? qtab[to_uint8(img[ch * plane + row * cols + c])] : 0;
        };
#pragma unroll
        for (int a = 0; a < kAhead; ++a)
#pragma unroll
            for (int ch = 0; ch < C; ++ch) queue[a][ch] = quantised(a, ch);
        __syncwarp();
        for (int64_t s = 0; s < steps; ++s) {
            const int64_t r = s - 2 * lane;
            const bool work = active && r >= 0 && r < rows;
            if (work && lane == 0 && chunk > 0 && r % kBatch == 0) {
                // Wait until the previous chunk has published the boundary
                // rows r .. r+kBatch-1, then take them in one go.
                const int64_t last = std::min<int64_t>(r + kBatch, rows);
                volatile unsigned* flag = p.progress + chunk - 1;
                while (*flag < static_cast<unsigned>(last)) {
                }
                __threadfence();
                for (int64_t k = r; k < last; ++k)
#pragma unroll
                    for (int ch = 0; ch < C; ++ch) inbuf[k - r][ch] = __ldcg(incoming + k * 3 + ch);
            }
            if (work) {
                int v[C];
#pragma unroll
                for (int ch = 0; ch < C; ++ch) {
                    int from_left;
                    if (lane == 0) from_left = chunk > 0 ? inbuf[r % kBatch][ch] : 0;
                    else from_left = ring[lane][r & 3][ch];
                    ring[lane][r & 3][ch] = 0;
                    const int q = queue[0][ch];
#pragma unroll
                    for (int a = 0; a + 1 < kAhead; ++a) queue[a][ch] = queue[a + 1][ch];
                    queue[kAhead - 1][ch] = quantised(r + kAhead, ch);
                    int x = q + from_left + carry[ch];
                    v[ch] = x < 0 ? 0 : (x > p.top ? p.top : x);
                }
                const int ir = v[0] >> p.shift;
                const int ig = v[C == 3 ? 1 : 0] >> p.shift;
                const int ib = v[C == 3 ? 2 : 0] >> p.shift;
                const int idx = p.inverse[(((ir << p.qm) | ig) << p.qm) | ib];
                out[r * cols + c] = static_cast<Out>(idx);
#pragma unroll
                for (int ch = 0; ch < C; ++ch) {
                    const int e = v[ch] - p.mapq[3 * idx + ch];
                    carry[ch] = (r + 1 < rows) ? share(e, 7, p.bias) : 0;
                    if (c + 1 < cols) {
                        const int e5 = share(e, 5, p.bias), e3 = share(e, 3, p.bias), e1 = share(e, 1, p.bias);
                        if (!last_lane) {
                            ring[lane + 1][r & 3][ch] += e5;
                            if (r > 0) ring[lane + 1][(r - 1) & 3][ch] += e3;
                            if (r + 1 < rows) ring[lane + 1][(r + 1) & 3][ch] += e1;
                        } else if (outgoing) {
                            pend_cur[ch] += e5;
                            if (r > 0) pend_prev[ch] += e3;
                            if (r + 1 < rows) pend_next[ch] += e1;
                        }
                    }
                }
                if (last_lane && outgoing) {
                    // Row r-1 of the next column is complete now; the last row
                    // completes with it.
#pragma unroll
                    for (int ch = 0; ch < C; ++ch) {
                        if (r > 0) outgoing[(r - 1) * 3 + ch] = pend_prev[ch];
                        if (r + 1 == rows) outgoing[r * 3 + ch] = pend_cur[ch];
                        pend_prev[ch] = pend_cur[ch];
                        pend_cur[ch] = pend_next[ch];
                        pend_next[ch] = 0;
                    }
                }
                // Publish complete rows every kBatch rows (rows 0 .. r-1 after row r).
                const int64_t complete = (r + 1 == rows) ? rows : r;
                if (last_lane && outgoing && (complete % kBatch == 0 || complete == rows)) {
                    __threadfence();
                    atomicMax(p.progress + chunk, static_cast<unsigned>(complete));
                }
            }
            __syncwarp();
        }
        __syncwarp();
    }
}

void run_dither(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt_tensor* img = args.image("I");
    const ipt_tensor* map = args.image("map");
    const int64_t qm = args.integer("Qm"), qe = args.integer("Qe");
    if (qm < 1 || qm > 16) ipt::plugin::invalid("ipt.dither: parameter 'Qm' must be in 1..16");
    if (qe < 1 || qe > 16) ipt::plugin::invalid("ipt.dither: parameter 'Qe' must be in 1..16");
    const int bits = static_cast<int>(std::max(qm, qe));
    const int top = (1 << bits) - 1;
    std::vector<int> mapq;
    if (map) {
        if (img->channels != 3)
            ipt::plugin::invalid("ipt.dither: parameter 'I' must be an RGB image (3 channels) when map is given");
        if (map->dtype != IPT_DOUBLE || map->cols != 3 || map->rows < 1 || map->rows > 65536)
            ipt::plugin::invalid("ipt.dither: parameter 'map' must be an n x 3 double colormap (n <= 65536)");
        const double* m = static_cast<const double*>(map->data);  // IPT_P_HOST
        for (int64_t i = 0; i < map->rows * 3; ++i) {
            if (!(m[i] >= 0.0 && m[i] <= 1.0))
                ipt::plugin::invalid("ipt.dither: parameter 'map' must have values in [0, 1]");
            mapq.push_back(static_cast<int>(std::floor(m[i] * top + 0.5)));
        }
    } else {
        if (img->channels != 1)
            ipt::plugin::invalid("ipt.dither: parameter 'I' must be a grayscale image (1 channel) when no map is given");
        mapq = {0, 0, 0, top, top, top};
    }
    const int64_t cells = int64_t{1} << (3 * qm);
    if (cells > (int64_t{1} << 18))
        ipt::plugin::unsupported("ipt.dither: Qm above 6 is left to the reference");
    const int64_t colours = static_cast<int64_t>(mapq.size() / 3);
    const int32_t out_class = !map ? IPT_LOGICAL : (colours <= 256 ? IPT_UINT8 : IPT_UINT16);
    const ipt_tensor* x = args.output("X", out_class, img->rows, img->cols, 1);
    const int64_t rows = img->rows, cols = img->cols;
    if (rows == 0 || cols == 0) return;
    // Inverse colormap: nearest colour to each cell centre, ties to the lowest index.
    const int shift = bits - static_cast<int>(qm);
    const int64_t w = int64_t{1} << shift, half = w / 2, per_axis = int64_t{1} << qm;
    std::vector<uint16_t> inverse(static_cast<size_t>(cells));
    for (int64_t ir = 0; ir < per_axis; ++ir)
        for (int64_t ig = 0; ig < per_axis; ++ig)
            for (int64_t ib = 0; ib < per_axis; ++ib) {
                const int64_t cr = ir * w + half, cg = ig * w + half, cb = ib * w + half;
                int best = 0;
                int64_t best_d = -1;
                for (int64_t k = 0; k < colours; ++k) {
                    const int64_t dr = cr - mapq[3 * k], dg = cg - mapq[3 * k + 1], db = cb - mapq[3 * k + 2];
                    const int64_t d = dr * dr + dg * dg + db * db;
                    if (best_d < 0 || d < best_d) {
                        best_d = d;
                        best = static_cast<int>(k);
                    }
                }
                inverse[static_cast<size_t>((((ir << qm) | ig) << qm) | ib)] = static_cast<uint16_t>(best);
            }
    std::vector<int> qtab(256);
    for (int v = 0; v < 256; ++v) qtab[v] = static_cast<int>((2 * int64_t(v) * top + 255) / 510);
    cudaStream_t s = dev.stream;
    DeviceArray<int> d_mapq = to_device(mapq, s), d_qtab = to_device(qtab, s);
    DeviceArray<uint16_t> d_inv = to_device(inverse, s);
    const int chunks = static_cast<int>((cols + 31) / 32);
    DeviceArray<int> boundary(static_cast<size_t>(chunks) * rows * 3, s);
    DeviceArray<unsigned> progress(chunks, s);
    boundary.zero();
    progress.zero();
    DitherParams p{rows, cols, top, (1 << bits) / 32, shift, static_cast<int>(qm), d_mapq.get(), d_inv.get(),
                   d_qtab.get(), boundary.get(), progress.get(), chunks};
    // Every warp must be resident: chunk k waits on chunk k-1.
    const int grid = std::min(chunks, dev.sm_count * 16);
    visit_dtype(img->dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> || std::is_floating_point_v<T>) {
            if (!map)
                dither_wavefront<T, 1, bool><<<grid, 32, 0, s>>>(dptr<const T>(img), dptr<bool>(x), p);
            else if (out_class == IPT_UINT8)
                dither_wavefront<T, 3, uint8_t><<<grid, 32, 0, s>>>(dptr<const T>(img), dptr<uint8_t>(x), p);
            else
                dither_wavefront<T, 3, uint16_t><<<grid, 32, 0, s>>>(dptr<const T>(img), dptr<uint16_t>(x), p);
        } else {
            ipt::plugin::unsupported("ipt.dither: class of 'I' not handled");
        }
    });
    check_launch("ipt.dither");
}

IPT_CUDA_OP("ipt.dither", "", 100, run_dither)

}  // namespace
}  // namespace ipt::cuda
