// SPDX-License-Identifier: Apache-2.0
// ipt.imresize as the front-end plans it (common/ops/imresize.hpp): one
// kernel launch per dimension, the first into scratch of the working class,
// with the front-end's tables kept on the device across calls.
// Each output element is the weighted sum over the front-end's taps in
// order, in double (--fmad=false: every product and sum rounds as on the
// host), so integer results are the CPU's bit for bit. uint8 passes of up to
// 8 taps sum in single first (common/float_first.cuh) and take the double sum
// only where single cannot decide the rounding.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <type_traits>
#include <vector>

#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/float_first.cuh"
#include "common/op_registry.hpp"
#include "common/ops/imresize.hpp"
#include "common/table_cache.hpp"

namespace ipt::cuda {
namespace {

struct PassGeometry {
    int64_t in_rows, in_cols, out_rows, out_cols, channels;
    int taps;
};

// The value of the low byte of v as a 1-byte T, in double, exactly: the byte
// placed in the mantissa of 2^52 and 2^52 taken away (two double operations,
// which run faster than an integer-to-double conversion).
template <class T>
__device__ __forceinline__ double byte_value(uint32_t v) {
    constexpr double k2p52 = 4503599627370496.0;
    if constexpr (std::is_signed_v<T>)
        return __hiloint2double(0x43300000, static_cast<int>((v + 128u) & 0xffu)) - (k2p52 + 128.0);
    else return __hiloint2double(0x43300000, static_cast<int>(v & 0xffu)) - k2p52;
}

// logical reads as im2uint8 does (true = 255).
template <class S>
__device__ __forceinline__ double resize_load(S v) {
    if constexpr (std::is_same_v<S, bool>) return v ? 255.0 : 0.0;
    else if constexpr (sizeof(S) == 1) return byte_value<S>(static_cast<uint8_t>(v));
    else return to_double(v);
}

// A logical destination holds the uint8 result > 128.
template <class D>
__device__ __forceinline__ D resize_store(double acc) {
    if constexpr (std::is_same_v<D, bool>) return saturate_round<uint8_t>(acc) > 128;
    else return saturate_round<D>(acc);
}

// Calls f(q) for the rows of this block's strips of `rows` rows, gridDim.y
// strips apart (rows of every plane counted together).
template <class F>
__device__ __forceinline__ void for_strip_rows(int64_t total_rows, int rows, const F& f) {
    for (int64_t q0 = static_cast<int64_t>(blockIdx.y) * rows; q0 < total_rows;
         q0 += static_cast<int64_t>(gridDim.y) * rows) {
        const int64_t q1 = q0 + rows < total_rows ? q0 + rows : total_rows;
        for (int64_t q = q0; q < q1; ++q) f(q);
    }
}

// Each thread owns one output column and walks kResizeRows output rows
// (rows of every plane, counted together), so that what a column needs is
// loaded once per thread instead of once per output. Along the columns the
// column's own taps live in registers (up to MaxTaps); along the rows every
// thread of the block reads the row's taps at the same address (one
// broadcast load). Sums run over the taps in order, in double.
constexpr int kResizeWidth = 128, kResizeRows = 8;

template <class S, class D, int MaxTaps>
__global__ void __launch_bounds__(kResizeWidth)
resize_along_columns(const S* __restrict__ src, D* __restrict__ dst, PassGeometry g,
                     const int32_t* __restrict__ idx, const double* __restrict__ w) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * kResizeWidth + threadIdx.x;
    if (c >= g.out_cols) return;
    const int taps = g.taps;
    int32_t j[MaxTaps];
    double wk[MaxTaps];
#pragma unroll
    for (int k = 0; k < MaxTaps; ++k) {
        j[k] = k < taps ? __ldg(idx + c * taps + k) : 0;
        wk[k] = k < taps ? __ldg(w + c * taps + k) : 0.0;
    }
    // A pass along the columns keeps the row count: row q of every plane
    // stacked is row q of the source and of the destination.
    const int64_t total_rows = g.out_rows * g.channels;
    for_strip_rows(total_rows, kResizeRows, [&](int64_t q) {
        const S* row = src + q * g.in_cols;
        S v[MaxTaps];
#pragma unroll
        for (int k = 0; k < MaxTaps; ++k) v[k] = k < taps ? row[j[k]] : S{};
        double acc = 0;
#pragma unroll
        for (int k = 0; k < MaxTaps; ++k)
            if (k < taps) acc = acc + wk[k] * resize_load(v[k]);
        dst[q * g.out_cols + c] = resize_store<D>(acc);
    });
}

template <class S, class D>
__global__ void __launch_bounds__(kResizeWidth)
resize_along_rows(const S* __restrict__ src, D* __restrict__ dst, PassGeometry g, const int32_t* __restrict__ idx,
                  const double* __restrict__ w) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * kResizeWidth + threadIdx.x;
    if (c >= g.out_cols) return;
    const int64_t total_rows = g.out_rows * g.channels;
    for_strip_rows(total_rows, kResizeRows, [&](int64_t q) {
        const int64_t ch = q / g.out_rows, r = q - ch * g.out_rows;
        const S* column = src + ch * g.in_rows * g.in_cols + c;
        const int32_t* ii = idx + r * g.taps;
        const double* ww = w + r * g.taps;
        // Four taps' indices, weights and values are loaded before any
        // is used, so that their latencies overlap.
        double acc = 0;
        int k = 0;
        for (; k + 4 <= g.taps; k += 4) {
            int32_t jq[4];
            double wq[4];
            S v[4];
#pragma unroll
            for (int t = 0; t < 4; ++t) jq[t] = __ldg(ii + k + t);
#pragma unroll
            for (int t = 0; t < 4; ++t) wq[t] = __ldg(ww + k + t);
#pragma unroll
            for (int t = 0; t < 4; ++t) v[t] = column[static_cast<int64_t>(jq[t]) * g.in_cols];
#pragma unroll
            for (int t = 0; t < 4; ++t) acc = acc + wq[t] * resize_load(v[t]);
        }
        for (; k < g.taps; ++k)
            acc = acc + __ldg(ww + k) * resize_load(column[static_cast<int64_t>(__ldg(ii + k)) * g.in_cols]);
        dst[q * g.out_cols + c] = resize_store<D>(acc);
    });
}

// resize_along_rows for 1-byte classes and a width divisible by 4: each
// thread owns four neighbouring columns, read and written as 32-bit words, so
// that one row's taps (index and weight) serve four outputs. The sums are the
// same, tap by tap in order, in double. Fewer rows per thread than the other
// passes keep as many threads in flight.
constexpr int kQuadRows = 2;

