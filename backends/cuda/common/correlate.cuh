// SPDX-License-Identifier: Apache-2.0
// 2-D correlation engine shared by conv2, imfilter and edge:
//
//   out(p, r, c) = sum_{i<kh} sum_{j<kw} w(i, j) * A_b(p, r + i - off_r, c + j - off_c)
//
// with A_b the plane p of A extended by a border rule, w the taps (optionally
// rotated by 180 degrees, which turns correlation into convolution), and the
// sum accumulated in double in the order i, then j (the reference's order),
// then converted once to the output class (imfilter of single and double
// sums in its class in the reference's order instead: see
// CorrGeometry::class_sum). For imfilter, zero taps are
// skipped as in the reference and MATLAB (Inf or NaN in A reaches only outputs
// whose tap on it is nonzero); conv2 keeps the dense sum.
//
// Tiled path: a 32 x 32 output tile per block of 32 x 8 threads, each thread
// computing 4 consecutive outputs of one column from an input tile (tile + halo) staged in
// shared memory with the border already resolved, and the taps in shared
// memory. Kernels too large for shared memory use the gather path (taps and
// input through the read-only cache).
#pragma once

#include <cmath>
#include <type_traits>
#include <vector>

#include "common/buffer.hpp"
#include "common/device.cuh"
#include "rank1.hpp"

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
    // imfilter of a single or double image sums in the output's class in the
    // reference's order (MATLAB filters single in single): each kernel row's
    // nonzero taps (the taps rounded to the class, zero tested after
    // rounding) summed, j in order, then the row sums added, i in order,
    // every product and sum rounded on its own. A sum whose partial sums
    // overflow is then Inf exactly where the reference's is; a double
    // accumulator for single, or one running sum, gives another result.
    bool class_sum = false;
    // conv2 (dense sum, zero border) sums only the products that overlap the
    // image, as MATLAB's conv2 does: a padded zero times an Inf or NaN tap is
    // no product at all there, not NaN. Only non-finite taps can tell the
    // difference, so the kernels check the position for those alone.
    __host__ __device__ bool overlap_only() const { return !skip_zero_taps && border == Border::Constant; }
    __device__ bool inside(int64_t r, int64_t c, int i, int j) const {
        const int64_t ri = r + i - off_r, ci = c + j - off_c;
        return ri >= 0 && ri < in_rows && ci >= 0 && ci < in_cols;
    }
};

