// SPDX-License-Identifier: Apache-2.0
// Upright integral image on CUDA, shared by integralImage, imboxfilt and
// adaptthresh: the table of backends/cpu/common/integral_image.hpp,
// cumsum(cumsum(P, 1), 2) of the padded plane P, in one of two routes.
//
// Exact route (integer and logical classes whose every partial sum is an
// integer below 2^53, so that any order of additions gives the same doubles):
//   1. integral_chunk_sums: the column sums of each chunk of kChunkRows rows;
//   2. integral_chunk_carries: their exclusive running sums down each column
//      (the column sums of P above each chunk);
//   3. integral_exact_rows: a block per chunk walks its rows across the full
//      width in segments, adds each row of P to its column carries and turns
//      the result into the row of J with a block-wide scan (plus the row's
//      carry from the segments before).
// Every load and store is coalesced and the grid has a block per chunk.
//
// Ordered route (single, double, and integers whose sums could pass 2^53):
// the CPU reference's order, every column summed down in order, then every
// row of those along in order. Each running sum is one serial chain, so
// the parallelism is a chain per column (then per row); what the route adds
// is memory-level parallelism: a warp per 32 chains streams its next
// kOrderedStages tiles into shared memory with asynchronous copies while it
// adds the current one, so each chain waits for the adds only.
#pragma once

#include <cuda_pipeline.h>

#include <cmath>
#include <cub/block/block_scan.cuh>
#include <limits>
#include <type_traits>

#include "common/buffer.hpp"
#include "common/check.hpp"
#include "common/device.cuh"

namespace ipt::cuda {

struct IntegralGeometry {
    int64_t m = 0, n = 0;        // the plane
    Border border = Border::Replicate;
    double pad = 0;              // for Border::Constant
    int64_t top = 0, left = 0;   // padding before the first row and column
    int64_t pm = 0, pn = 0;      // padded size; J is (pm+1) x (pn+1)
};

// Whether every partial sum of the padded plane is an exact integer in
// double: then the exact route gives the same table as the ordered one.
template <class T>
inline bool integral_is_exact(const IntegralGeometry& g) {
    if constexpr (std::is_floating_point_v<T>) {
        return false;
    } else {
        double magnitude = 1;  // logical
        if constexpr (!std::is_same_v<T, bool>)
            magnitude = std::fmax(-static_cast<double>(std::numeric_limits<T>::lowest()),
                                  static_cast<double>(std::numeric_limits<T>::max()));
        return magnitude * static_cast<double>(g.pm) * static_cast<double>(g.pn) < 9007199254740992.0;  // 2^53
    }
}

// P(r, c) from A's row ar and column ac (border_index's results).
template <class T>
__device__ __forceinline__ double padded_value(const T* __restrict__ a, const IntegralGeometry& g, int64_t ar,
                                               int64_t ac) {
    return (ar < 0 || ac < 0) ? g.pad : to_double(a[ar * g.n + ac]);
}

// ---- exact route ----------------------------------------------------------------

constexpr int kChunkRows = 8;                            // rows of P per chunk
constexpr int kExactThreads = 256, kExactItems = 4;      // 1024 columns a segment

template <class T>
__global__ void __launch_bounds__(kExactThreads)
integral_chunk_sums(const T* __restrict__ a, double* __restrict__ sums, IntegralGeometry g, int64_t chunks) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (c >= g.pn) return;
    const int64_t ac = border_index(g.border, c - g.left, g.n);
    for (int64_t k = blockIdx.y; k < chunks; k += gridDim.y) {
        const int64_t r0 = k * kChunkRows;
        double v[kChunkRows];
#pragma unroll
        for (int i = 0; i < kChunkRows; ++i)
            v[i] = r0 + i < g.pm ? padded_value(a, g, border_index(g.border, r0 + i - g.top, g.m), ac) : 0.0;
        double s = 0;
#pragma unroll
        for (int i = 0; i < kChunkRows; ++i) s += v[i];
        sums[k * g.pn + c] = s;
    }
}