template <class T>
__global__ void __launch_bounds__(kResizeWidth)
resize_along_rows_quads(const T* __restrict__ src, T* __restrict__ dst, PassGeometry g,
                        const int32_t* __restrict__ idx, const double* __restrict__ w) {
    static_assert(sizeof(T) == 1 && !std::is_same_v<T, bool>);
    const int64_t words = g.out_cols / 4;
    const int64_t c = static_cast<int64_t>(blockIdx.x) * kResizeWidth + threadIdx.x;  // word index
    if (c >= words) return;
    const int64_t total_rows = g.out_rows * g.channels;
    auto byte = [](uint32_t v, int t) { return byte_value<T>(v >> (8 * t)); };
    for_strip_rows(total_rows, kQuadRows, [&](int64_t q) {
        const int64_t ch = q / g.out_rows, r = q - ch * g.out_rows;
        const uint32_t* column = reinterpret_cast<const uint32_t*>(src + ch * g.in_rows * g.in_cols) + c;
        const int32_t* ii = idx + r * g.taps;
        const double* ww = w + r * g.taps;
        double acc[4] = {0, 0, 0, 0};
        int k = 0;
        for (; k + 4 <= g.taps; k += 4) {
            uint32_t v[4];
#pragma unroll
            for (int t = 0; t < 4; ++t) v[t] = column[static_cast<int64_t>(__ldg(ii + k + t)) * words];
#pragma unroll
            for (int t = 0; t < 4; ++t) {
                const double wt = __ldg(ww + k + t);
#pragma unroll
                for (int e = 0; e < 4; ++e) acc[e] = acc[e] + wt * byte(v[t], e);
            }
        }
        for (; k < g.taps; ++k) {
            const uint32_t v = column[static_cast<int64_t>(__ldg(ii + k)) * words];
            const double wt = __ldg(ww + k);
#pragma unroll
            for (int e = 0; e < 4; ++e) acc[e] = acc[e] + wt * byte(v, e);
        }
        uint32_t packed = 0;
#pragma unroll
        for (int e = 0; e < 4; ++e) packed |= uint32_t{static_cast<uint8_t>(resize_store<T>(acc[e]))} << (8 * e);
        reinterpret_cast<uint32_t*>(dst)[q * words + c] = packed;
    });
}

// ---- uint8, single first ---------------------------------------------------
// uint8 passes of up to kSingleTaps taps sum in single with the weights
// rounded to single, and keep the result where its distance to the nearest
// integer is below the output's proven threshold (float_first_sum: the double
// sum then rounds to the same integer); the others, a few in ten thousand
// where the weights are not dyadic and none where they are (every
// power-of-two scale), are summed in double by resize_u8_in_double. Single
// sums, and bytes made floats without a conversion, issue about half the
// instructions of the double ones, which bound these passes.
constexpr int kSingleTaps = 8;

// One uint8 output summed in double as the other passes sum it, from the taps
// at base[index[k] * stride]; out of line, as few outputs come here.
__device__ __noinline__ unsigned resize_u8_in_double(const uint8_t* base, int64_t stride, const int32_t* index,
                                                     const double* weight, int taps) {
    double acc = 0;
    for (int k = 0; k < taps; ++k) acc = acc + __ldg(weight + k) * byte_value<uint8_t>(base[__ldg(index + k) * stride]);
    return saturate_round<uint8_t>(acc);
}

// Along the columns: a thread's column's single weights and threshold in
// registers, and one address for its taps, which are consecutive in all but
// the folded borders' columns; those few sum in double. MaxTaps: the taps
// issued (2, 4 or 8), so that few taps issue no idle ones.
template <int MaxTaps>
__global__ void __launch_bounds__(kResizeWidth)
resize_u8_along_columns(const uint8_t* __restrict__ src, uint8_t* __restrict__ dst, PassGeometry g,
                        const int32_t* __restrict__ idx, const double* __restrict__ w, const float* __restrict__ single) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * kResizeWidth + threadIdx.x;
    if (c >= g.out_cols) return;
    const int taps = g.taps;
    const int32_t j0 = __ldg(idx + c * taps);
    float wf[MaxTaps];
    bool consecutive = true;
#pragma unroll
    for (int k = 0; k < MaxTaps; ++k) {
        wf[k] = k < taps ? __ldg(single + c * taps + k) : 0.0f;
        consecutive = consecutive && (k >= taps || __ldg(idx + c * taps + k) == j0 + k);
    }
    const float decided_below = consecutive ? __ldg(single + g.out_cols * taps + c) : 0.0f;
    const int64_t total_rows = g.out_rows * g.channels;
    for_strip_rows(total_rows, kResizeRows, [&](int64_t q) {
        const uint8_t* row = src + q * g.in_cols;
        float sum = 0;
        if (consecutive) {
#pragma unroll
            for (int k = 0; k < MaxTaps; ++k)
                if (k < taps) sum = __fmaf_rn(wf[k], zero_extended_byte_to_float(row[j0 + k]), sum);
        }
        unsigned r;
        if (!float_first_round_below(sum, decided_below, &r))
            r = resize_u8_in_double(row, 1, idx + c * taps, w + c * taps, taps);
        dst[q * g.out_cols + c] = static_cast<uint8_t>(r);
    });
}

