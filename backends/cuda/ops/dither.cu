// SPDX-License-Identifier: Apache-2.0
// dither: MATLAB's Floyd-Steinberg (ditherc) with integer error terms over a
// column-major scan, exactly as the reference.
//
// Pixel (r, c) receives 7/16 of (r-1, c) and 1/16, 5/16, 3/16 of (r-1, c-1),
// (r, c-1), (r+1, c-1). Its earliest step is therefore t = r + 2c, and the
// step's pixels depend only on the previous step: a wavefront of
// rows + 2*cols - 2 steps (6142 at 2048^2).
//
// Row pairs (the default): one block; thread j owns rows 2j and 2j+1 (or M
// consecutive pairs) and processes the even row at even steps and the odd
// row at odd steps, both at column k - j in step pair k. Everything a pixel
// needs from its own pair stays in registers; the one value per step that
// crosses pairs (7/16 and 1/16 from the odd row above, 3/16 from the even
// row below) goes through a slot in shared memory, one barrier per step.
// The levels are stored skewed and transposed (levels[k][r] = level(r, k -
// r/2)), so a step pair reads one contiguous row of them; tiles of these rows
// stream in with cp.async three deep, and the colour indices go out the same
// way into a skewed buffer that a last kernel puts back in place. Gray
// images take their four error shares from a table of the clamped value;
// RGB images look up the inverse colormap (the front-end's, up to Qm 6) and
// the colormap, in shared memory when they fit; above Qm 6 each pixel
// searches the colormap for the nearest colour.
//
// Warp chunks (the previous kernel; for images too tall for one block, i.e.
// more than 8192 rows or tiles that do not fit in shared memory, or with
// IPT_CUDA_DITHER=warp-chunks): a warp owns 32 columns, lane i at row
// s - 2i of step s, lanes exchange errors through shared memory and warps
// through global memory with a progress counter; persistent grid.
#include <cuda_pipeline.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/ops/dither.hpp"

