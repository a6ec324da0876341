// 2-D correlation engine shared by conv2, imfilter and edge:
//
//   out(p, r, c) = sum_{i<kh} sum_{j<kw} w(i, j) * A_b(p, r + i - off_r, c + j - off_c)
//
// with A_b the plane p of A extended by a border rule, w the taps (optionally
// rotated by 180 degrees, which turns correlation into convolution), and the
// sum accumulated in double in the order i, then j (the reference's order),
// then converted once to the output class. For imfilter, zero taps are
// skipped as in the reference and MATLAB (Inf or NaN in A reaches only outputs
// whose tap on it is nonzero); conv2 keeps the dense sum.
//
// Tiled path: a 32 x 32 output tile per block of 32 x 8 threads, each thread
// computing 4 consecutive outputs of one column from an input tile (tile + halo) staged in
// shared memory with the border already resolved, and the taps in shared
// memory. Kernels too large for shared memory use the gather path (taps and
// input through the read-only cache).
#pragma once

#include "common/buffer.hpp"
#include "common/device.cuh"

namespace ipt::cuda {

struct CorrGeometry {
    int64_t in_rows = 0, in_cols = 0;
    int64_t out_rows = 0, out_cols = 0;
    int64_t off_r = 0, off_c = 0;
    int kh = 0, kw = 0;
    int64_t planes = 1;
    Border border = Border::Constant;
    bool rotate = false;  // use w(kh-1-i, kw-1-j): convolution
    // imfilter (and edge) use only the nonzero taps, as MATLAB's imfilter and
    // the reference do, so Inf/NaN in A stay local; conv2 keeps the dense sum
    // (0 * Inf = NaN), as MATLAB's conv2 and the reference do.
    bool skip_zero_taps = true;
};

// Taps: device array of kh*kw values, row-major, float or double.
struct Taps {
    const void* data = nullptr;
    bool single = false;
    __device__ double at(int i, int j, int kh, int kw, bool rotate) const {
        int idx = rotate ? (kh - 1 - i) * kw + (kw - 1 - j) : i * kw + j;
        return single ? static_cast<double>(static_cast<const float*>(data)[idx])
                      : static_cast<const double*>(data)[idx];
    }
};

constexpr int kTileW = 32, kTileH = 32, kBlockRows = 8, kPerThread = kTileH / kBlockRows;
constexpr size_t kCorrSharedLimit = 48 * 1024;

// Shared-memory element type of the input tile: double, converted once while
// staging (a conversion per tap would cost more than the wider loads).
template <class TIn>
using TileType = double;

template <class TIn, class TOut, class TS>
__global__ void __launch_bounds__(kTileW* kBlockRows)
correlate_tiled(const TIn* __restrict__ a, TOut* __restrict__ out, Taps taps, CorrGeometry g, TIn pad) {
    extern __shared__ double shared_taps[];
    const int kh = g.kh, kw = g.kw;
    const int th = kTileH + kh - 1, tw = kTileW + kw - 1;
    TS* tile = reinterpret_cast<TS*>(shared_taps + kh * kw);
    const int tid = threadIdx.y * kTileW + threadIdx.x;
    const int nthreads = kTileW * kBlockRows;
    for (int idx = tid; idx < kh * kw; idx += nthreads)
        shared_taps[idx] = taps.at(idx / kw, idx % kw, kh, kw, g.rotate);
    const int64_t p = blockIdx.z;
    const TIn* plane = a + p * g.in_rows * g.in_cols;
    const int64_t r0 = static_cast<int64_t>(blockIdx.y) * kTileH - g.off_r;
    const int64_t c0 = static_cast<int64_t>(blockIdx.x) * kTileW - g.off_c;
    for (int idx = tid; idx < th * tw; idx += nthreads) {
        const int tr = idx / tw, tc = idx - tr * tw;
        const int64_t ri = border_index(g.border, r0 + tr, g.in_rows);
        const int64_t ci = border_index(g.border, c0 + tc, g.in_cols);
        TIn v = (ri < 0 || ci < 0) ? pad : plane[ri * g.in_cols + ci];
        tile[idx] = static_cast<TS>(to_double(v));
    }
    __syncthreads();
    // Each thread owns kPerThread consecutive output rows, so an input row of
    // the tile feeds up to kPerThread outputs: (kh + kPerThread - 1) * kw
    // shared loads per thread instead of kPerThread * kh * kw. Each output
    // still accumulates in the order i, then j.
    double acc[kPerThread];
#pragma unroll
    for (int k = 0; k < kPerThread; ++k) acc[k] = 0.0;
    const int row0 = threadIdx.y * kPerThread;
    for (int rr = 0; rr < kh + kPerThread - 1; ++rr) {
        const TS* line = tile + (row0 + rr) * tw + threadIdx.x;
        for (int j = 0; j < kw; ++j) {
            const double v = static_cast<double>(line[j]);
#pragma unroll
            for (int k = 0; k < kPerThread; ++k) {
                const int i = rr - k;
                if (i >= 0 && i < kh) {
                    const double w = shared_taps[i * kw + j];
                    if (w != 0.0 || !g.skip_zero_taps) acc[k] += v * w;
                }
            }
        }
    }
    const int64_t c = static_cast<int64_t>(blockIdx.x) * kTileW + threadIdx.x;
    TOut* dst = out + p * g.out_rows * g.out_cols;
#pragma unroll
    for (int k = 0; k < kPerThread; ++k) {
        const int64_t r = static_cast<int64_t>(blockIdx.y) * kTileH + row0 + k;
        if (r < g.out_rows && c < g.out_cols) dst[r * g.out_cols + c] = saturate_round<TOut>(acc[k]);
    }
}

template <class TIn, class TOut>
__global__ void correlate_gather(const TIn* __restrict__ a, TOut* __restrict__ out, Taps taps,
                                 CorrGeometry g, TIn pad) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
    if (r >= g.out_rows || c >= g.out_cols) return;
    const int64_t p = blockIdx.z;
    const TIn* plane = a + p * g.in_rows * g.in_cols;
    double acc = 0.0;
    for (int i = 0; i < g.kh; ++i) {
        const int64_t ri = border_index(g.border, r + i - g.off_r, g.in_rows);
        for (int j = 0; j < g.kw; ++j) {
            const int64_t ci = border_index(g.border, c + j - g.off_c, g.in_cols);
            const double w = taps.at(i, j, g.kh, g.kw, g.rotate);
            if (w == 0.0 && g.skip_zero_taps) continue;
            const TIn v = (ri < 0 || ci < 0) ? pad : plane[ri * g.in_cols + ci];
            acc += to_double(v) * w;
        }
    }
    out[p * g.out_rows * g.out_cols + r * g.out_cols + c] = saturate_round<TOut>(acc);
}