// Along the rows, four columns a thread as 32-bit words (as
// resize_along_rows_quads): the row's single weights and threshold are one
// broadcast load for the block; MaxTaps: 2, 4 or 8 (at most 2 taps are
// unrolled).
template <int MaxTaps>
__global__ void __launch_bounds__(kResizeWidth)
resize_u8_along_rows_quads(const uint8_t* __restrict__ src, uint8_t* __restrict__ dst, PassGeometry g,
                           const int32_t* __restrict__ idx, const double* __restrict__ w,
                           const float* __restrict__ single) {
    const int64_t words = g.out_cols / 4;
    const int64_t c = static_cast<int64_t>(blockIdx.x) * kResizeWidth + threadIdx.x;  // word index
    if (c >= words) return;
    const int64_t total_rows = g.out_rows * g.channels;
    for_strip_rows(total_rows, kQuadRows, [&](int64_t q) {
        const int64_t ch = q / g.out_rows, r = q - ch * g.out_rows;
        const uint8_t* plane = src + ch * g.in_rows * g.in_cols;
        const uint32_t* column = reinterpret_cast<const uint32_t*>(plane) + c;
        const int32_t* ii = idx + r * g.taps;
        const float* ws = single + r * g.taps;
        float sum[4] = {0, 0, 0, 0};
        auto add = [&](uint32_t v, float wt) {
            sum[0] = __fmaf_rn(wt, word_byte_to_float<0>(v), sum[0]);
            sum[1] = __fmaf_rn(wt, word_byte_to_float<1>(v), sum[1]);
            sum[2] = __fmaf_rn(wt, word_byte_to_float<2>(v), sum[2]);
            sum[3] = __fmaf_rn(wt, word_byte_to_float<3>(v), sum[3]);
        };
        if constexpr (MaxTaps <= 2) {
            // Both taps' words loaded before either is used.
            uint32_t v[MaxTaps];
#pragma unroll
            for (int k = 0; k < MaxTaps; ++k)
                v[k] = k < g.taps ? column[static_cast<int64_t>(__ldg(ii + k)) * words] : 0u;
#pragma unroll
            for (int k = 0; k < MaxTaps; ++k)
                if (k < g.taps) add(v[k], __ldg(ws + k));
        } else {
            // Four taps' words at a time (all eight at once took more
            // registers and ran slower).
            int k = 0;
            for (; k + 4 <= g.taps; k += 4) {
                uint32_t v[4];
#pragma unroll
                for (int t = 0; t < 4; ++t) v[t] = column[static_cast<int64_t>(__ldg(ii + k + t)) * words];
#pragma unroll
                for (int t = 0; t < 4; ++t) add(v[t], __ldg(ws + k + t));
            }
            for (; k < g.taps; ++k) add(column[static_cast<int64_t>(__ldg(ii + k)) * words], __ldg(ws + k));
        }
        const float decided_below = __ldg(single + g.out_rows * g.taps + r);
        uint32_t packed = 0;
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            unsigned o;
            if (!float_first_round_below(sum[e], decided_below, &o))
                o = resize_u8_in_double(plane + 4 * c + e, g.in_cols, ii, w + r * g.taps, g.taps);
            packed |= o << (8 * e);
        }
        reinterpret_cast<uint32_t*>(dst)[q * words + c] = packed;
    });
}

// ---- uint8, both passes in one launch ------------------------------------
// Where both dimensions' passes sum in single first (uint8, at most
// kSingleTaps taps each) and the image shrinks, a block makes a tile of
// kFusedCols outputs by 16 rows (rows first) or kFusedRows (columns first):
// the first pass's values under the tile go to shared memory, rounded to
// uint8 as the two-launch form rounds its scratch, and the second pass reads
// them there. One launch, half the host time, no scratch. Every value is the
// two-launch form's, sum for sum.
constexpr int kFusedCols = 128, kFusedRows = 8;
constexpr int kFusedWarps = kFusedCols / 32;
// Loads a thread issues at a time in the first stage: the taps of
// kFusedLoads / taps values are loaded before any is summed.
constexpr int kFusedLoads = 8;
// Shared memory a block may take for its tile of first-pass values.
constexpr int64_t kFusedTileBytes = 32 * 1024;

struct FusedGeometry {
    int64_t in_rows, in_cols, out_rows, out_cols;
    int row_taps, col_taps;  // of axis[0] (along the rows) and axis[1]
    int tile_stride;         // bytes per row of the shared tile
};

// One axis's device tables: indices and double weights per output index,
// then the single-first table (weights, then thresholds).
struct FusedAxis {
    const int32_t* idx;
    const double* w;
    const float* single;
};

// The least and largest of lo and hi over the block (every thread calls it).
__device__ __forceinline__ void block_bounds(int* lo, int* hi) {
    __shared__ int warp_lo[kFusedWarps], warp_hi[kFusedWarps];
    for (int d = 16; d > 0; d /= 2) {
        *lo = min(*lo, __shfl_xor_sync(0xffffffffu, *lo, d));
        *hi = max(*hi, __shfl_xor_sync(0xffffffffu, *hi, d));
    }
    if (threadIdx.x % 32 == 0) {
        warp_lo[threadIdx.x / 32] = *lo;
        warp_hi[threadIdx.x / 32] = *hi;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kFusedWarps; ++k) {
        *lo = min(*lo, warp_lo[k]);
        *hi = max(*hi, warp_hi[k]);
    }
}

// Where a block's tile lies: its first output row, how many rows it has
// (the last tile may have fewer), its plane of the source, and this
// thread's output column.
struct FusedTileAt {
    int64_t c, r0;
    int rows;
    const uint8_t* plane;
    bool active;
};

template <int TileRows>
__device__ __forceinline__ FusedTileAt fused_tile_at(const uint8_t* src, const FusedGeometry& g) {
    FusedTileAt t;
    t.c = static_cast<int64_t>(blockIdx.x) * kFusedCols + threadIdx.x;
    t.r0 = static_cast<int64_t>(blockIdx.y) * TileRows;
    t.rows = static_cast<int>(min(static_cast<int64_t>(TileRows), g.out_rows - t.r0));
    t.plane = src + static_cast<int64_t>(blockIdx.z) * g.in_rows * g.in_cols;
    t.active = t.c < g.out_cols;
    return t;
}

// The thread's output column's taps (0 past the column's ct taps, and for a
// thread past the last column), widening [lo, hi] to their indices.
template <int N>
__device__ __forceinline__ void column_taps(const int32_t* idx, const FusedTileAt& t, int ct, int32_t (&j)[N], int* lo,
                                            int* hi) {
#pragma unroll
    for (int k = 0; k < N; ++k) {
        const bool tap = t.active && k < ct;
        j[k] = tap ? __ldg(idx + t.c * ct + k) : 0;
        if (tap) {
            *lo = min(*lo, j[k]);
            *hi = max(*hi, j[k]);
        }
    }
}