// In place: sums(k, c) becomes the sum of sums(0..k-1, c). A block of 32 x 32
// threads per 32 columns; thread row y owns a run of chunks. (Kernels are
// templates, so that every op file including this header may instantiate them.)
template <int Lanes = 32>
__global__ void __launch_bounds__(Lanes * 32)
integral_chunk_carries(double* __restrict__ sums, int64_t pn, int64_t chunks) {
    __shared__ double part[32][33];
    const int x = threadIdx.x, y = threadIdx.y;
    const int64_t c = static_cast<int64_t>(blockIdx.x) * 32 + x;
    const int64_t per = (chunks + 31) / 32;
    const int64_t k0 = y * per, k1 = k0 + per < chunks ? k0 + per : chunks;
    double s = 0;
    if (c < pn)
        for (int64_t k = k0; k < k1; ++k) s += sums[k * pn + c];
    part[y][x] = s;
    __syncthreads();
    if (y == 0) {
        double run = 0;
        for (int i = 0; i < 32; ++i) {
            const double t = part[i][x];
            part[i][x] = run;
            run += t;
        }
    }
    __syncthreads();
    double run = part[y][x];
    if (c < pn)
        for (int64_t k = k0; k < k1; ++k) {
            const double t = sums[k * pn + c];
            sums[k * pn + c] = run;
            run += t;
        }
}

template <class T>
__global__ void __launch_bounds__(kExactThreads)
integral_exact_rows(const T* __restrict__ a, const double* __restrict__ carries, double* __restrict__ J,
                    IntegralGeometry g) {
    using Scan = cub::BlockScan<double, kExactThreads>;
    __shared__ typename Scan::TempStorage scan;
    const int64_t stride = g.pn + 1;
    const int64_t k = blockIdx.x;
    const int64_t r0 = k * kChunkRows;
    const int rows = g.pm - r0 < kChunkRows ? static_cast<int>(g.pm - r0) : kChunkRows;
    if (static_cast<int>(threadIdx.x) < rows) J[(r0 + 1 + threadIdx.x) * stride] = 0;
    if (k == 0)
        for (int64_t c = threadIdx.x; c <= g.pn; c += blockDim.x) J[c] = 0;
    int64_t ar[kChunkRows];
#pragma unroll
    for (int i = 0; i < kChunkRows; ++i) ar[i] = i < rows ? border_index(g.border, r0 + i - g.top, g.m) : -1;
    double row_carry[kChunkRows];
#pragma unroll
    for (int i = 0; i < kChunkRows; ++i) row_carry[i] = 0;
    constexpr int64_t kSegment = int64_t{kExactThreads} * kExactItems;
    for (int64_t s0 = 0; s0 < g.pn; s0 += kSegment) {
        const int64_t cb = s0 + static_cast<int64_t>(threadIdx.x) * kExactItems;
        int64_t ac[kExactItems];
        double col[kExactItems];
#pragma unroll
        for (int j = 0; j < kExactItems; ++j) {
            const bool live = cb + j < g.pn;
            ac[j] = live ? border_index(g.border, cb + j - g.left, g.n) : -1;
            col[j] = live ? carries[k * g.pn + cb + j] : 0.0;
        }
        // Every load of the segment first, then the dependent scans.
        double v[kChunkRows][kExactItems];
#pragma unroll
        for (int i = 0; i < kChunkRows; ++i)
#pragma unroll
            for (int j = 0; j < kExactItems; ++j)
                v[i][j] = (i < rows && cb + j < g.pn) ? padded_value(a, g, ar[i], ac[j]) : 0.0;
#pragma unroll
        for (int i = 0; i < kChunkRows; ++i) {
            if (i >= rows) break;  // the same for the whole block
#pragma unroll
            for (int j = 0; j < kExactItems; ++j) col[j] += v[i][j];
            double out[kExactItems], total;
            Scan(scan).InclusiveSum(col, out, total);
            __syncthreads();
            double* dst = J + (r0 + i + 1) * stride + 1;
#pragma unroll
            for (int j = 0; j < kExactItems; ++j)
                if (cb + j < g.pn) dst[cb + j] = out[j] + row_carry[i];
            row_carry[i] += total;
        }
    }
}