namespace ipt::cuda {
namespace {

using ipt::frontend::DitherPlan;

// ipt::frontend::dither_share and dither_level on the device.
__device__ inline int share(int e, int n, int bias) {
    return e > 0 ? (bias + n * e) >> 4 : (e < 0 ? -((bias - n * e) >> 4) : 0);
}

// ipt::frontend::dither_nearest_colour on the device, for Qm above the
// front-end's table (kDitherTableMaxQm): the colormap entry nearest to the
// centre of cell (ir, ig, ib), ties to the lowest index.
__device__ inline int nearest_colour(const int* mapq, int colours, int shift, int ir, int ig, int ib) {
    const long long w = 1ll << shift, half = w / 2;
    const long long cr = ir * w + half, cg = ig * w + half, cb = ib * w + half;
    int best = 0;
    long long best_d = -1;
    for (int k = 0; k < colours; ++k) {
        const long long dr = cr - mapq[3 * k], dg = cg - mapq[3 * k + 1], db = cb - mapq[3 * k + 2];
        const long long d = dr * dr + dg * dg + db * db;
        if (best_d < 0 || d < best_d) {  // strict: ties keep the lowest index
            best_d = d;
            best = k;
        }
    }
    return best;
}

template <class T>
__device__ inline int to_uint8(T v) {
    if constexpr (std::is_same_v<T, uint8_t>) return v;
    else if constexpr (std::is_same_v<T, uint16_t>) return saturate_round<uint8_t>(v / 257.0);
    else if constexpr (std::is_same_v<T, float>) return saturate_round<uint8_t>(static_cast<double>(255.0f * v));
    else return saturate_round<uint8_t>(255.0 * static_cast<double>(v));
}

__device__ inline int level_of(int v8, int top) { return (2 * v8 * top + 255) / 510; }

// ---- row pairs ------------------------------------------------------------------------

constexpr int kStages = 3;  // staged level tiles: one in use, one ready, one in flight
constexpr int kMaxThreads = 1024;
constexpr int kMaxPairsPerThread = 4;

struct RowPairParams {
    int rows, cols;
    int pairs;        // (rows + 1) / 2
    int skewed_cols;  // cols + pairs - 1 step pairs; skewed column k holds level(r, k - r/2)
    int rows_pad;     // rows rounded up to 16: one skewed column
    int group_cols;   // skewed columns per staged tile
    int groups;       // tiles; the skewed buffers hold groups * group_cols columns
    int top, bias, shift, qm;
    int white_from;   // gray: first clamped value whose colour is white
    int colours;
    int tables_in_shared;  // RGB: inverse colormap and colormap copied to shared memory
    const void* levels;     // [channel][skewed column][rows_pad]
    void* indices;          // [skewed column][rows_pad]
    const uint32_t* gray_shares;  // gray, levels up to 255: per clamped value, T7 T5 T3 T1 as signed bytes
    const uint16_t* inverse;
    const int* mapq;
};

struct RowPairLayout {
    size_t in_tiles, out_tiles, even_slots, odd_slots, shares, inverse, mapq, total;
};

__host__ __device__ inline size_t align16(size_t n) { return (n + 15) & ~size_t{15}; }

// Byte offsets in dynamic shared memory; host and device compute the same.
__host__ __device__ inline RowPairLayout row_pair_layout(const RowPairParams& p, int channels, int level_bytes,
                                                         int index_bytes, bool gray_table) {
    RowPairLayout l{};
    const size_t tile = static_cast<size_t>(p.group_cols) * p.rows_pad;
    const size_t slots = static_cast<size_t>(p.pairs) + 2;  // pairs -1 .. pairs: the outer two stay zero
    size_t at = 0;
    l.in_tiles = at;
    at += align16(kStages * channels * tile * level_bytes);
    l.out_tiles = at;
    at += align16(2 * tile * index_bytes);
    l.even_slots = at;
    at += align16(slots * channels * sizeof(int));
    l.odd_slots = at;
    at += align16(slots * channels * 2 * sizeof(int));
    l.shares = at;
    if (gray_table) at += align16(static_cast<size_t>(p.top + 1) * sizeof(uint32_t));
    l.inverse = at;
    if (p.tables_in_shared) at += align16((size_t{1} << (3 * p.qm)) * sizeof(uint16_t));
    l.mapq = at;
    if (p.tables_in_shared) at += align16(static_cast<size_t>(p.colours) * 3 * sizeof(int));
    l.total = at;
    return l;
}

// Levels of the input, skewed and transposed: levels[ch][c + r/2][r]. A
// 32x32 tile is read along rows and written along the skewed columns.
template <class T, class Level, int C>
__global__ void dither_skew_levels(const T* __restrict__ img, Level* __restrict__ levels, int rows, int cols,
                                   int64_t skewed_pad, int rows_pad, int top) {
    __shared__ int tile[32][33];
    const int c0 = blockIdx.x * 32, r0 = blockIdx.y * 32;
    const int64_t plane = static_cast<int64_t>(rows) * cols;
    for (int ch = 0; ch < C; ++ch) {
        for (int ri = threadIdx.y; ri < 32; ri += blockDim.y) {
            const int r = r0 + ri, c = c0 + threadIdx.x;
            if (r < rows && c < cols)
                tile[ri][threadIdx.x] = level_of(to_uint8(img[ch * plane + static_cast<int64_t>(r) * cols + c]), top);
        }
        __syncthreads();
        const int r = r0 + threadIdx.x;
        // Row r of the tile lands on skewed columns c0 + r0/2 + (r-r0)/2 + [0, 32).
        for (int kk = threadIdx.y; kk < 48; kk += blockDim.y) {
            const int c = c0 + (r0 >> 1) + kk - (r >> 1);
            if (r < rows && c >= c0 && c < c0 + 32 && c < cols)
                levels[(ch * skewed_pad + c + (r >> 1)) * rows_pad + r] = static_cast<Level>(tile[threadIdx.x][c - c0]);
        }
        __syncthreads();
    }
}

// Colour indices back in place: out(r, c) = indices[c + r/2][r].
template <class Index, class Out>
__global__ void dither_unskew(const Index* __restrict__ indices, Out* __restrict__ out, int rows, int cols,
                              int rows_pad) {
    __shared__ int tile[32][33];
    const int c0 = blockIdx.x * 32, r0 = blockIdx.y * 32;
    const int r = r0 + threadIdx.x;
    for (int kk = threadIdx.y; kk < 48; kk += blockDim.y) {
        const int c = c0 + (r0 >> 1) + kk - (r >> 1);
        if (r < rows && c >= c0 && c < c0 + 32 && c < cols)
            tile[threadIdx.x][c - c0] = indices[(static_cast<int64_t>(c) + (r >> 1)) * rows_pad + r];
    }
    __syncthreads();
    for (int ri = threadIdx.y; ri < 32; ri += blockDim.y) {
        const int rr = r0 + ri, c = c0 + threadIdx.x;
        if (rr < rows && c < cols) out[static_cast<int64_t>(rr) * cols + c] = static_cast<Out>(tile[ri][threadIdx.x]);
    }
}

// Shared memory by 32-bit shared addresses held in registers. With plain
// pointers the compiler recomputes every address from the dynamic shared
// base inside each conditional block of the step loop (about a dozen
// instructions per pixel). volatile and "memory" keep these accesses in
// program order with each other and with the barriers.
__device__ inline uint32_t shared_address(const void* p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ inline int lds_s32(uint32_t a) {
    int v;
    asm volatile("ld.shared.s32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
    return v;
}
__device__ inline uint32_t lds_u32(uint32_t a) {
    uint32_t v;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
    return v;
}
__device__ inline int2 lds_s32x2(uint32_t a) {
    int2 v;
    asm volatile("ld.shared.v2.s32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "r"(a) : "memory");
    return v;
}
__device__ inline void sts_s32(uint32_t a, int v) {
    asm volatile("st.shared.s32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
}
__device__ inline void sts_s32x2(uint32_t a, int x, int y) {
    asm volatile("st.shared.v2.s32 [%0], {%1, %2};" ::"r"(a), "r"(x), "r"(y) : "memory");
}
__device__ inline uint32_t lds_u16(uint32_t a) {
    unsigned short v;
    asm volatile("ld.shared.u16 %0, [%1];" : "=h"(v) : "r"(a) : "memory");
    return v;
}
__device__ inline void sts_u16(uint32_t a, uint32_t v) {
    asm volatile("st.shared.u16 [%0], %1;" ::"r"(a), "h"(static_cast<unsigned short>(v)) : "memory");
}
__device__ inline void sts_u32(uint32_t a, uint32_t v) {
    asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
}

// Both rows of a pair in one access (little endian: the even row first).
template <class T>
__device__ inline void load_pair(uint32_t a, int& even, int& odd) {
    if constexpr (sizeof(T) == 1) {
        const uint32_t w = lds_u16(a);
        even = static_cast<int>(w & 0xff);
        odd = static_cast<int>(w >> 8);
    } else {
        const uint32_t w = lds_u32(a);
        even = static_cast<int>(w & 0xffff);
        odd = static_cast<int>(w >> 16);
    }
}
template <class T>
__device__ inline void store_pair(uint32_t a, int even, int odd) {
    if constexpr (sizeof(T) == 1) sts_u16(a, static_cast<uint32_t>(even) | (static_cast<uint32_t>(odd) << 8));
    else sts_u32(a, static_cast<uint32_t>(even) | (static_cast<uint32_t>(odd) << 16));
}

// Byte I of w, sign-extended: one prmt. Result byte 0 copies byte I; bytes
// 1-3 select byte I with the nibble's top bit set, which replicates its sign.
template <int I>
__device__ inline int signed_byte(uint32_t w) {
    int r;
    asm("prmt.b32 %0, %1, 0, %2;" : "=r"(r) : "r"(w), "n"(0x8880 + I * 0x1111));
    return r;
}

struct PixelRule {
    int top, bias, shift, qm, white_from;
    uint32_t shares;          // gray with a share table: shared address of entry 0
    const uint16_t* inverse;  // RGB: the front-end's table, or null (search mapq)
    const int* mapq;          // RGB
    int colours;              // RGB: rows of mapq
};

template <int C>
struct Diffusion {
    int index;
    int s7[C], s5[C], s3[C], s1[C];  // the 7/16, 5/16, 3/16 and 1/16 shares of the error
};

// One pixel: clamp the accumulated value, pick the colour, split the error.
template <int C, bool kShareTable>
__device__ inline Diffusion<C> diffuse(const int (&x)[C], const PixelRule& rule) {
    Diffusion<C> d;
    int v[C];
#pragma unroll
    for (int ch = 0; ch < C; ++ch) v[ch] = min(max(x[ch], 0), rule.top);
    if constexpr (kShareTable) {
        const uint32_t w = lds_u32(rule.shares + 4 * static_cast<uint32_t>(v[0]));
        d.index = v[0] >= rule.white_from;
        d.s7[0] = signed_byte<0>(w);
        d.s5[0] = signed_byte<1>(w);
        d.s3[0] = signed_byte<2>(w);
        d.s1[0] = signed_byte<3>(w);
    } else {
        int e[C];
        if constexpr (C == 1) {
            // The colormap is [0 0 0; top top top].
            d.index = v[0] >= rule.white_from;
            e[0] = v[0] - (d.index ? rule.top : 0);
        } else {
            const int ir = v[0] >> rule.shift, ig = v[1] >> rule.shift, ib = v[2] >> rule.shift;
            d.index = rule.inverse ? rule.inverse[(((ir << rule.qm) | ig) << rule.qm) | ib]
                                   : nearest_colour(rule.mapq, rule.colours, rule.shift, ir, ig, ib);
#pragma unroll
            for (int ch = 0; ch < C; ++ch) e[ch] = v[ch] - rule.mapq[3 * d.index + ch];
        }
#pragma unroll
        for (int ch = 0; ch < C; ++ch) {
            d.s7[ch] = share(e[ch], 7, rule.bias);
            d.s5[ch] = share(e[ch], 5, rule.bias);
            d.s3[ch] = share(e[ch], 3, rule.bias);
            d.s1[ch] = share(e[ch], 1, rule.bias);
        }
    }
    return d;
}

// The wavefront in one block. Step pair k: pair j does its even row at
// column k - j, barrier, its odd row at the same column, barrier. Slots (pair
// j at index j + 1): even_slots holds the 3/16 share of the even row for the
// odd row of pair j-1 (next column), odd_slots the 7/16 and 1/16 shares of
// the odd row for the even row of pair j+1 (this and the next column). A slot
// is written in one step and read in the next, and rewritten only after
// another barrier; a slot read at column 0 or next to a missing row is one
// that was never written (zero).
// 64 registers let 1024 threads fit on one SM. (__launch_bounds__(1024, 1)
// gives the same limit but made ptxas recompute shared addresses in the loop.)
template <int C, class Level, class Index, bool kShareTable, int M>
__global__ void __maxnreg__(64) dither_row_pairs(const RowPairParams p) {
    extern __shared__ __align__(16) unsigned char smem[];
    const RowPairLayout lay = row_pair_layout(p, C, sizeof(Level), sizeof(Index), kShareTable);
    Level* const in_tiles = reinterpret_cast<Level*>(smem + lay.in_tiles);
    Index* const out_tiles = reinterpret_cast<Index*>(smem + lay.out_tiles);
    int* const even_slots = reinterpret_cast<int*>(smem + lay.even_slots);
    int2* const odd_slots = reinterpret_cast<int2*>(smem + lay.odd_slots);
    const int tid = threadIdx.x, nthreads = blockDim.x;

    for (int i = tid; i < (p.pairs + 2) * C; i += nthreads) {
        even_slots[i] = 0;
        odd_slots[i] = make_int2(0, 0);
    }
    PixelRule rule{p.top, p.bias, p.shift, p.qm, p.white_from, 0, p.inverse, p.mapq, p.colours};
    if constexpr (kShareTable) {
        uint32_t* shares = reinterpret_cast<uint32_t*>(smem + lay.shares);
        for (int i = tid; i <= p.top; i += nthreads) shares[i] = p.gray_shares[i];
        rule.shares = shared_address(shares);
    }
    if constexpr (C == 3) {
        if (p.tables_in_shared) {
            uint16_t* inverse = reinterpret_cast<uint16_t*>(smem + lay.inverse);
            int* mapq = reinterpret_cast<int*>(smem + lay.mapq);
            for (int i = tid; i < (1 << (3 * p.qm)); i += nthreads) inverse[i] = p.inverse[i];
            for (int i = tid; i < 3 * p.colours; i += nthreads) mapq[i] = p.mapq[i];
            rule.inverse = inverse;
            rule.mapq = mapq;
        }
    }

    const int rows = p.rows, cols = p.cols, rows_pad = p.rows_pad, group_cols = p.group_cols;
    const int skewed_cols = p.skewed_cols, groups = p.groups;
    const size_t tile = static_cast<size_t>(group_cols) * rows_pad;  // elements of one channel's tile
    const size_t skewed_pad = static_cast<size_t>(groups) * group_cols;
    const Level* const levels = static_cast<const Level*>(p.levels);
    Index* const indices = static_cast<Index*>(p.indices);
    // Copies the level tile of group g into its stage; always commits, so
    // that the count of committed groups is the same for every thread.
    auto stage = [&](int g) {
        if (g < groups) {
            const size_t bytes = tile * sizeof(Level);
            for (int ch = 0; ch < C; ++ch) {
                const char* src = reinterpret_cast<const char*>(levels + (ch * skewed_pad + static_cast<size_t>(g) * group_cols) * rows_pad);
                char* dst = reinterpret_cast<char*>(in_tiles + (static_cast<size_t>(g % kStages) * C + ch) * tile);
                for (size_t off = static_cast<size_t>(tid) * 16; off < bytes; off += static_cast<size_t>(nthreads) * 16)
                    __pipeline_memcpy_async(dst + off, src + off, 16);
            }
        }
        __pipeline_commit();
    };
    auto flush = [&](int g) {
        const uint4* src = reinterpret_cast<const uint4*>(out_tiles + static_cast<size_t>(g & 1) * tile);
        uint4* dst = reinterpret_cast<uint4*>(indices + static_cast<size_t>(g) * tile);
        const size_t n = tile * sizeof(Index) / 16;
        for (size_t i = tid; i < n; i += nthreads) dst[i] = src[i];
    };
    for (int g = 0; g < kStages - 1; ++g) stage(g);
    __pipeline_wait_prior(kStages - 2);
    __syncthreads();

    // Per pair and channel, the shares waiting for a pixel of this pair:
    int t1_above[M][C] = {};     // even row, next column: 1/16 of the odd row above
    int t5_even[M][C] = {};      // even row, next column: 5/16 of the even row
    int t3_from_odd[M][C] = {};  // even row, next column: 3/16 of the odd row
    int t7_for_odd[M][C] = {};   // odd row, this column: 7/16 of the even row
    int t1_for_odd[M][C] = {};   // odd row, this column: 1/16 of the even row one column back
    int t1_pending[M][C] = {};   // odd row, next column: 1/16 of the even row
    int t5_odd[M][C] = {};       // odd row, next column: 5/16 of the odd row
    int level_odd[M][C] = {};
    int index_even[M] = {};
    // This thread's pairs are pair0 .. pair0+M-1; pair0 + i is at + i*C in
    // the slots and at + 2i in a tile column.
    const int pair0 = tid * M;
    const uint32_t even_own = shared_address(even_slots + (pair0 + 1) * C);
    const uint32_t even_below = shared_address(even_slots + (pair0 + 2) * C);
    const uint32_t odd_above = shared_address(odd_slots + pair0 * C);
    const uint32_t odd_own = shared_address(odd_slots + (pair0 + 1) * C);
    const uint32_t tile_bytes = static_cast<uint32_t>(tile * sizeof(Level));
    const uint32_t column_bytes = static_cast<uint32_t>(rows_pad * sizeof(Level));
    const uint32_t out_column_bytes = static_cast<uint32_t>(rows_pad * sizeof(Index));
    const int live_pairs = min(M, p.pairs - pair0);         // pairs inside the image (none for the last threads)
    const int odd_rows = min(M, (rows - 2 * pair0) / 2);  // pairs whose odd row is inside the image
    int column0 = -pair0;  // column of pair0 in the current step pair

    for (int group = 0, k0 = 0, stage_now = 0; group < groups; ++group, k0 += group_cols) {
        if (group > 0) flush(group - 1);
        stage(group + kStages - 1);  // into the stage that group - 1 used
        uint32_t column = shared_address(in_tiles + static_cast<size_t>(stage_now) * C * tile + 2 * pair0);
        uint32_t out_column = shared_address(out_tiles + static_cast<size_t>(group & 1) * tile + 2 * pair0);
        const int k_last = min(k0 + group_cols, skewed_cols) - 1;
        for (int k = k0; k <= k_last; ++k, column += column_bytes, out_column += out_column_bytes, ++column0) {
#pragma unroll
            for (int i = 0; i < M; ++i) {
                if (i >= live_pairs || static_cast<unsigned>(column0 - i) >= static_cast<unsigned>(cols)) continue;
                int x[C];
#pragma unroll
                for (int ch = 0; ch < C; ++ch) {
                    int level_even;
                    load_pair<Level>(column + ch * tile_bytes + 2 * i * sizeof(Level), level_even, level_odd[i][ch]);
                    const int2 above = lds_s32x2(odd_above + (i * C + ch) * sizeof(int2));
                    x[ch] = level_even + above.x + t1_above[i][ch] + t5_even[i][ch] + t3_from_odd[i][ch];
                    t1_above[i][ch] = above.y;
                }
                const Diffusion<C> d = diffuse<C, kShareTable>(x, rule);
                index_even[i] = d.index;
#pragma unroll
                for (int ch = 0; ch < C; ++ch) {
                    t7_for_odd[i][ch] = d.s7[ch];
                    t5_even[i][ch] = d.s5[ch];
                    t1_pending[i][ch] = d.s1[ch];
                    sts_s32(even_own + (i * C + ch) * sizeof(int), d.s3[ch]);
                }
            }
            __syncthreads();

#pragma unroll
            for (int i = 0; i < M; ++i) {
                if (i >= live_pairs || static_cast<unsigned>(column0 - i) >= static_cast<unsigned>(cols)) continue;
                int index_odd = 0;
                if (i < odd_rows) {
                    int x[C];
#pragma unroll
                    for (int ch = 0; ch < C; ++ch) {
                        x[ch] = level_odd[i][ch] + lds_s32(even_below + (i * C + ch) * sizeof(int)) +
                                t7_for_odd[i][ch] + t5_odd[i][ch] + t1_for_odd[i][ch];
                        t1_for_odd[i][ch] = t1_pending[i][ch];
                    }
                    const Diffusion<C> d = diffuse<C, kShareTable>(x, rule);
                    index_odd = d.index;
#pragma unroll
                    for (int ch = 0; ch < C; ++ch) {
                        t5_odd[i][ch] = d.s5[ch];
                        t3_from_odd[i][ch] = d.s3[ch];
                        sts_s32x2(odd_own + (i * C + ch) * sizeof(int2), d.s7[ch], d.s1[ch]);
                    }
                }
                store_pair<Index>(out_column + 2 * i * sizeof(Index), index_even[i], index_odd);
            }
            if (k == k0 + group_cols - 1) __pipeline_wait_prior(kStages - 2);  // the next group's tile
            __syncthreads();
        }
        stage_now = stage_now + 1 == kStages ? 0 : stage_now + 1;
    }
    flush(groups - 1);
}

// IPT_CUDA_DITHER: "warp-chunks" runs the previous kernel, "pairs1",
// "pairs2" or "pairs4" fixes the row pairs per thread (to time them on a GPU).
struct DitherChoice {
    bool warp_chunks = false;
    int pairs_per_thread = 0;  // 0: the fewest that fit in one block
};

DitherChoice dither_choice() {
    DitherChoice c;
    const char* v = std::getenv("IPT_CUDA_DITHER");
    if (!v) return c;
    if (std::strcmp(v, "warp-chunks") == 0) c.warp_chunks = true;
    else if (std::strcmp(v, "pairs1") == 0) c.pairs_per_thread = 1;
    else if (std::strcmp(v, "pairs2") == 0) c.pairs_per_thread = 2;
    else if (std::strcmp(v, "pairs4") == 0) c.pairs_per_thread = 4;
    return c;
}

// Gray: the four error shares of every clamped level, packed in bytes.
std::vector<uint32_t> gray_shares(const DitherPlan& plan) {
    std::vector<uint32_t> shares(static_cast<size_t>(plan.top) + 1);
    for (int v = 0; v <= plan.top; ++v) {
        const int e = v - (v >= plan.white_from ? plan.top : 0);
        auto byte = [&](int n, int at) {
            return static_cast<uint32_t>(static_cast<uint8_t>(ipt::frontend::dither_share(e, n, plan.bias))) << at;
        };
        shares[v] = byte(7, 0) | byte(5, 8) | byte(3, 16) | byte(1, 24);
    }
    return shares;
}

template <int C, class Level, class Index, bool kShareTable, int M>
void launch_row_pairs(const RowPairParams& p, size_t smem, int threads, cudaStream_t s) {
    auto kernel = dither_row_pairs<C, Level, Index, kShareTable, M>;
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)),
          "cudaFuncSetAttribute (dither)");
    kernel<<<1, threads, smem, s>>>(p);
    check_launch("ipt.dither");
}

// The row-pair kernel for one configuration; false (nothing enqueued) when
// the image has too many rows for one block or its tiles do not fit.
template <int C, class Level, class Index, bool kShareTable, class Out>
bool run_row_pairs_typed(const Device& dev, const ipt_tensor* img, const ipt_tensor* x, const DitherPlan& plan,
                         int forced_pairs) {
    const int64_t rows = img->rows, cols = img->cols, pairs = (rows + 1) / 2;
    auto threads_for = [&](int m) { return (pairs + m - 1) / m; };
    // The fewest pairs per thread that fit in one block: on an H100 at 2048²
    // gray took 1.18 ms with one pair per thread, 1.48 with two, 2.42 with
    // four: more threads at each barrier cost less than the longer
    // step of a thread with more pairs.
    int per_thread = 0;
    if (forced_pairs && threads_for(forced_pairs) <= kMaxThreads) per_thread = forced_pairs;
    for (int m = 1; !per_thread && m <= kMaxPairsPerThread; m *= 2)
        if (threads_for(m) <= kMaxThreads) per_thread = m;
    if (!per_thread || cols + pairs > 0x7fffffff - 64) return false;
    const int threads = static_cast<int>((threads_for(per_thread) + 31) / 32 * 32);

    RowPairParams p{};
    p.rows = static_cast<int>(rows);
    p.cols = static_cast<int>(cols);
    p.pairs = static_cast<int>(pairs);
    p.skewed_cols = static_cast<int>(cols + pairs - 1);
    p.rows_pad = static_cast<int>((rows + 15) / 16 * 16);
    p.top = plan.top;
    p.bias = plan.bias;
    p.shift = plan.shift;
    p.qm = plan.qm;
    p.colours = static_cast<int>(plan.colours());
    // Widest tile that fits; RGB tables in shared memory if the tile can
    // still be 4 columns wide, else read through the cache (without the
    // front-end's table, the colormap is searched from global memory).
    size_t smem = 0;
    for (int tables = C == 3 && !plan.inverse.empty() ? 1 : 0; tables >= 0 && !smem; --tables) {
        p.tables_in_shared = tables;
        for (int w = 16; w >= (tables ? 4 : 1) && !smem; w /= 2) {
            p.group_cols = w;
            const size_t need = row_pair_layout(p, C, sizeof(Level), sizeof(Index), kShareTable).total;
            if (need <= dev.shared_per_block_optin) smem = need;
        }
    }
    if (!smem) return false;
    p.groups = (p.skewed_cols + p.group_cols - 1) / p.group_cols;

    cudaStream_t s = dev.stream;
    DeviceArray<uint32_t> shares;
    DeviceArray<int> mapq;
    DeviceArray<uint16_t> inverse;
    if constexpr (C == 1) {
        p.white_from = plan.white_from;
        if constexpr (kShareTable) {
            shares = to_device(gray_shares(plan), s);
            p.gray_shares = shares.get();
        }
    } else {
        mapq = to_device(plan.mapq, s);
        p.mapq = mapq.get();
        if (!plan.inverse.empty()) {
            inverse = to_device(plan.inverse, s);
            p.inverse = inverse.get();
        }
    }
    const size_t skewed = static_cast<size_t>(p.groups) * p.group_cols * p.rows_pad;
    DeviceArray<Level> levels(C * skewed, s);
    DeviceArray<Index> indices(skewed, s);
    levels.zero();  // the corners of the skewed buffer are staged but never used
    p.levels = levels.get();
    p.indices = indices.get();

    const dim3 tiles(static_cast<unsigned>((cols + 31) / 32), static_cast<unsigned>((rows + 31) / 32)), block(32, 8);
    visit_dtype(img->dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> || std::is_floating_point_v<T>)
            dither_skew_levels<T, Level, C><<<tiles, block, 0, s>>>(dptr<const T>(img), levels.get(), p.rows, p.cols,
                                                                   static_cast<int64_t>(p.groups) * p.group_cols,
                                                                   p.rows_pad, p.top);
        else
            ipt::plugin::unsupported("ipt.dither: class of 'I' not handled");
    });
    check_launch("ipt.dither (levels)");
    switch (per_thread) {
    case 1: launch_row_pairs<C, Level, Index, kShareTable, 1>(p, smem, threads, s); break;
    case 2: launch_row_pairs<C, Level, Index, kShareTable, 2>(p, smem, threads, s); break;
    default: launch_row_pairs<C, Level, Index, kShareTable, 4>(p, smem, threads, s); break;
    }
    dither_unskew<Index, Out><<<tiles, block, 0, s>>>(indices.get(), dptr<Out>(x), p.rows, p.cols, p.rows_pad);
    check_launch("ipt.dither (indices)");
    return true;
}

bool run_row_pairs(const Device& dev, const ipt_tensor* img, const ipt_tensor* x, const DitherPlan& plan,
                   int forced_pairs) {
    const bool byte_levels = plan.top <= 255;
    if (plan.gray)
        return byte_levels ? run_row_pairs_typed<1, uint8_t, uint8_t, true, bool>(dev, img, x, plan, forced_pairs)
                           : run_row_pairs_typed<1, uint16_t, uint8_t, false, bool>(dev, img, x, plan, forced_pairs);
    if (plan.out_dtype == IPT_UINT8)
        return byte_levels ? run_row_pairs_typed<3, uint8_t, uint8_t, false, uint8_t>(dev, img, x, plan, forced_pairs)
                           : run_row_pairs_typed<3, uint16_t, uint8_t, false, uint8_t>(dev, img, x, plan, forced_pairs);
    return byte_levels ? run_row_pairs_typed<3, uint8_t, uint16_t, false, uint16_t>(dev, img, x, plan, forced_pairs)
                       : run_row_pairs_typed<3, uint16_t, uint16_t, false, uint16_t>(dev, img, x, plan, forced_pairs);
}

// ---- warp chunks (previous kernel) ------------------------------------------------------

struct WarpChunkParams {
    int64_t rows, cols;
    int top, bias, shift, qm, white_from;
    const int* mapq;            // n x 3
    const uint16_t* inverse;    // RGB: cells -> colour index
    const int* qtab;            // uint8 value -> quantised value
    int* boundary;              // (chunks) x rows x 3: errors into each chunk's first column
    unsigned* progress;         // per chunk: rows of its last column finished
    int chunks;
    int colours;                // RGB: rows of mapq (searched when inverse is null)
};

template <class T, int C, class Out>
__global__ void __launch_bounds__(32) dither_warp_chunks(const T* __restrict__ img, Out* __restrict__ out, WarpChunkParams p) {
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
                int idx;
                if constexpr (C == 1) {
                    idx = v[0] >= p.white_from ? 1 : 0;
                } else {
                    const int ir = v[0] >> p.shift, ig = v[1] >> p.shift, ib = v[2] >> p.shift;
                    idx = p.inverse ? p.inverse[(((ir << p.qm) | ig) << p.qm) | ib]
                                    : nearest_colour(p.mapq, p.colours, p.shift, ir, ig, ib);
                }
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

void run_warp_chunks(const Device& dev, const ipt_tensor* img, const ipt_tensor* x, const DitherPlan& plan) {
    const int64_t rows = img->rows, cols = img->cols;
    std::vector<int> qtab(256);
    for (int v = 0; v < 256; ++v) qtab[v] = ipt::frontend::dither_level(v, plan.top);
    cudaStream_t s = dev.stream;
    DeviceArray<int> d_mapq = to_device(plan.mapq, s), d_qtab = to_device(qtab, s);
    DeviceArray<uint16_t> d_inv;
    if (!plan.gray && !plan.inverse.empty()) d_inv = to_device(plan.inverse, s);
    const int chunks = static_cast<int>((cols + 31) / 32);
    DeviceArray<int> boundary(static_cast<size_t>(chunks) * rows * 3, s);
    DeviceArray<unsigned> progress(chunks, s);
    boundary.zero();
    progress.zero();
    WarpChunkParams p{rows, cols, plan.top, plan.bias, plan.shift, plan.qm, plan.white_from, d_mapq.get(),
                      plan.inverse.empty() ? nullptr : d_inv.get(),
                      d_qtab.get(), boundary.get(), progress.get(), chunks, static_cast<int>(plan.colours())};
    // Every warp must be resident: chunk k waits on chunk k-1.
    const int grid = std::min(chunks, dev.sm_count * 16);
    visit_dtype(img->dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> || std::is_floating_point_v<T>) {
            if (plan.gray)
                dither_warp_chunks<T, 1, bool><<<grid, 32, 0, s>>>(dptr<const T>(img), dptr<bool>(x), p);
            else if (plan.out_dtype == IPT_UINT8)
                dither_warp_chunks<T, 3, uint8_t><<<grid, 32, 0, s>>>(dptr<const T>(img), dptr<uint8_t>(x), p);
            else
                dither_warp_chunks<T, 3, uint16_t><<<grid, 32, 0, s>>>(dptr<const T>(img), dptr<uint16_t>(x), p);
        } else {
            ipt::plugin::unsupported("ipt.dither: class of 'I' not handled");
        }
    });
    check_launch("ipt.dither");
}

void run_dither(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt_tensor* img = args.image("I");
    const DitherPlan plan = ipt::frontend::plan_dither(args);
    const ipt_tensor* x = args.output("X", plan.out_dtype, img->rows, img->cols, 1);
    if (img->rows == 0 || img->cols == 0) return;
    const DitherChoice choice = dither_choice();
    if (!choice.warp_chunks && run_row_pairs(dev, img, x, plan, choice.pairs_per_thread)) return;
    run_warp_chunks(dev, img, x, plan);
}

IPT_CUDA_OP("ipt.dither", "", 100, run_dither)

}  // namespace
}  // namespace ipt::cuda