// Rows first (plan.first == 0): the tile holds TileRows rows of the
// row-resized image over the input columns the tile's output columns take
// (from the block's least tap, rounded down to a word where Words). Those
// are made four columns a thread as 32-bit words where Words (widths
// divisible by 4), else one; then a thread owns an output column, its taps
// in registers (ColTaps: 2, 4 or 8 issued).
template <int ColTaps, int RowTaps, bool Words, int TileRows>
__global__ void __launch_bounds__(kFusedCols)
resize_u8_fused_rows_first(const uint8_t* __restrict__ src, uint8_t* __restrict__ dst, FusedGeometry g,
                           FusedAxis rows, FusedAxis cols) {
    extern __shared__ uint32_t fused_tile[];
    uint8_t* tile = reinterpret_cast<uint8_t*>(fused_tile);
    const FusedTileAt at = fused_tile_at<TileRows>(src, g);
    const int64_t c = at.c, r0 = at.r0;
    const int tile_rows = at.rows;
    const int ct = g.col_taps, rt = g.row_taps;
    int32_t j[ColTaps];
    float wf[ColTaps];
    int lo = INT_MAX, hi = -1;
    column_taps(cols.idx, at, ct, j, &lo, &hi);
#pragma unroll
    for (int k = 0; k < ColTaps; ++k) wf[k] = at.active && k < ct ? __ldg(cols.single + c * ct + k) : 0.0f;
    block_bounds(&lo, &hi);
    const int j0 = Words ? lo & ~3 : lo;
    const int units = Words ? (hi - j0) / 4 + 1 : hi - j0 + 1;
    // The tile's (row, unit) pairs are shared out over all the threads (a
    // row of an enlargement's tile has fewer units than the block has
    // threads), kFusedLoads / RowTaps a thread at a time: all their taps are loaded
    // before any is summed, so that their latencies overlap.
    const int items = tile_rows * units;
    const int64_t stride = Words ? g.in_cols / 4 : g.in_cols;
    constexpr int kBatch = kFusedLoads / RowTaps;
    for (int first_item = threadIdx.x; first_item < items; first_item += kBatch * kFusedCols) {
        uint32_t v[kBatch][RowTaps];
#pragma unroll
        for (int b = 0; b < kBatch; ++b) {
            const int item = first_item + b * kFusedCols;
            const int rr = item / units, u = item - rr * units;
            const int32_t* ii = rows.idx + (r0 + rr) * rt;
#pragma unroll
            for (int k = 0; k < RowTaps; ++k) {
                v[b][k] = 0;
                if (item < items && k < rt) {
                    const int64_t offset = static_cast<int64_t>(__ldg(ii + k)) * stride + u;
                    if constexpr (Words) v[b][k] = reinterpret_cast<const uint32_t*>(at.plane + j0)[offset];
                    else v[b][k] = at.plane[j0 + offset];
                }
            }
        }
#pragma unroll
        for (int b = 0; b < kBatch; ++b) {
            const int item = first_item + b * kFusedCols;
            if (item >= items) break;
            const int rr = item / units, u = item - rr * units;
            const int64_t r = r0 + rr;
            const int32_t* ii = rows.idx + r * rt;
            const float* ws = rows.single + r * rt;
            const float below = __ldg(rows.single + g.out_rows * rt + r);
            uint8_t* out_row = tile + rr * g.tile_stride;
            constexpr int kBytes = Words ? 4 : 1;
            float sum[kBytes] = {};
#pragma unroll
            for (int k = 0; k < RowTaps; ++k)
                if (k < rt) {
                    const float wt = __ldg(ws + k);
                    if constexpr (Words) {
                        sum[0] = __fmaf_rn(wt, word_byte_to_float<0>(v[b][k]), sum[0]);
                        sum[1] = __fmaf_rn(wt, word_byte_to_float<1>(v[b][k]), sum[1]);
                        sum[2] = __fmaf_rn(wt, word_byte_to_float<2>(v[b][k]), sum[2]);
                        sum[3] = __fmaf_rn(wt, word_byte_to_float<3>(v[b][k]), sum[3]);
                    } else {
                        sum[0] = __fmaf_rn(wt, zero_extended_byte_to_float(v[b][k]), sum[0]);
                    }
                }
            uint32_t packed = 0;
#pragma unroll
            for (int e = 0; e < kBytes; ++e) {
                unsigned o;
                if (!float_first_round_below(sum[e], below, &o))
                    o = resize_u8_in_double(at.plane + j0 + kBytes * u + e, g.in_cols, ii, rows.w + r * rt, rt);
                packed |= o << (8 * e);
            }
            if constexpr (Words) *reinterpret_cast<uint32_t*>(out_row + 4 * u) = packed;
            else out_row[u] = static_cast<uint8_t>(packed);
        }
    }
    __syncthreads();
    if (!at.active) return;
    const float below = __ldg(cols.single + g.out_cols * ct + c);
    uint8_t* out = dst + static_cast<int64_t>(blockIdx.z) * g.out_rows * g.out_cols + r0 * g.out_cols + c;
#pragma unroll
    for (int rr = 0; rr < TileRows; ++rr) {
        if (rr >= tile_rows) break;
        const uint8_t* row = tile + rr * g.tile_stride - j0;
        float sum = 0;
#pragma unroll
        for (int k = 0; k < ColTaps; ++k)
            if (k < ct) sum = __fmaf_rn(wf[k], zero_extended_byte_to_float(row[j[k]]), sum);
        unsigned o;
        if (!float_first_round_below(sum, below, &o)) o = resize_u8_in_double(row, 1, cols.idx + c * ct, cols.w + c * ct, ct);
        out[rr * g.out_cols] = static_cast<uint8_t>(o);
    }
}

// ---- uint8, integer weights ------------------------------------------------
// Where every weight of both dimensions is n / 2^shift with n a signed byte
// (bilinear, bicubic and box at the power-of-two scales), each sum is exact
// in integers, and so is the double sum it stands for: four byte products a
// dp4a instruction, rounded half away from zero by one shift (a negative sum
// saturates to 0 whatever its rounding).
struct IntegerAxis {
    const int32_t* idx;  // out_length x taps
    const uint32_t* w;   // out_length x groups words: 4 numerators a word, taps in order, 0 past the last
    int taps, shift;
};