// ---- ordered route --------------------------------------------------------------

constexpr int kOrderedTile = 32, kOrderedStages = 4;

// cumsum(P, 1) into rows 1..pm of J, and J's zero first row. A warp per 32
// columns; each lane copies its own column's values, so it reads back only
// what it copied itself.
template <class T>
__global__ void __launch_bounds__(kOrderedTile)
integral_ordered_columns(const T* __restrict__ a, double* __restrict__ J, IntegralGeometry g) {
    __shared__ T ring[kOrderedStages][kOrderedTile][kOrderedTile];
    const int lane = threadIdx.x;
    const int64_t c = static_cast<int64_t>(blockIdx.x) * kOrderedTile + lane;
    const bool live = c < g.pn;
    const int64_t stride = g.pn + 1;
    if (live) J[c + 1] = 0;
    if (blockIdx.x == 0 && lane == 0) J[0] = 0;
    const int64_t ac = live ? border_index(g.border, c - g.left, g.n) : -1;
    const T pad = static_cast<T>(g.pad);
    const int64_t batches = (g.pm + kOrderedTile - 1) / kOrderedTile;
    auto issue = [&](int64_t b) {
        if (live && b < batches) {
            T(*slot)[kOrderedTile] = ring[b % kOrderedStages];
            for (int k = 0; k < kOrderedTile; ++k) {
                const int64_t r = b * kOrderedTile + k;
                if (r >= g.pm) break;
                const int64_t ar = border_index(g.border, r - g.top, g.m);
                if (ar < 0 || ac < 0)
                    slot[k][lane] = pad;
                else if constexpr (sizeof(T) >= 4)
                    __pipeline_memcpy_async(&slot[k][lane], a + ar * g.n + ac, sizeof(T));
                else
                    slot[k][lane] = a[ar * g.n + ac];
            }
        }
        __pipeline_commit();  // (an empty group keeps the count)
    };
    for (int s = 0; s < kOrderedStages - 1; ++s) issue(s);
    double acc = 0;
    for (int64_t b = 0; b < batches; ++b) {
        __syncwarp();
        issue(b + kOrderedStages - 1);  // into the slot batch b-1 used
        __pipeline_wait_prior(kOrderedStages - 1);
        if (!live) continue;
        const T(*slot)[kOrderedTile] = ring[b % kOrderedStages];
        double* dst = J + (b * kOrderedTile + 1) * stride + c + 1;
        const int64_t left = g.pm - b * kOrderedTile;
        if (left >= kOrderedTile) {
#pragma unroll
            for (int k = 0; k < kOrderedTile; ++k) {
                acc = __dadd_rn(acc, to_double(slot[k][lane]));
                dst[k * stride] = acc;
            }
        } else {
            for (int k = 0; k < left; ++k) {
                acc = __dadd_rn(acc, to_double(slot[k][lane]));
                dst[k * stride] = acc;
            }
        }
    }
}