template <class TIn>
size_t correlate_tiled_bytes(int kh, int kw) {
    return sizeof(double) * kh * kw +
           sizeof(TileType<TIn>) * static_cast<size_t>(kTileH + kh - 1) * (kTileW + kw - 1);
}

// Enqueues the correlation. pad is the constant for Border::Constant, already
// in the input class.
template <class TIn, class TOut>
void correlate_async(const TIn* a, TOut* out, Taps taps, const CorrGeometry& g, TIn pad, cudaStream_t s,
                     const char* what) {
    if (g.out_rows == 0 || g.out_cols == 0 || g.planes == 0) return;
    if (g.kh == 0 || g.kw == 0) {
        check(cudaMemsetAsync(out, 0, sizeof(TOut) * g.out_rows * g.out_cols * g.planes, s), what);
        return;
    }
    const size_t bytes = correlate_tiled_bytes<TIn>(g.kh, g.kw);
    if (bytes <= kCorrSharedLimit) {
        dim3 block(kTileW, kBlockRows);
        dim3 grid(static_cast<unsigned>((g.out_cols + kTileW - 1) / kTileW),
                  static_cast<unsigned>((g.out_rows + kTileH - 1) / kTileH), static_cast<unsigned>(g.planes));
        correlate_tiled<TIn, TOut, TileType<TIn>><<<grid, block, bytes, s>>>(a, out, taps, g, pad);
    } else {
        dim3 block(32, 8);
        dim3 grid = grid_2d(g.out_cols, g.out_rows, block);
        grid.z = static_cast<unsigned>(g.planes);
        correlate_gather<TIn, TOut><<<grid, block, 0, s>>>(a, out, taps, g, pad);
    }
    check_launch(what);
}

}  // namespace ipt::cuda