__device__ __forceinline__ int dot4(uint32_t bytes, uint32_t numerators, int acc) {
    int r;
    asm("dp4a.u32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(bytes), "r"(numerators), "r"(acc));
    return r;
}

__device__ __forceinline__ unsigned integer_round(int sum, int shift) {
    return static_cast<unsigned>(min(max((sum + ((1 << shift) >> 1)) >> shift, 0), 255));
}

// Rows first, widths divisible by 4 (as resize_u8_fused_rows_first with
// Words): a first-stage item is the words of its row's taps, transposed so
// that each word holds one column's four taps, then four dot products. In the
// second stage a column's consecutive taps are one funnel of two tile words a
// group; the folded borders' columns gather their bytes.
template <int RowGroups, int ColGroups, int kTileRows>
__global__ void __launch_bounds__(kFusedCols)
resize_u8_integer_rows_first(const uint8_t* __restrict__ src, uint8_t* __restrict__ dst, FusedGeometry g,
                             IntegerAxis rows, IntegerAxis cols) {
    extern __shared__ uint32_t fused_tile[];
    uint8_t* tile = reinterpret_cast<uint8_t*>(fused_tile);
    const FusedTileAt at_tile = fused_tile_at<kTileRows>(src, g);
    const int64_t c = at_tile.c, r0 = at_tile.r0;
    const int tile_rows = at_tile.rows;
    const int ct = g.col_taps, rt = g.row_taps;
    int32_t j[ColGroups * 4];
    uint32_t cw[ColGroups];
    int lo = INT_MAX, hi = -1;
    column_taps(cols.idx, at_tile, ct, j, &lo, &hi);
    bool consecutive = true;
#pragma unroll
    for (int k = 0; k < ColGroups * 4; ++k) consecutive = consecutive && (k >= ct || j[k] == j[0] + k);
#pragma unroll
    for (int q = 0; q < ColGroups; ++q) cw[q] = at_tile.active ? __ldg(cols.w + c * ColGroups + q) : 0u;
    block_bounds(&lo, &hi);
    const int j0 = lo & ~3;
    const int units = (hi - j0) / 4 + 1;
    const int items = tile_rows * units;
    // 32-bit offsets: the launch keeps this kernel to planes under 2^31 bytes.
    const int words = static_cast<int>(g.in_cols / 4);
    const uint32_t* first_word = reinterpret_cast<const uint32_t*>(at_tile.plane + j0);
    for (int item = threadIdx.x; item < items; item += kFusedCols) {
        const int rr = item / units, u = item - rr * units;
        const int r = static_cast<int>(r0) + rr;
        // Every tap's word is loaded, without a branch, before any is used:
        // taps past the row's last repeat it (their numerators are 0).
        uint32_t v[RowGroups * 4];
#pragma unroll
        for (int k = 0; k < RowGroups * 4; ++k)
            v[k] = first_word[__ldg(rows.idx + r * rt + min(k, rt - 1)) * words + u];
        int sum[4] = {0, 0, 0, 0};
#pragma unroll
        for (int q = 0; q < RowGroups; ++q) {
            // The 4 x 4 bytes transposed: column e's taps in one word.
            const uint32_t* t = v + 4 * q;
            const uint32_t lo01 = __byte_perm(t[0], t[1], 0x5140), lo23 = __byte_perm(t[2], t[3], 0x5140);
            const uint32_t hi01 = __byte_perm(t[0], t[1], 0x7362), hi23 = __byte_perm(t[2], t[3], 0x7362);
            const uint32_t wq = __ldg(rows.w + r * RowGroups + q);
            sum[0] = dot4(__byte_perm(lo01, lo23, 0x5410), wq, sum[0]);
            sum[1] = dot4(__byte_perm(lo01, lo23, 0x7632), wq, sum[1]);
            sum[2] = dot4(__byte_perm(hi01, hi23, 0x5410), wq, sum[2]);
            sum[3] = dot4(__byte_perm(hi01, hi23, 0x7632), wq, sum[3]);
        }
        const uint32_t packed = integer_round(sum[0], rows.shift) | integer_round(sum[1], rows.shift) << 8 |
                                integer_round(sum[2], rows.shift) << 16 | integer_round(sum[3], rows.shift) << 24;
        *reinterpret_cast<uint32_t*>(tile + rr * g.tile_stride + 4 * u) = packed;
    }
    __syncthreads();
    if (!at_tile.active) return;
    uint8_t* out = dst + static_cast<int64_t>(blockIdx.z) * g.out_rows * g.out_cols + r0 * g.out_cols + c;
    const int at = j[0] - j0;  // consecutive: the first tap's byte in the tile row
    const uint32_t funnel = 0x3210u + 0x1111u * static_cast<uint32_t>(at & 3);
#pragma unroll
    for (int rr = 0; rr < kTileRows; ++rr) {
        if (rr >= tile_rows) break;
        const uint8_t* row = tile + rr * g.tile_stride;
        int sum = 0;
        if (consecutive) {
            const uint32_t* w4 = reinterpret_cast<const uint32_t*>(row + (at & ~3));
#pragma unroll
            for (int q = 0; q < ColGroups; ++q) sum = dot4(__byte_perm(w4[q], w4[q + 1], funnel), cw[q], sum);
        } else {
#pragma unroll
            for (int q = 0; q < ColGroups; ++q) {
                uint32_t x = 0;
#pragma unroll
                for (int e = 0; e < 4; ++e)
                    if (4 * q + e < ct) x |= uint32_t{row[j[4 * q + e] - j0]} << (8 * e);
                sum = dot4(x, cw[q], sum);
            }
        }
        out[rr * g.out_cols] = static_cast<uint8_t>(integer_round(sum, cols.shift));
    }
}

// Columns first (plan.first == 1): the tile holds the column-resized values
// of the tile's kFusedCols columns over the input rows that its output rows
// take. A thread owns a column in both passes: first with its taps in
// registers, then with the row's taps read at one address by the block.
template <int ColTaps>
__global__ void __launch_bounds__(kFusedCols)
resize_u8_fused_cols_first(const uint8_t* __restrict__ src, uint8_t* __restrict__ dst, FusedGeometry g,
                           FusedAxis rows, FusedAxis cols) {
    extern __shared__ uint32_t fused_tile[];
    uint8_t* tile = reinterpret_cast<uint8_t*>(fused_tile);
    const FusedTileAt at = fused_tile_at<kFusedRows>(src, g);
    const int64_t c = at.c, r0 = at.r0;
    const int tile_rows = at.rows;
    const uint8_t* plane = at.plane;
    const bool active = at.active;
    const int ct = g.col_taps, rt = g.row_taps;
    int lo = INT_MAX, hi = -1;
    if (threadIdx.x < tile_rows * rt) {
        const int32_t i = __ldg(rows.idx + r0 * rt + threadIdx.x);
        lo = i;
        hi = i;
    }
    block_bounds(&lo, &hi);
    if (!active) return;  // no barrier follows
    int32_t j[ColTaps];
    float wf[ColTaps];
#pragma unroll
    for (int k = 0; k < ColTaps; ++k) {
        j[k] = k < ct ? __ldg(cols.idx + c * ct + k) : 0;
        wf[k] = k < ct ? __ldg(cols.single + c * ct + k) : 0.0f;
    }
    const float col_below = __ldg(cols.single + g.out_cols * ct + c);
    uint8_t* column = tile + threadIdx.x;
    // Rows kBatch at a time, their taps all loaded before any is summed.
    constexpr int kBatch = kFusedLoads / ColTaps;
    for (int i0 = lo; i0 <= hi; i0 += kBatch) {
        uint32_t v[kBatch][ColTaps];
#pragma unroll
        for (int b = 0; b < kBatch; ++b) {
            const uint8_t* row = plane + static_cast<int64_t>(min(i0 + b, hi)) * g.in_cols;
#pragma unroll
            for (int k = 0; k < ColTaps; ++k) v[b][k] = k < ct ? row[j[k]] : 0u;
        }
#pragma unroll
        for (int b = 0; b < kBatch; ++b) {
            const int i = i0 + b;
            if (i > hi) break;
            float sum = 0;
#pragma unroll
            for (int k = 0; k < ColTaps; ++k)
                if (k < ct) sum = __fmaf_rn(wf[k], zero_extended_byte_to_float(v[b][k]), sum);
            unsigned o;
            if (!float_first_round_below(sum, col_below, &o))
                o = resize_u8_in_double(plane + static_cast<int64_t>(i) * g.in_cols, 1, cols.idx + c * ct, cols.w + c * ct, ct);
            column[(i - lo) * g.tile_stride] = static_cast<uint8_t>(o);
        }
    }
    // Each thread reads back only its own column: no barrier needed.
    uint8_t* out = dst + static_cast<int64_t>(blockIdx.z) * g.out_rows * g.out_cols + r0 * g.out_cols + c;
    const uint8_t* first_row = column - static_cast<int64_t>(lo) * g.tile_stride;
#pragma unroll
    for (int rr = 0; rr < kFusedRows; ++rr) {
        if (rr >= tile_rows) break;
        const int64_t r = r0 + rr;
        const int32_t* ii = rows.idx + r * rt;
        const float* ws = rows.single + r * rt;
        float sum = 0;
#pragma unroll
        for (int k = 0; k < kSingleTaps; ++k)
            if (k < rt)
                sum = __fmaf_rn(__ldg(ws + k), zero_extended_byte_to_float(first_row[__ldg(ii + k) * g.tile_stride]), sum);
        unsigned o;
        if (!float_first_round_below(sum, __ldg(rows.single + g.out_rows * rt + r), &o))
            o = resize_u8_in_double(first_row, g.tile_stride, ii, rows.w + r * rt, rt);
        out[rr * g.out_cols] = static_cast<uint8_t>(o);
    }
}

// Columns with more taps than registers hold (strong shrinking): the taps
// are read from the tables for every output.
template <class S, class D>
__global__ void __launch_bounds__(kResizeWidth)
resize_along_columns_wide(const S* __restrict__ src, D* __restrict__ dst, PassGeometry g,
                          const int32_t* __restrict__ idx, const double* __restrict__ w) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * kResizeWidth + threadIdx.x;
    if (c >= g.out_cols) return;
    const int32_t* ii = idx + c * g.taps;
    const double* ww = w + c * g.taps;
    const int64_t total_rows = g.out_rows * g.channels;
    for_strip_rows(total_rows, kResizeRows, [&](int64_t q) {
        const S* row = src + q * g.in_cols;
        double acc = 0;
        for (int k = 0; k < g.taps; ++k) acc = acc + __ldg(ww + k) * resize_load(row[__ldg(ii + k)]);
        dst[q * g.out_cols + c] = resize_store<D>(acc);
    });
}