// Products and sums rounded on their own, whatever the contraction flags
// (CorrGeometry::class_sum).
__device__ __forceinline__ float mul_rn(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double mul_rn(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ float add_rn(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ double add_rn(double a, double b) { return __dadd_rn(a, b); }

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

// Stages the block's input tile of plane blockIdx.z: the inputs of TileH
// output rows of kTileW columns, with the K - 1 halo rows and columns, the
// border resolved.
template <int TileH, int K, class TIn, class TS>
__device__ __forceinline__ void stage_block_tile(const TIn* a, const CorrGeometry& g, TIn pad, TS* tile) {
    constexpr int th = TileH + K - 1, tw = kTileW + K - 1;
    const TIn* plane = a + static_cast<int64_t>(blockIdx.z) * g.in_rows * g.in_cols;
    const int64_t r0 = static_cast<int64_t>(blockIdx.y) * TileH - g.off_r;
    const int64_t c0 = static_cast<int64_t>(blockIdx.x) * kTileW - g.off_c;
    stage_tile<tw>(plane, g.in_rows, g.in_cols, g.border, pad, r0, c0, th, tw, tile);
}

// Writes a thread's outputs: rows row0 + k of its block's tile of TileH
// output rows, in column c of plane p, each converted once to TOut
// (saturate_round; a floating output takes the value as it is).
template <int TileH, class TOut, class Acc, int PerThread>
__device__ __forceinline__ void store_column(TOut* out, const CorrGeometry& g, int64_t p, int row0, int64_t c,
                                             const Acc (&acc)[PerThread]) {
    TOut* dst = out + p * g.out_rows * g.out_cols;
#pragma unroll
    for (int k = 0; k < PerThread; ++k) {
        const int64_t r = static_cast<int64_t>(blockIdx.y) * TileH + row0 + k;
        if (r < g.out_rows && c < g.out_cols) dst[r * g.out_cols + c] = saturate_round<TOut>(acc[k]);
    }
}

// Shared-memory element type of the input tile: double, converted once while
// staging (a conversion per tap would cost more than the wider loads).
template <class TIn>
using TileType = double;

// The accumulation of correlate_tiled. Each thread owns kPerThread
// consecutive output rows, so an input row of the tile feeds up to kPerThread
// outputs: (kh + kPerThread - 1) * kw shared loads per thread instead of
// kPerThread * kh * kw. Each output still accumulates in the order i, then j.
// OverlapCheck: conv2 with a non-finite tap (see CorrGeometry::overlap_only).
template <bool OverlapCheck, class TOut, class TS>
__device__ __forceinline__ void correlate_tile_rows(const TS* tile, const double* taps, const CorrGeometry& g, int tw,
                                                    int64_t p, TOut* out) {
    const int kh = g.kh, kw = g.kw;
    double acc[kPerThread];
#pragma unroll
    for (int k = 0; k < kPerThread; ++k) acc[k] = 0.0;
    const int row0 = threadIdx.y * kPerThread;
    const int64_t c = static_cast<int64_t>(blockIdx.x) * kTileW + threadIdx.x;
    for (int rr = 0; rr < kh + kPerThread - 1; ++rr) {
        const TS* line = tile + (row0 + rr) * tw + threadIdx.x;
        for (int j = 0; j < kw; ++j) {
            const double v = static_cast<double>(line[j]);
#pragma unroll
            for (int k = 0; k < kPerThread; ++k) {
                const int i = rr - k;
                if (i >= 0 && i < kh) {
                    const double w = taps[i * kw + j];
                    if constexpr (OverlapCheck)
                        if (!isfinite(w) && !g.inside(static_cast<int64_t>(blockIdx.y) * kTileH + row0 + k, c, i, j))
                            continue;
                    if (w != 0.0 || !g.skip_zero_taps) acc[k] += v * w;
                }
            }
        }
    }
    store_column<kTileH>(out, g, p, row0, c, acc);
}

// correlate_tile_rows for CorrGeometry::class_sum (imfilter of single and
// double): a partial sum per kernel row, in the output's class. Instantiated
// for imfilter alone, so that the other callers' kernels stay as they are.
template <class TOut, class TS>
__device__ __forceinline__ void correlate_tile_rows_class(const TS* tile, const double* taps, const CorrGeometry& g,
                                                          int tw, int64_t p, TOut* out) {
    static_assert(std::is_floating_point_v<TOut>);
    const int kh = g.kh, kw = g.kw;
    using Acc = TOut;
    Acc acc[kPerThread];
#pragma unroll
    for (int k = 0; k < kPerThread; ++k) acc[k] = 0;
    const int row0 = threadIdx.y * kPerThread;
    const int64_t c = static_cast<int64_t>(blockIdx.x) * kTileW + threadIdx.x;
    for (int rr = 0; rr < kh + kPerThread - 1; ++rr) {
        const TS* line = tile + (row0 + rr) * tw + threadIdx.x;
        Acc part[kPerThread];
#pragma unroll
        for (int k = 0; k < kPerThread; ++k) part[k] = 0;
        for (int j = 0; j < kw; ++j) {
            const Acc v = static_cast<Acc>(line[j]);
#pragma unroll
            for (int k = 0; k < kPerThread; ++k) {
                const int i = rr - k;
                if (i < 0 || i >= kh) continue;
                const Acc w = static_cast<Acc>(taps[i * kw + j]);
                if (w != Acc(0)) part[k] = add_rn(part[k], mul_rn(w, v));
            }
        }
#pragma unroll
        for (int k = 0; k < kPerThread; ++k)
            if (rr - k >= 0 && rr - k < kh) acc[k] = add_rn(acc[k], part[k]);
    }
    store_column<kTileH>(out, g, p, row0, c, acc);
}

template <class TIn, class TOut, class TS, bool ClassSum = false>
__global__ void __launch_bounds__(kTileW* kBlockRows)
correlate_tiled(const TIn* __restrict__ a, TOut* __restrict__ out, Taps taps, CorrGeometry g, TIn pad) {
    extern __shared__ double shared_taps[];
    const int kh = g.kh, kw = g.kw;
    const int th = kTileH + kh - 1, tw = kTileW + kw - 1;
    TS* tile = reinterpret_cast<TS*>(shared_taps + kh * kw);
    const int tid = threadIdx.y * kTileW + threadIdx.x;
    const int nthreads = kTileW * kBlockRows;
    bool nonfinite_tap = false;
    for (int idx = tid; idx < kh * kw; idx += nthreads) {
        shared_taps[idx] = taps.at(idx / kw, idx % kw, kh, kw, g.rotate);
        nonfinite_tap |= !isfinite(shared_taps[idx]);
    }
    const int64_t p = blockIdx.z;
    const TIn* plane = a + p * g.in_rows * g.in_cols;
    const int64_t r0 = static_cast<int64_t>(blockIdx.y) * kTileH - g.off_r;
    const int64_t c0 = static_cast<int64_t>(blockIdx.x) * kTileW - g.off_c;
    stage_tile<0>(plane, g.in_rows, g.in_cols, g.border, pad, r0, c0, th, tw, tile);
    const bool careful = __syncthreads_or(nonfinite_tap) && g.overlap_only();
    // The position test for non-finite taps lives in its own instantiation:
    // in the common loop even a never-taken test doubled a 31x31 kernel's time.
    if (careful)
        correlate_tile_rows<true, TOut>(tile, shared_taps, g, tw, p, out);
    else if constexpr (ClassSum)
        correlate_tile_rows_class<TOut>(tile, shared_taps, g, tw, p, out);
    else
        correlate_tile_rows<false, TOut>(tile, shared_taps, g, tw, p, out);
}

template <class TIn, class TOut>
__global__ void correlate_gather(const TIn* __restrict__ a, TOut* __restrict__ out, Taps taps,
                                 CorrGeometry g, TIn pad) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
    if (r >= g.out_rows || c >= g.out_cols) return;
    const int64_t p = blockIdx.z;
    const TIn* plane = a + p * g.in_rows * g.in_cols;
    if constexpr (std::is_floating_point_v<TOut>) {
        if (g.class_sum) {
            // See CorrGeometry::class_sum.
            using Acc = TOut;
            Acc acc = 0;
            for (int i = 0; i < g.kh; ++i) {
                const int64_t ri = border_index(g.border, r + i - g.off_r, g.in_rows);
                Acc part = 0;
                for (int j = 0; j < g.kw; ++j) {
                    const Acc w = static_cast<Acc>(taps.at(i, j, g.kh, g.kw, g.rotate));
                    if (w == Acc(0)) continue;
                    const int64_t ci = border_index(g.border, c + j - g.off_c, g.in_cols);
                    const TIn v = (ri < 0 || ci < 0) ? pad : plane[ri * g.in_cols + ci];
                    part = add_rn(part, mul_rn(w, static_cast<Acc>(to_double(v))));
                }
                acc = add_rn(acc, part);
            }
            out[p * g.out_rows * g.out_cols + r * g.out_cols + c] = acc;
            return;
        }
    }
    double acc = 0.0;
    for (int i = 0; i < g.kh; ++i) {
        const int64_t ri = border_index(g.border, r + i - g.off_r, g.in_rows);
        for (int j = 0; j < g.kw; ++j) {
            const int64_t ci = border_index(g.border, c + j - g.off_c, g.in_cols);
            const double w = taps.at(i, j, g.kh, g.kw, g.rotate);
            if (w == 0.0 && g.skip_zero_taps) continue;
            if (!isfinite(w) && g.overlap_only() && !g.inside(r, c, i, j)) continue;
            const TIn v = (ri < 0 || ci < 0) ? pad : plane[ri * g.in_cols + ci];
            acc += to_double(v) * w;
        }
    }
    out[p * g.out_rows * g.out_cols + r * g.out_cols + c] = saturate_round<TOut>(acc);
}

// Small square kernels (K = 3, 5, 7, 9) with a single-precision output: the
// taps and the input tile in shared memory as float, and each
// thread computes a patch of kSmallCols consecutive columns by
// SmallPatch::rows consecutive rows. A staged row is read once, as 16-byte
// words, and feeds every output of the patch it reaches from registers. Each
// output sums every kernel row in float (j in order), then the row sums in
// float (i in order): at most 2K - 1 roundings, so the error stays within
// (2K - 1) u (|A|*|B|)(p), u = 2^-24, inside the catalogue's bound of
// 16 eps(single) = 32 u for conv2 and imfilter.
constexpr int kSmallCols = 4, kSmallBlockCols = 32, kSmallBlockRows = 4;
constexpr int kSmallTileW = kSmallBlockCols * kSmallCols;
template <int K>
struct SmallPatch {
    static constexpr int rows = 8;
    static constexpr int tap_pitch = (K + 3) / 4 * 4;
    // Blocks an SM keeps: 8 (64 registers) hold a 2048 x 2048 image's 1024
    // blocks in one wave on a 132-SM device; 9 x 9 needs more registers.
    static constexpr int min_blocks = K >= 9 ? 6 : 8;
    static constexpr int tile_h = kSmallBlockRows * rows;
    // 16-byte words a thread reads per staged row (K + kSmallCols - 1
    // values), and the staged width that covers the last thread's words.
    static constexpr int words = (K + kSmallCols - 1 + 3) / 4;
    static constexpr int staged_w = kSmallCols * (kSmallBlockCols - 1) + 4 * words;
};

template <class TIn>
inline constexpr bool kExactInFloat = std::is_same_v<TIn, float> || std::is_same_v<TIn, uint8_t> ||
                                      std::is_same_v<TIn, uint16_t> || std::is_same_v<TIn, int16_t> ||
                                      std::is_same_v<TIn, bool>;

// The sweep of the small-kernel paths: each thread owns PerThread
// consecutive output rows of its column, and staged row t of the tile (K
// values from the thread's column on) feeds its output k through kernel row
// i = t - k; body(k, i, x) adds that contribution. Each output therefore sees
// its kernel rows in order.
template <int K, int PerThread, class TS, class Body>
__device__ __forceinline__ void for_each_staged_row(const TS* tile, int tw, int row0, Body&& body) {
#pragma unroll
    for (int t = 0; t < PerThread + K - 1; ++t) {
        TS x[K];
#pragma unroll
        for (int j = 0; j < K; ++j) x[j] = tile[(row0 + t) * tw + threadIdx.x + j];
#pragma unroll
        for (int k = 0; k < PerThread; ++k) {
            const int i = t - k;
            if (i >= 0 && i < K) body(k, i, x);
        }
    }
}

// A zero tap times a finite value adds a zero that changes no sum (a row sum
// starts at +0 and never becomes -0), so imfilter's skipping of zero taps
// only matters where the tile holds an Inf or a NaN. Blocks whose tile is
// finite, and conv2 with finite taps, take the dense unrolled sums; the
// others (rare) go one output at a time, with each tap's rule.
template <int K, bool SkipZero, bool FloatSum>
__device__ __forceinline__ void correlate_small_exact(const float* tile, int tw, int row0, int col0, int rows,
                                                   int64_t r_first, int64_t c, float* dst, const Taps& taps,
                                                   const CorrGeometry& g) {
    for (int k = 0; k < rows; ++k) {
        for (int q = 0; q < kSmallCols; ++q) {
            const int64_t r = r_first + k;
            float sum = 0.0f;
            for (int i = 0; i < K; ++i) {
                float part = 0.0f;
                for (int j = 0; j < K; ++j) {
                    const double given = taps.at(i, j, K, K, g.rotate);
                    const float tap = static_cast<float>(given);
                    // FloatSum: the zero test after rounding, as the reference's single taps.
                    if (SkipZero && (FloatSum ? tap == 0.0f : given == 0.0)) continue;
                    // conv2: products outside the image are left out (see CorrGeometry).
                    if (g.overlap_only() && !isfinite(tap) && !g.inside(r, c + q, i, j)) continue;
                    const float x = tile[(row0 + k + i) * tw + col0 + q + j];
                    if constexpr (FloatSum) part = __fadd_rn(part, __fmul_rn(tap, x));
                    else part = fmaf(tap, x, part);
                }
                sum = __fadd_rn(sum, part);
            }
            if (r < g.out_rows && c + q < g.out_cols) dst[r * g.out_cols + c + q] = sum;
        }
    }
}

template <int K, bool SkipZero, bool FloatSum, class TIn>
__global__ void __launch_bounds__(kSmallBlockCols* kSmallBlockRows, SmallPatch<K>::min_blocks)
correlate_small(const TIn* __restrict__ a, float* __restrict__ out, Taps taps, CorrGeometry g, TIn pad) {
    using Patch = SmallPatch<K>;
    constexpr int th = Patch::tile_h + K - 1, tw = Patch::staged_w;
    __shared__ __align__(16) float tile[th * tw];
    const int64_t p = blockIdx.z;
    stage_tile<tw>(a + p * g.in_rows * g.in_cols, g.in_rows, g.in_cols, g.border, pad,
                   static_cast<int64_t>(blockIdx.y) * Patch::tile_h - g.off_r,
                   static_cast<int64_t>(blockIdx.x) * kSmallTileW - g.off_c, th, tw, tile);
    // The taps in shared memory, each kernel row padded to whole 16-byte
    // words: every thread reads the same word (a broadcast), which leaves the
    // registers to the outputs and lets more warps hide the latencies.
    __shared__ __align__(16) float w[K][Patch::tap_pitch];
    bool nonfinite_tap = false;
    for (int idx = threadIdx.y * kSmallBlockCols + threadIdx.x; idx < K * Patch::tap_pitch;
         idx += kSmallBlockCols * kSmallBlockRows) {
        const int i = idx / Patch::tap_pitch, j = idx % Patch::tap_pitch;
        const double tap = j < K ? taps.at(i, j, K, K, g.rotate) : 0.0;
        w[i][j] = static_cast<float>(tap);
        nonfinite_tap |= !isfinite(tap);
    }
    bool exact;
    if constexpr (SkipZero) {
        __syncthreads();
        bool nonfinite_value = false;
        for (int idx = threadIdx.y * kSmallBlockCols + threadIdx.x; idx < th * tw; idx += kSmallBlockCols * kSmallBlockRows)
            nonfinite_value |= !isfinite(tile[idx]);
        exact = __syncthreads_or(nonfinite_value);
    } else {
        exact = __syncthreads_or(nonfinite_tap) && g.overlap_only();
    }
    const int row0 = threadIdx.y * Patch::rows, col0 = threadIdx.x * kSmallCols;
    const int64_t r_first = static_cast<int64_t>(blockIdx.y) * Patch::tile_h + row0;
    const int64_t c = static_cast<int64_t>(blockIdx.x) * kSmallTileW + col0;
    float* dst = out + p * g.out_rows * g.out_cols;
    if (exact) {
        correlate_small_exact<K, SkipZero, FloatSum>(tile, tw, row0, col0, Patch::rows, r_first, c, dst, taps, g);
        return;
    }
    float acc[Patch::rows][kSmallCols];
#pragma unroll
    for (int k = 0; k < Patch::rows; ++k)
#pragma unroll
        for (int q = 0; q < kSmallCols; ++q) acc[k][q] = 0.0f;
    // Staged row t feeds output row k through kernel row i = t - k, so each
    // output sees its kernel rows in order.
#pragma unroll
    for (int t = 0; t < Patch::rows + K - 1; ++t) {
        float x[4 * Patch::words];
        const float4* words = reinterpret_cast<const float4*>(tile + (row0 + t) * tw + col0);
#pragma unroll
        for (int l = 0; l < Patch::words; ++l) {
            const float4 v = words[l];
            x[4 * l] = v.x;
            x[4 * l + 1] = v.y;
            x[4 * l + 2] = v.z;
            x[4 * l + 3] = v.w;
        }
#pragma unroll
        for (int k = 0; k < Patch::rows; ++k) {
            const int i = t - k;
            if (i < 0 || i >= K) continue;
            float wi[Patch::tap_pitch];
#pragma unroll
            for (int l = 0; l < Patch::tap_pitch / 4; ++l) {
                const float4 v = reinterpret_cast<const float4*>(w[i])[l];
                wi[4 * l] = v.x;
                wi[4 * l + 1] = v.y;
                wi[4 * l + 2] = v.z;
                wi[4 * l + 3] = v.w;
            }
#pragma unroll
            for (int q = 0; q < kSmallCols; ++q) {
                float part = 0.0f;
#pragma unroll
                for (int j = 0; j < K; ++j) {
                    // FloatSum: see CorrGeometry::class_sum.
                    if constexpr (FloatSum) part = __fadd_rn(part, __fmul_rn(wi[j], x[q + j]));
                    else part = fmaf(wi[j], x[q + j], part);
                }
                acc[k][q] = __fadd_rn(acc[k][q], part);
            }
        }
    }
    const bool vector_rows = g.out_cols % kSmallCols == 0 && reinterpret_cast<uintptr_t>(dst) % 16 == 0;
#pragma unroll
    for (int k = 0; k < Patch::rows; ++k) {
        const int64_t r = r_first + k;
        if (r >= g.out_rows || c >= g.out_cols) break;
        float* o = dst + r * g.out_cols + c;
        if (vector_rows) {
            *reinterpret_cast<float4*>(o) = make_float4(acc[k][0], acc[k][1], acc[k][2], acc[k][3]);
        } else {
#pragma unroll
            for (int q = 0; q < kSmallCols; ++q)
                if (c + q < g.out_cols) o[q] = acc[k][q];
        }
    }
}

template <int K, class TIn>
void launch_correlate_small(const TIn* a, float* out, Taps taps, const CorrGeometry& g, TIn pad, cudaStream_t s) {
    dim3 block(kSmallBlockCols, kSmallBlockRows);
    dim3 grid(static_cast<unsigned>((g.out_cols + kSmallTileW - 1) / kSmallTileW),
              static_cast<unsigned>((g.out_rows + SmallPatch<K>::tile_h - 1) / SmallPatch<K>::tile_h), static_cast<unsigned>(g.planes));
    if (g.skip_zero_taps && g.class_sum)
        correlate_small<K, true, true, TIn><<<grid, block, 0, s>>>(a, out, taps, g, pad);
    else if (g.skip_zero_taps)
        correlate_small<K, true, false, TIn><<<grid, block, 0, s>>>(a, out, taps, g, pad);
    else
        correlate_small<K, false, false, TIn><<<grid, block, 0, s>>>(a, out, taps, g, pad);
}

// True when the small-kernel path took the call.
template <class TIn, class TOut>
bool correlate_small_async(const TIn* a, TOut* out, Taps taps, const CorrGeometry& g, TIn pad, cudaStream_t s) {
    if constexpr (std::is_same_v<TOut, float> && kExactInFloat<TIn>) {
        if (g.kh != g.kw) return false;
        switch (g.kh) {
        case 3: launch_correlate_small<3>(a, out, taps, g, pad, s); return true;
        case 5: launch_correlate_small<5>(a, out, taps, g, pad, s); return true;
        case 7: launch_correlate_small<7>(a, out, taps, g, pad, s); return true;
        case 9: launch_correlate_small<9>(a, out, taps, g, pad, s); return true;
        default: return false;
        }
    }
    return false;
}

// Square K x K kernels of finite taps known on the host. Integer outputs are
// summed in double as the CPU reference (backends/cpu/common/correlate.hpp)
// sums them, so that integer results agree to the bit:
//  - a kernel that the reference splits into an exact column and row factor
//    (common/rank1.hpp's separable_route) runs as the reference's two passes,
//    here fused in one block: the column pass into shared memory (each value
//    sum_i u[i] x, i in order), then the row pass (sum_j v[j] mid, j in order);
//  - any other kernel as one 2-D pass: each kernel row's products summed into
//    a partial (j in order), then the partials (i in order).
// A single image with such a split and no zero tap (a Gaussian) takes the same
// two fused passes in single precision, the reference's route and class;
// every tap being non-zero, no product needs skipping (0 x Inf).
// The taps travel in the launch parameters, so the fully unrolled loops read
// them from the constant bank. Zero taps need no skipping for integers: an
// integer value times 0 adds a zero, which changes no sum. Each thread
// computes kFixedPerThread outputs of one column from the staged tile.
constexpr int kFixedPerThread = 4, kFixedTileH = kBlockRows * kFixedPerThread;
constexpr int kFixedMaxK = 15;

template <int K, class Acc>
struct FixedTaps {
    Acc w[K * K];  // 2-D: row-major, already rotated for convolution
    Acc u[K], v[K];  // rank-1: column and row factors
};

__device__ __forceinline__ double fixed_madd(double acc, double w, double x) {
    return __dadd_rn(acc, __dmul_rn(w, x));
}
__device__ __forceinline__ float fixed_madd(float acc, float w, float x) {
    return __fadd_rn(acc, __fmul_rn(w, x));
}
__device__ __forceinline__ double fixed_add(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ float fixed_add(float a, float b) { return __fadd_rn(a, b); }

template <int K, bool Rank1, class Acc, class TIn, class TOut>
__global__ void __launch_bounds__(kTileW* kBlockRows)
correlate_fixed(const TIn* __restrict__ a, TOut* __restrict__ out, const __grid_constant__ FixedTaps<K, Acc> taps,
                CorrGeometry g, TIn pad) {
    constexpr int th = kFixedTileH + K - 1, tw = kTileW + K - 1;
    __shared__ Acc tile[th * tw];
    __shared__ Acc mid[Rank1 ? kFixedTileH * tw : 1];
    const int64_t p = blockIdx.z;
    stage_block_tile<kFixedTileH, K>(a, g, pad, tile);
    __syncthreads();
    const int row0 = threadIdx.y * kFixedPerThread;
    Acc acc[kFixedPerThread];
    if constexpr (Rank1) {
        for (int idx = threadIdx.y * kTileW + threadIdx.x; idx < kFixedTileH * tw; idx += kTileW * kBlockRows) {
            const int r = idx / tw, cc = idx - r * tw;
            Acc m = 0;
#pragma unroll
            for (int i = 0; i < K; ++i) m = fixed_madd(m, taps.u[i], tile[(r + i) * tw + cc]);
            mid[idx] = m;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < kFixedPerThread; ++k) {
            Acc part = 0;
#pragma unroll
            for (int j = 0; j < K; ++j) part = fixed_madd(part, taps.v[j], mid[(row0 + k) * tw + threadIdx.x + j]);
            acc[k] = fixed_add(Acc(0), part);
        }
    } else {
#pragma unroll
        for (int k = 0; k < kFixedPerThread; ++k) acc[k] = 0;
        for_each_staged_row<K, kFixedPerThread>(tile, tw, row0, [&](int k, int i, const Acc (&x)[K]) {
            Acc part = 0;
#pragma unroll
            for (int j = 0; j < K; ++j) part = fixed_madd(part, taps.w[i * K + j], x[j]);
            acc[k] = fixed_add(acc[k], part);
        });
    }
    const int64_t c = static_cast<int64_t>(blockIdx.x) * kTileW + threadIdx.x;
    store_column<kFixedTileH>(out, g, p, row0, c, acc);
}

template <int K, class Acc, class TIn, class TOut>
void launch_correlate_fixed(const TIn* a, TOut* out, const std::vector<double>& h, const ipt::common::Rank1& f,
                            const CorrGeometry& g, TIn pad, cudaStream_t s) {
    FixedTaps<K, Acc> taps{};
    for (int i = 0; i < K; ++i)
        for (int j = 0; j < K; ++j)
            taps.w[i * K + j] = static_cast<Acc>(g.rotate ? h[(K - 1 - i) * K + (K - 1 - j)] : h[i * K + j]);
    if (f.ok)
        for (int i = 0; i < K; ++i) {
            taps.u[i] = static_cast<Acc>(f.u[static_cast<size_t>(i)]);
            taps.v[i] = static_cast<Acc>(f.v[static_cast<size_t>(i)]);
        }
    const dim3 block(kTileW, kBlockRows);
    const dim3 grid(static_cast<unsigned>((g.out_cols + kTileW - 1) / kTileW),
                    static_cast<unsigned>((g.out_rows + kFixedTileH - 1) / kFixedTileH),
                    static_cast<unsigned>(g.planes));
    if (f.ok) correlate_fixed<K, true, Acc, TIn, TOut><<<grid, block, 0, s>>>(a, out, taps, g, pad);
    else correlate_fixed<K, false, Acc, TIn, TOut><<<grid, block, 0, s>>>(a, out, taps, g, pad);
}

template <class Acc, class TIn, class TOut>
bool launch_correlate_fixed_k(const TIn* a, TOut* out, const std::vector<double>& h, const ipt::common::Rank1& f,
                              const CorrGeometry& g, TIn pad, cudaStream_t s) {
    switch (g.kh) {
    case 3: launch_correlate_fixed<3, Acc>(a, out, h, f, g, pad, s); return true;
    case 5: launch_correlate_fixed<5, Acc>(a, out, h, f, g, pad, s); return true;
    case 7: launch_correlate_fixed<7, Acc>(a, out, h, f, g, pad, s); return true;
    case 9: launch_correlate_fixed<9, Acc>(a, out, h, f, g, pad, s); return true;
    case 11: launch_correlate_fixed<11, Acc>(a, out, h, f, g, pad, s); return true;
    case 13: launch_correlate_fixed<13, Acc>(a, out, h, f, g, pad, s); return true;
    case 15: launch_correlate_fixed<15, Acc>(a, out, h, f, g, pad, s); return true;
    default: return false;
    }
}

// True when the fixed-kernel path took the call: an integer output, or a
// single image with an exactly separable kernel of non-zero taps, and a
// square kernel of an odd size up to kFixedMaxK whose host taps h
// (row-major, kh x kw, as given before any rotation) are all finite.
template <class TIn, class TOut>
bool correlate_fixed_async(const TIn* a, TOut* out, const std::vector<double>& h, const CorrGeometry& g, TIn pad,
                           cudaStream_t s) {
    constexpr bool integer = std::is_integral_v<TOut> && !std::is_same_v<TOut, bool>;
    constexpr bool single = std::is_same_v<TIn, float> && std::is_same_v<TOut, float>;
    if constexpr (integer || single) {
        if (g.kh != g.kw || g.kh > kFixedMaxK || g.kh % 2 == 0 || g.planes > 65535 ||
            g.out_rows > int64_t{65535} * kFixedTileH || h.size() != static_cast<size_t>(g.kh) * g.kw)
            return false;
        for (double v : h)
            if (!std::isfinite(v) || (single && v == 0)) return false;
        const ipt::common::Rank1 f = ipt::common::separable_route(h.data(), g.kh, g.kw, g.rotate);
        if constexpr (single) {
            if (!f.ok) return false;
            return launch_correlate_fixed_k<float>(a, out, h, f, g, pad, s);
        } else {
            return launch_correlate_fixed_k<double>(a, out, h, f, g, pad, s);
        }
    }
    return false;
}

// imfilter with an integer output and a 3x3 or 5x5 filter on the device:
// the tiled path's sums (in double, i then j) with the filter size known at
// compile time and the taps in registers, each thread computing
// kIntegerPerThread outputs of one column from the staged tile. Zero taps are
// not skipped: the image's values are integers, so a zero tap adds an exact
// zero and leaves every sum as the reference's (which skips them); no branch
// per tap. The kernel is bound by instruction issue, so eight outputs a
// thread share each thread's tap reads and row loads.
constexpr int kIntegerPerThread = 8, kIntegerTileH = kBlockRows * kIntegerPerThread;

template <int K, class TIn, class TOut>
__global__ void __launch_bounds__(kTileW* kBlockRows)
correlate_small_integer(const TIn* __restrict__ a, TOut* __restrict__ out, Taps taps, CorrGeometry g, TIn pad) {
    static_assert(std::is_integral_v<TIn>, "zero taps are skipped implicitly only for integer values");
    constexpr int th = kIntegerTileH + K - 1, tw = kTileW + K - 1;
    __shared__ double tile[th * tw];
    const int64_t p = blockIdx.z;
    stage_block_tile<kIntegerTileH, K>(a, g, pad, tile);
    double w[K * K];
#pragma unroll
    for (int i = 0; i < K; ++i)
#pragma unroll
        for (int j = 0; j < K; ++j) w[i * K + j] = taps.at(i, j, K, K, g.rotate);
    __syncthreads();
    const int row0 = threadIdx.y * kIntegerPerThread;
    double acc[kIntegerPerThread];
#pragma unroll
    for (int k = 0; k < kIntegerPerThread; ++k) acc[k] = 0;
    for_each_staged_row<K, kIntegerPerThread>(tile, tw, row0, [&](int k, int i, const double (&x)[K]) {
#pragma unroll
        for (int j = 0; j < K; ++j) acc[k] = __dadd_rn(acc[k], __dmul_rn(x[j], w[i * K + j]));
    });
    const int64_t c = static_cast<int64_t>(blockIdx.x) * kTileW + threadIdx.x;
    store_column<kIntegerTileH>(out, g, p, row0, c, acc);
}

// True when correlate_small_integer took the call.
template <class TIn, class TOut>
bool correlate_small_integer_async(const TIn* a, TOut* out, Taps taps, const CorrGeometry& g, TIn pad,
                                   cudaStream_t s) {
    if constexpr (std::is_integral_v<TOut> && !std::is_same_v<TOut, bool> && std::is_integral_v<TIn>) {
        if (!g.skip_zero_taps || g.class_sum || g.kh != g.kw || (g.kh != 3 && g.kh != 5) || g.planes > 65535 ||
            g.out_rows > int64_t{65535} * kIntegerTileH)
            return false;
        const dim3 block(kTileW, kBlockRows);
        const dim3 grid(static_cast<unsigned>((g.out_cols + kTileW - 1) / kTileW),
                        static_cast<unsigned>((g.out_rows + kIntegerTileH - 1) / kIntegerTileH),
                        static_cast<unsigned>(g.planes));
        if (g.kh == 3) correlate_small_integer<3><<<grid, block, 0, s>>>(a, out, taps, g, pad);
        else correlate_small_integer<5><<<grid, block, 0, s>>>(a, out, taps, g, pad);
        return true;
    }
    return false;
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
    if (correlate_small_async(a, out, taps, g, pad, s) || correlate_small_integer_async(a, out, taps, g, pad, s)) {
        // launched
    } else if (bytes <= kCorrSharedLimit) {
        dim3 block(kTileW, kBlockRows);
        dim3 grid(static_cast<unsigned>((g.out_cols + kTileW - 1) / kTileW),
                  static_cast<unsigned>((g.out_rows + kTileH - 1) / kTileH), static_cast<unsigned>(g.planes));
        bool launched = false;
        if constexpr (std::is_floating_point_v<TOut>) {
            if (g.class_sum) {
                correlate_tiled<TIn, TOut, TileType<TIn>, true><<<grid, block, bytes, s>>>(a, out, taps, g, pad);
                launched = true;
            }
        }
        if (!launched) correlate_tiled<TIn, TOut, TileType<TIn>><<<grid, block, bytes, s>>>(a, out, taps, g, pad);
    } else {
        dim3 block(32, 8);
        dim3 grid = grid_2d(g.out_cols, g.out_rows, block);
        grid.z = static_cast<unsigned>(g.planes);
        correlate_gather<TIn, TOut><<<grid, block, 0, s>>>(a, out, taps, g, pad);
    }
    check_launch(what);
}

}  // namespace ipt::cuda