// cumsum(., 2) along rows 1..rows of J (`cols` doubles a row), and their zero
// first column. A warp per 32 rows streams tiles of 32 x 32 into shared
// memory (coalesced, a row of the tile per copy), each lane carries its row's
// sum through the tile in order, and the warp stores the tile back.
template <int Lanes = kOrderedTile>
__global__ void __launch_bounds__(Lanes)
integral_ordered_rows(double* __restrict__ J, int64_t rows, int64_t cols) {
    __shared__ double ring[kOrderedStages][kOrderedTile][kOrderedTile + 1];
    const int lane = threadIdx.x;
    const int64_t r0 = 1 + static_cast<int64_t>(blockIdx.x) * kOrderedTile;
    const int nr = rows + 1 - r0 < kOrderedTile ? static_cast<int>(rows + 1 - r0) : kOrderedTile;
    if (lane < nr) J[(r0 + lane) * cols] = 0;
    const int64_t tiles = (cols - 1 + kOrderedTile - 1) / kOrderedTile;
    auto issue = [&](int64_t t) {
        if (t < tiles) {
            const int64_t c0 = 1 + t * kOrderedTile;
            if (c0 + lane < cols) {
                double(*slot)[kOrderedTile + 1] = ring[t % kOrderedStages];
                for (int k = 0; k < nr; ++k)
                    __pipeline_memcpy_async(&slot[k][lane], J + (r0 + k) * cols + c0 + lane, sizeof(double));
            }
        }
        __pipeline_commit();
    };
    for (int s = 0; s < kOrderedStages - 1; ++s) issue(s);
    double acc = 0;
    for (int64_t t = 0; t < tiles; ++t) {
        __syncwarp();  // the slot of tile t-1 is stored out
        issue(t + kOrderedStages - 1);
        __pipeline_wait_prior(kOrderedStages - 1);
        __syncwarp();  // every lane's copies of tile t are in
        double(*slot)[kOrderedTile + 1] = ring[t % kOrderedStages];
        const int64_t c0 = 1 + t * kOrderedTile;
        const int tw = cols - c0 < kOrderedTile ? static_cast<int>(cols - c0) : kOrderedTile;
        if (lane < nr) {
            if (tw == kOrderedTile) {
#pragma unroll
                for (int k = 0; k < kOrderedTile; ++k) {
                    acc = __dadd_rn(acc, slot[lane][k]);
                    slot[lane][k] = acc;
                }
            } else {
                for (int k = 0; k < tw; ++k) {
                    acc = __dadd_rn(acc, slot[lane][k]);
                    slot[lane][k] = acc;
                }
            }
        }
        __syncwarp();
        if (lane < tw)
            for (int k = 0; k < nr; ++k) J[(r0 + k) * cols + c0 + lane] = slot[k][lane];
    }
}

// Enqueues the table of one plane a (class T) into J, on stream s.
template <class T>
void integral_image_async(const T* a, double* J, const IntegralGeometry& g, cudaStream_t s, const char* what) {
    if (g.pm == 0 || g.pn == 0) {  // all zeros
        check(cudaMemsetAsync(J, 0, static_cast<size_t>((g.pm + 1) * (g.pn + 1)) * sizeof(double), s),
              "cudaMemsetAsync");
        return;
    }
    if (!integral_is_exact<T>(g)) {
        integral_ordered_columns<T><<<static_cast<unsigned>((g.pn + kOrderedTile - 1) / kOrderedTile), kOrderedTile,
                                      0, s>>>(a, J, g);
        check_launch(what);
        const unsigned row_blocks = static_cast<unsigned>((g.pm + kOrderedTile - 1) / kOrderedTile);
        integral_ordered_rows<><<<row_blocks, kOrderedTile, 0, s>>>(J, g.pm, g.pn + 1);
        check_launch(what);
        return;
    }
    if constexpr (!std::is_floating_point_v<T>) {
        const int64_t chunks = (g.pm + kChunkRows - 1) / kChunkRows;
        DeviceArray<double> sums(static_cast<size_t>(chunks * g.pn), s);
        const dim3 grid(static_cast<unsigned>((g.pn + kExactThreads - 1) / kExactThreads),
                        static_cast<unsigned>(chunks < 65535 ? chunks : 65535));
        integral_chunk_sums<T><<<grid, kExactThreads, 0, s>>>(a, sums.get(), g, chunks);
        check_launch(what);
        integral_chunk_carries<><<<static_cast<unsigned>((g.pn + 31) / 32), dim3(32, 32), 0, s>>>(sums.get(), g.pn,
                                                                                               chunks);
        check_launch(what);
        integral_exact_rows<T><<<static_cast<unsigned>(chunks), kExactThreads, 0, s>>>(a, sums.get(), J, g);
        check_launch(what);
    }
}

}  // namespace ipt::cuda