// single: the axis's single-first table (uint8 passes of up to kSingleTaps taps).
template <class S, class D>
void launch_pass(const Device& dev, const S* src, D* dst, int dim, const PassGeometry& g, const int32_t* idx,
                 const double* w, const float* single) {
    const int64_t row_groups = (g.out_rows * g.channels + kResizeRows - 1) / kResizeRows;
    const dim3 grid(static_cast<unsigned>((g.out_cols + kResizeWidth - 1) / kResizeWidth),
                    static_cast<unsigned>(row_groups < 65535 ? row_groups : 65535));
    if constexpr (std::is_same_v<S, D> && sizeof(S) == 1 && !std::is_same_v<S, bool>) {
        const int64_t groups = (g.out_rows * g.channels + kQuadRows - 1) / kQuadRows;
        const dim3 quads(static_cast<unsigned>((g.out_cols / 4 + kResizeWidth - 1) / kResizeWidth),
                         static_cast<unsigned>(groups < 65535 ? groups : 65535));
        constexpr bool u8 = std::is_same_v<S, uint8_t>;
        const auto in = reinterpret_cast<const uint8_t*>(src);
        const auto out = reinterpret_cast<uint8_t*>(dst);
        if (dim == 0 && g.out_cols % 4 == 0 && reinterpret_cast<uintptr_t>(dst) % 4 == 0 &&
            reinterpret_cast<uintptr_t>(src) % 4 == 0) {
            if (!(u8 && single)) resize_along_rows_quads<S><<<quads, kResizeWidth, 0, dev.stream>>>(src, dst, g, idx, w);
            else if (g.taps <= 2) resize_u8_along_rows_quads<2><<<quads, kResizeWidth, 0, dev.stream>>>(in, out, g, idx, w, single);
            else if (g.taps <= 4) resize_u8_along_rows_quads<4><<<quads, kResizeWidth, 0, dev.stream>>>(in, out, g, idx, w, single);
            else resize_u8_along_rows_quads<8><<<quads, kResizeWidth, 0, dev.stream>>>(in, out, g, idx, w, single);
            check_launch("ipt.imresize");
            return;
        }
        if (u8 && single && dim == 1) {
            if (g.taps <= 2) resize_u8_along_columns<2><<<grid, kResizeWidth, 0, dev.stream>>>(in, out, g, idx, w, single);
            else if (g.taps <= 4) resize_u8_along_columns<4><<<grid, kResizeWidth, 0, dev.stream>>>(in, out, g, idx, w, single);
            else resize_u8_along_columns<8><<<grid, kResizeWidth, 0, dev.stream>>>(in, out, g, idx, w, single);
            check_launch("ipt.imresize");
            return;
        }
    }
    if (dim == 0)
        resize_along_rows<S, D><<<grid, kResizeWidth, 0, dev.stream>>>(src, dst, g, idx, w);
    else if (g.taps <= 4)
        resize_along_columns<S, D, 4><<<grid, kResizeWidth, 0, dev.stream>>>(src, dst, g, idx, w);
    else if (g.taps <= 8)
        resize_along_columns<S, D, 8><<<grid, kResizeWidth, 0, dev.stream>>>(src, dst, g, idx, w);
    else if (g.taps <= 16)
        resize_along_columns<S, D, 16><<<grid, kResizeWidth, 0, dev.stream>>>(src, dst, g, idx, w);
    else
        resize_along_columns_wide<S, D><<<grid, kResizeWidth, 0, dev.stream>>>(src, dst, g, idx, w);
    check_launch("ipt.imresize");
}

// The device copies of one axis's tables (cached per device by the address
// of the front-end's shared tables).
struct AxisTables {
    const int32_t* indices;
    const double* weights;
};

AxisTables device_tables(const Device& dev, const ipt::frontend::ImresizeAxis& ax) {
    DeviceTableCache& cache = table_cache(dev.ordinal);
    return {static_cast<const int32_t*>(cache.get(dev.stream, ax.tables, ax.indices.data(), ax.indices.size_bytes())),
            static_cast<const double*>(cache.get(dev.stream, ax.tables, ax.weights.data(), ax.weights.size_bytes()))};
}

// An axis's single-first table: per output index its taps' weights rounded to
// single, then per output index the threshold below which single decides
// (float_first_sum's decided_below, 1 where its sums are exact). Derived once
// per front-end tables, which it holds (so their address names only them),
// from a small cache as the front-end's.
struct SingleFirstTable {
    std::shared_ptr<const ipt::frontend::ImresizeTables> source;
    std::vector<float> values;  // out_length x taps weights, then out_length thresholds
    // The most input indices, largest less least plus one, that the taps of
    // kFusedCols ([0]) or kFusedRows ([1]) consecutive output indices span
    // (from 0, 128, ...): the size of a fused launch's tile.
    int64_t tile_span[2] = {0, 0};
    // Where every weight is n / 2^shift with n a signed byte (the least such
    // shift, at most 8): per output index the numerators, four a word, taps in
    // order, 0 past the last; shift -1 where the weights are not of that form.
    int shift = -1;
    std::vector<uint32_t> numerators;
};

std::shared_ptr<const SingleFirstTable> single_first_table(const ipt::frontend::ImresizeAxis& ax) {
    static std::mutex mutex;
    static std::vector<std::shared_ptr<const SingleFirstTable>> recent;  // most recently used last
    std::lock_guard<std::mutex> lock(mutex);
    auto hit = std::find_if(recent.begin(), recent.end(), [&](const auto& t) { return t->source == ax.tables; });
    if (hit != recent.end()) {
        std::rotate(hit, hit + 1, recent.end());
        return recent.back();
    }
    auto t = std::make_shared<SingleFirstTable>();
    t->source = ax.tables;
    const int64_t n = ax.out_length, taps = ax.taps;
    t->values.resize(static_cast<size_t>(n * taps + n));
    for (int64_t i = 0; i < n; ++i) {
        const FloatFirstSum<kSingleTaps> f = float_first_sum<kSingleTaps>(ax.weights.data() + i * taps, ax.taps, 0.0);
        std::copy(f.w, f.w + taps, t->values.begin() + i * taps);
        t->values[n * taps + i] = float_first_threshold(f);
    }
    for (int k = 0; k <= 8 && t->shift < 0; ++k) {
        const bool fits = std::all_of(ax.weights.begin(), ax.weights.end(), [&](double w) {
            const double n = std::ldexp(w, k);
            return n == std::trunc(n) && n >= -128 && n <= 127;
        });
        if (fits) t->shift = k;
    }
    if (t->shift >= 0) {
        const int64_t groups = (taps + 3) / 4;
        t->numerators.assign(static_cast<size_t>(n * groups), 0u);
        for (int64_t i = 0; i < n; ++i)
            for (int64_t k = 0; k < taps; ++k) {
                const auto b = static_cast<uint8_t>(static_cast<int8_t>(std::ldexp(ax.weights[i * taps + k], t->shift)));
                t->numerators[i * groups + k / 4] |= uint32_t{b} << (8 * (k % 4));
            }
    }
    const int64_t tile_outputs[2] = {kFusedCols, kFusedRows};
    for (int which = 0; which < 2; ++which)
        for (int64_t i0 = 0; i0 < n; i0 += tile_outputs[which]) {
            const auto first = ax.indices.begin() + i0 * taps;
            const auto last = ax.indices.begin() + std::min(n, i0 + tile_outputs[which]) * taps;
            const auto [lo, hi] = std::minmax_element(first, last);
            if (first != last) t->tile_span[which] = std::max<int64_t>(t->tile_span[which], *hi - *lo + 1);
        }
    if (recent.size() == 8) recent.erase(recent.begin());
    recent.push_back(t);
    return t;
}

// The device copy of the single-first table of a uint8 pass along ax, or null
// where the pass sums in double (other classes, more than kSingleTaps taps).
const float* device_single_table(const Device& dev, const ipt::frontend::ImresizeAxis& ax, int32_t dtype) {
    if (dtype != IPT_UINT8 || ax.taps > kSingleTaps) return nullptr;
    const std::shared_ptr<const SingleFirstTable> t = single_first_table(ax);
    return static_cast<const float*>(
        table_cache(dev.ordinal).get(dev.stream, t, t->values.data(), t->values.size() * sizeof(float)));
}

// IPT_CUDA_IMRESIZE=two-pass keeps uint8 resizes to two launches (to time
// both forms, and to run the two-launch kernels' conformance on a GPU).
bool fused_enabled() {
    static const bool enabled = [] {
        const char* v = std::getenv("IPT_CUDA_IMRESIZE");
        return !(v && std::strcmp(v, "two-pass") == 0);
    }();
    return enabled;
}

// Both passes of a uint8 resize in one launch (see resize_u8_fused_rows_first),
// where both pass in single first and the tile fits; false where it does not.
bool launch_fused_u8(const Device& dev, const ipt::frontend::ImresizePlan& plan, const ipt_tensor* B) {
    const ipt::frontend::ImresizeAxis& along_rows = plan.axis[0];
    const ipt::frontend::ImresizeAxis& along_cols = plan.axis[1];
    if (plan.dtype != IPT_UINT8 || along_rows.taps > kSingleTaps || along_cols.taps > kSingleTaps ||
        plan.channels > 65535 || (plan.out_rows + kFusedRows - 1) / kFusedRows > 65535)
        return false;
    const bool rows_first = plan.first == 0;
    const auto src = dptr<const uint8_t>(plan.A);
    const auto dst = dptr<uint8_t>(B);
    const bool words = plan.cols % 4 == 0 && reinterpret_cast<uintptr_t>(src) % 4 == 0;
    // The tile: rows_first_tile rows over the columns' span (3
    // more for a start rounded down to a word, 3 for the funnel's reach), or
    // the rows' span over kFusedCols columns; 16 bytes that a last funnel may
    // read past.
    const std::shared_ptr<const SingleFirstTable> row_table = single_first_table(along_rows);
    const std::shared_ptr<const SingleFirstTable> col_table = single_first_table(along_cols);
    // Rows first in integers: tiles of 16 rows, or 8 or 4 where fewer rows
    // a tile are needed to give the multiprocessors 2048 blocks (the first
    // stage makes no row twice, so short tiles cost only their setup).
    const bool integer = rows_first && words && row_table->shift >= 0 && col_table->shift >= 0 &&
                         plan.rows * plan.cols < (int64_t{1} << 31);
    const int64_t col_tiles = (plan.out_cols + kFusedCols - 1) / kFusedCols;
    int rows_first_tile = 16;
    if (integer)
        while (rows_first_tile > 4 && col_tiles * ((plan.out_rows + rows_first_tile - 1) / rows_first_tile) * plan.channels < 2048)
            rows_first_tile /= 2;
    const int64_t stride = rows_first ? (col_table->tile_span[0] + 3 + 3 + 3) / 4 * 4 : kFusedCols;
    const int64_t tile_bytes = (rows_first ? rows_first_tile * stride : row_table->tile_span[1] * stride) + 16;
    if (tile_bytes > kFusedTileBytes) return false;
    const FusedGeometry g{plan.rows, plan.cols, plan.out_rows, plan.out_cols, along_rows.taps, along_cols.taps,
                          static_cast<int>(stride)};
    const int tile_rows = rows_first ? rows_first_tile : kFusedRows;
    const dim3 grid(static_cast<unsigned>((plan.out_cols + kFusedCols - 1) / kFusedCols),
                    static_cast<unsigned>((plan.out_rows + tile_rows - 1) / tile_rows),
                    static_cast<unsigned>(plan.channels));
    const size_t smem = static_cast<size_t>(tile_bytes);
    const AxisTables tr = device_tables(dev, along_rows), tc = device_tables(dev, along_cols);
    // The taps issued: 2, 4 or 8, the fewest that cover an axis's taps.
    auto with_taps = [](int taps, auto f) {
        if (taps <= 2) f(std::integral_constant<int, 2>{});
        else if (taps <= 4) f(std::integral_constant<int, 4>{});
        else f(std::integral_constant<int, 8>{});
    };
    if (integer) {
        DeviceTableCache& cache = table_cache(dev.ordinal);
        auto numerators = [&](const std::shared_ptr<const SingleFirstTable>& t) {
            return static_cast<const uint32_t*>(
                cache.get(dev.stream, t, t->numerators.data(), t->numerators.size() * sizeof(uint32_t)));
        };
        const IntegerAxis rows{tr.indices, numerators(row_table), along_rows.taps, row_table->shift};
        const IntegerAxis cols{tc.indices, numerators(col_table), along_cols.taps, col_table->shift};
        auto launch = [&](auto kernel) { kernel<<<grid, kFusedCols, smem, dev.stream>>>(src, dst, g, rows, cols); };
        const bool two_row_groups = along_rows.taps > 4, two_col_groups = along_cols.taps > 4;
        auto pick = [&](auto rows_c) {
            constexpr int TR = decltype(rows_c)::value;
            if (two_row_groups && two_col_groups) launch(resize_u8_integer_rows_first<2, 2, TR>);
            else if (two_row_groups) launch(resize_u8_integer_rows_first<2, 1, TR>);
            else if (two_col_groups) launch(resize_u8_integer_rows_first<1, 2, TR>);
            else launch(resize_u8_integer_rows_first<1, 1, TR>);
        };
        if (rows_first_tile == 4) pick(std::integral_constant<int, 4>{});
        else if (rows_first_tile == 8) pick(std::integral_constant<int, 8>{});
        else pick(std::integral_constant<int, 16>{});
        check_launch("ipt.imresize");
        return true;
    }
    // In single: only where the image shrinks (enlarging, the two launches
    // measured faster).
    if (plan.out_rows * plan.out_cols > plan.rows * plan.cols) return false;
    const FusedAxis rows{tr.indices, tr.weights, device_single_table(dev, along_rows, plan.dtype)};
    const FusedAxis cols{tc.indices, tc.weights, device_single_table(dev, along_cols, plan.dtype)};
    auto launch = [&](auto kernel) { kernel<<<grid, kFusedCols, smem, dev.stream>>>(src, dst, g, rows, cols); };
    with_taps(g.col_taps, [&](auto col_taps) {
        constexpr int C = decltype(col_taps)::value;
        if (!rows_first) return launch(resize_u8_fused_cols_first<C>);
        with_taps(g.row_taps, [&](auto row_taps) {
            constexpr int R = decltype(row_taps)::value;
            if (words) launch(resize_u8_fused_rows_first<C, R, true, 16>);
            else launch(resize_u8_fused_rows_first<C, R, false, 16>);
        });
    });
    check_launch("ipt.imresize");
    return true;
}

void run_imresize(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::ImresizePlan plan = ipt::frontend::plan_imresize(args);
    const int64_t ch = plan.channels;
    const ipt_tensor* B = args.output("B", plan.dtype, plan.out_rows, plan.out_cols, ch);
    if (plan.out_rows * plan.out_cols * ch == 0) return;
    if (fused_enabled() && launch_fused_u8(dev, plan, B)) return;
    int64_t mid_rows, mid_cols;
    ipt::frontend::imresize_middle_size(plan, &mid_rows, &mid_cols);
    const int first = plan.first, second = 1 - first;
    const AxisTables t1 = device_tables(dev, plan.axis[first]);
    const AxisTables t2 = device_tables(dev, plan.axis[second]);
    const PassGeometry g1{plan.rows, plan.cols, mid_rows, mid_cols, ch, plan.axis[first].taps};
    const PassGeometry g2{mid_rows, mid_cols, plan.out_rows, plan.out_cols, ch, plan.axis[second].taps};
    visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        using W = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;
        DeviceArray<W> mid(static_cast<size_t>(mid_rows * mid_cols * ch), dev.stream);
        launch_pass(dev, dptr<const T>(plan.A), mid.get(), first, g1, t1.indices, t1.weights,
                    device_single_table(dev, plan.axis[first], plan.dtype));
        launch_pass(dev, static_cast<const W*>(mid.get()), dptr<T>(B), second, g2, t2.indices, t2.weights,
                    device_single_table(dev, plan.axis[second], plan.dtype));
    });
}

IPT_CUDA_OP("ipt.imresize", "", 100, run_imresize)

}  // namespace
}  // namespace ipt::cuda
