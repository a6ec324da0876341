// SPDX-License-Identifier: Apache-2.0
// Grey-scale and binary morphology shared by imdilate and imerode
// (docs/matlab-semantics.md#dilation-reflects). The front-end (backends/common/ops/
// imdilate.hpp) plans both as B(p) = op over the members d of A(p + d)
// (+ add(d)); pixels outside the image hold the plan's pad (the identity of
// op, never chosen); NaN pixels are never chosen either (no comparison with
// NaN holds).
//
// Flat SEs whose members fill their bounding box (square, rectangle,
// horizontal and vertical lines) run in one pass over a tile of 16-bit pairs
// on 1-byte classes (morph_rect_bytes), and on other classes as two 1-D
// passes, each output a window extreme over a row or column segment staged
// in shared memory. Any other
// neighbourhood, and non-flat elements, run directly: the list of members in
// shared memory (or read from global memory when it does not fit) and, for
// flat SEs, an input tile with its halo, one output per thread. An SE with no
// members writes the pad everywhere.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/ops/imdilate.hpp"

namespace ipt::cuda {

template <class T, bool Dilate>
__device__ inline T morph_pick(T acc, T v) {
    if constexpr (Dilate) return (acc < v) ? v : acc;
    else return (v < acc) ? v : acc;
}

constexpr int kLineThreads = 256;

// out(r, c) = extreme of a(r, c + k) for k in [lo, hi] (horizontal) or of
// a(r + k, c) (vertical), outside the image ignored.
template <class T, bool Dilate, bool Horizontal>
__global__ void morph_line(const T* __restrict__ a, T* __restrict__ out, int64_t rows, int64_t cols, int lo,
                           int hi, T pad) {
    extern __shared__ unsigned char raw[];
    T* seg = reinterpret_cast<T*>(raw);
    const int span = hi - lo;
    const int64_t lines = Horizontal ? rows : cols;
    const int64_t length = Horizontal ? cols : rows;
    // Horizontal: block = 256 outputs of one row. Vertical: 32 columns x 8
    // rows of threads, 32 x 32 outputs.
    if constexpr (Horizontal) {
        const int64_t r = blockIdx.y;
        const int64_t c0 = static_cast<int64_t>(blockIdx.x) * kLineThreads;
        const int n = kLineThreads + span;
        for (int i = threadIdx.x; i < n; i += kLineThreads) {
            const int64_t c = c0 + lo + i;
            seg[i] = (c >= 0 && c < cols) ? a[r * cols + c] : pad;
        }
        __syncthreads();
        const int64_t c = c0 + threadIdx.x;
        if (c < cols) {
            T acc = pad;
            for (int k = 0; k <= span; ++k) acc = morph_pick<T, Dilate>(acc, seg[threadIdx.x + k]);
            out[r * cols + c] = acc;
        }
        (void)lines;
        (void)length;
    } else {
        const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;  // 32 x 8
        const int64_t c = static_cast<int64_t>(blockIdx.x) * 32 + tx;
        const int64_t r0 = static_cast<int64_t>(blockIdx.y) * 32;
        const int n = 32 + span;
        for (int i = ty; i < n; i += 8) {
            const int64_t r = r0 + lo + i;
            seg[i * 32 + tx] =
                (c < cols && r >= 0 && r < rows) ? a[r * cols + c] : pad;
        }
        __syncthreads();
        if (c >= cols) return;
        for (int k0 = ty; k0 < 32; k0 += 8) {
            const int64_t r = r0 + k0;
            if (r >= rows) break;
            T acc = pad;
            for (int k = 0; k <= span; ++k) acc = morph_pick<T, Dilate>(acc, seg[(k0 + k) * 32 + tx]);
            out[r * cols + c] = acc;
        }
    }
}

// Flat rectangles on 1-byte classes (uint8, logical) in one pass. Each pixel
// sits zero-extended in a 16-bit lane, so one max.u16x2 / min.u16x2 (native
// on sm_90, unlike the 8-bit forms) handles two pixels. A block stages its
// input tile (outputs plus halo, outside pixels the pad) as 16-bit pairs,
// takes the window extreme down the columns into a second tile, then along
// the rows, two pairs of each row (one 32-bit word of output) per thread.
constexpr int kRectTileRows = 32, kRectTileCols = 128;

__host__ __device__ inline int rect_pair_words(int span_c) { return (kRectTileCols + span_c + 1) / 2 + 1; }
__host__ __device__ inline size_t rect_shared_bytes(int span_r, int span_c) {
    return sizeof(uint32_t) * static_cast<size_t>(rect_pair_words(span_c)) * (2 * kRectTileRows + span_r);
}

template <bool Dilate>
__device__ __forceinline__ uint32_t pick_pairs(uint32_t acc, uint32_t v) {
    if constexpr (Dilate) return __vmaxu2(acc, v);
    else return __vminu2(acc, v);
}

template <class T, bool Dilate>
__global__ void __launch_bounds__(256)
morph_rect_bytes(const T* __restrict__ a, T* __restrict__ out, int64_t rows, int64_t cols, int lo_r, int hi_r, int lo_c,
                 int hi_c, T pad, bool word_rows) {
    static_assert(sizeof(T) == 1, "one-byte classes");
    extern __shared__ uint32_t pairs[];
    const int span_r = hi_r - lo_r, span_c = hi_c - lo_c;
    const int words = rect_pair_words(span_c);
    const int in_rows = kRectTileRows + span_r;
    uint32_t* in = pairs;                            // in_rows x words
    uint32_t* down = pairs + in_rows * words;        // kRectTileRows x words
    uint16_t* in_px = reinterpret_cast<uint16_t*>(in);
    const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
    const int64_t r0 = static_cast<int64_t>(blockIdx.y) * kRectTileRows;
    const int64_t c0 = static_cast<int64_t>(blockIdx.x) * kRectTileCols;
    const uint16_t pad16 = static_cast<uint8_t>(pad);
    const uint32_t identity = static_cast<uint32_t>(pad16) * 0x10001u;
    for (int y = ty; y < in_rows; y += 8) {
        const int64_t r = r0 + lo_r + y;
        const bool row_inside = r >= 0 && r < rows;
        const T* src = a + (row_inside ? r : 0) * cols;
        for (int x = tx; x < 2 * words; x += 32) {
            const int64_t c = c0 + lo_c + x;
            in_px[y * 2 * words + x] = (row_inside && c >= 0 && c < cols) ? static_cast<uint8_t>(src[c]) : pad16;
        }
    }
    __syncthreads();
    for (int y = ty; y < kRectTileRows; y += 8)
        for (int w = tx; w < words; w += 32) {
            uint32_t acc = identity;
            for (int k = 0; k <= span_r; ++k) acc = pick_pairs<Dilate>(acc, in[(y + k) * words + w]);
            down[y * words + w] = acc;
        }
    __syncthreads();
    // Output pixels 4 tx .. 4 tx + 3 of the row: pairs p = 2 tx and 2 tx + 1.
    // Pixel x + j of the staged row, j = 0 .. span_c: for even j the pair
    // word (x + j) / 2, for odd j the high half of one word and the low half
    // of the next.
    const int64_t c = c0 + 4 * tx;
    if (c >= cols) return;
    for (int y = ty; y < kRectTileRows; y += 8) {
        const int64_t r = r0 + y;
        if (r >= rows) return;
        const uint32_t* row = down + y * words + 2 * tx;
        uint32_t acc0 = identity, acc1 = identity;
        uint32_t w0 = row[0], w1 = row[1];
        for (int q = 0;; ++q) {
            acc0 = pick_pairs<Dilate>(acc0, w0);  // j = 2q
            acc1 = pick_pairs<Dilate>(acc1, w1);
            if (2 * q + 1 > span_c) break;
            const uint32_t w2 = row[q + 2];
            acc0 = pick_pairs<Dilate>(acc0, __byte_perm(w0, w1, 0x5432));  // j = 2q + 1
            acc1 = pick_pairs<Dilate>(acc1, __byte_perm(w1, w2, 0x5432));
            if (2 * q + 2 > span_c) break;
            w0 = w1;
            w1 = w2;
        }
        const uint32_t packed = __byte_perm(acc0, acc1, 0x6420);
        T* dst = out + r * cols + c;
        if (word_rows && c + 4 <= cols) {
            *reinterpret_cast<uint32_t*>(dst) = packed;
        } else {
            for (int k = 0; k < 4 && c + k < cols; ++k) dst[k] = static_cast<T>((packed >> (8 * k)) & 0xFFu);
        }
    }
}

// Direct: the members' offsets (dy, dx) and, non-flat, their adds.
struct SEList {
    const int* dy = nullptr;
    const int* dx = nullptr;
    const double* h = nullptr;
    int count = 0;
    int min_dy = 0, max_dy = 0, min_dx = 0, max_dx = 0;
};

// Bytes of the member list staged in shared memory (ints, then 8-byte
// aligned doubles when non-flat).
__host__ __device__ inline size_t se_offset_bytes(int count) {
    return (sizeof(int) * 2 * static_cast<size_t>(count) + 7) / 8 * 8;
}
__host__ __device__ inline size_t se_list_bytes(int count, bool flat) {
    return se_offset_bytes(count) + (flat ? 0 : sizeof(double) * static_cast<size_t>(count));
}

// Staged: the list is copied into shared memory (else read from global
// memory); a compile-time choice, so that staged reads are shared-memory
// loads rather than generic ones. tiled (flat only): the input tile with its
// halo follows the list.
template <class T, bool Dilate, bool Flat, bool Staged>
__global__ void morph_direct(const T* __restrict__ a, T* __restrict__ out, int64_t rows, int64_t cols, SEList se,
                             T pad, bool tiled) {
    extern __shared__ unsigned char raw[];
    const int tx = threadIdx.x, ty = threadIdx.y;  // 32 x 8, 32 x 32 outputs
    const int tid = ty * 32 + tx;
    const int th = 32 + se.max_dy - se.min_dy, tw = 32 + se.max_dx - se.min_dx;
    int* ly = reinterpret_cast<int*>(raw);
    int* lx = ly + se.count;
    double* lh = reinterpret_cast<double*>(raw + se_offset_bytes(se.count));
    if constexpr (Staged) {
        for (int i = tid; i < se.count; i += 256) {
            ly[i] = se.dy[i];
            lx[i] = se.dx[i];
            if constexpr (!Flat) lh[i] = se.h[i];
        }
    }
    const int* sy = Staged ? ly : se.dy;
    const int* sx = Staged ? lx : se.dx;
    const double* sh = Staged ? lh : se.h;
    T* tile = reinterpret_cast<T*>(raw + (Staged ? se_list_bytes(se.count, Flat) : 0));
    const int64_t r0 = static_cast<int64_t>(blockIdx.y) * 32, c0 = static_cast<int64_t>(blockIdx.x) * 32;
    if (tiled) {
        for (int i = tid; i < th * tw; i += 256) {
            const int64_t r = r0 + se.min_dy + i / tw, c = c0 + se.min_dx + i % tw;
            tile[i] = (r >= 0 && r < rows && c >= 0 && c < cols) ? a[r * cols + c] : pad;
        }
    }
    __syncthreads();
    const int64_t c = c0 + tx;
    for (int k0 = ty; k0 < 32; k0 += 8) {
        const int64_t r = r0 + k0;
        if (r >= rows || c >= cols) continue;
        if constexpr (Flat) {
            T acc = pad;
            for (int k = 0; k < se.count; ++k) {
                T v;
                if (tiled) {
                    v = tile[(k0 + sy[k] - se.min_dy) * tw + (tx + sx[k] - se.min_dx)];
                } else {
                    const int64_t rr = r + sy[k], cc = c + sx[k];
                    v = (rr >= 0 && rr < rows && cc >= 0 && cc < cols) ? a[rr * cols + cc] : pad;
                }
                acc = morph_pick<T, Dilate>(acc, v);
            }
            out[r * cols + c] = acc;
        } else {
            // Non-flat: in double, from the pad; members outside the image
            // are skipped, NaN sums never win.
            double acc = to_double(pad);
            for (int k = 0; k < se.count; ++k) {
                const int64_t rr = r + sy[k], cc = c + sx[k];
                if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) continue;
                const double t = to_double(a[rr * cols + cc]) + sh[k];
                acc = morph_pick<double, Dilate>(acc, t);
            }
            out[r * cols + c] = saturate_round<T>(acc);
        }
    }
}

// Shared memory a block may use without opting in.
constexpr size_t kMorphSharedCap = 48 * 1024;

template <bool Dilate>
void run_morphology_plan(const ipt_tensor* a, const ipt_tensor* b, const ipt::frontend::MorphologyPlan& plan,
                         cudaStream_t s) {
    const char* op = Dilate ? "ipt.imdilate" : "ipt.imerode";
    const int64_t rows = plan.rows, cols = plan.cols;
    const int lo_r = static_cast<int>(plan.dr_min), hi_r = static_cast<int>(plan.dr_max);
    const int lo_c = static_cast<int>(plan.dc_min), hi_c = static_cast<int>(plan.dc_max);
    visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        const T* src = dptr<const T>(a);
        T* dst = dptr<T>(b);
        const T pad = static_cast<T>(plan.pad);
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, bool>) {
            const size_t shared = rect_shared_bytes(hi_r - lo_r, hi_c - lo_c);
            if (plan.flat && plan.rectangle && shared <= kMorphSharedCap) {
                const bool word_rows = cols % 4 == 0 && reinterpret_cast<uintptr_t>(dst) % 4 == 0;
                dim3 grid(static_cast<unsigned>((cols + kRectTileCols - 1) / kRectTileCols),
                          static_cast<unsigned>((rows + kRectTileRows - 1) / kRectTileRows));
                morph_rect_bytes<T, Dilate><<<grid, 256, shared, s>>>(src, dst, rows, cols, lo_r, hi_r, lo_c, hi_c, pad,
                                                                      word_rows);
                check_launch(op);
                return;
            }
        }
        const size_t row_seg = sizeof(T) * (kLineThreads + hi_c - lo_c), col_seg = sizeof(T) * 32 * (32 + hi_r - lo_r);
        if (plan.flat && plan.rectangle && row_seg <= kMorphSharedCap && col_seg <= kMorphSharedCap) {
            // Window of columns then of rows (read offsets lo..hi); a pass of
            // one offset other than 0 is a shift, of offset 0 a copy (run only
            // when there is no other pass).
            const bool vertical = hi_r > lo_r || lo_r != 0;
            const bool horizontal = hi_c > lo_c || lo_c != 0 || !vertical;
            DeviceArray<T> tmp(horizontal && vertical ? static_cast<size_t>(rows) * cols : 0, s);
            const T* stage = src;
            T* target = vertical ? tmp.get() : dst;
            if (horizontal) {
                dim3 grid(static_cast<unsigned>((cols + kLineThreads - 1) / kLineThreads), static_cast<unsigned>(rows));
                morph_line<T, Dilate, true><<<grid, kLineThreads, row_seg, s>>>(stage, target, rows, cols, lo_c, hi_c,
                                                                              pad);
                check_launch(op);
                stage = target;
            }
            if (vertical) {
                dim3 grid(static_cast<unsigned>((cols + 31) / 32), static_cast<unsigned>((rows + 31) / 32));
                morph_line<T, Dilate, false><<<grid, 256, col_seg, s>>>(stage, dst, rows, cols, lo_r, hi_r, pad);
                check_launch(op);
            }
            return;
        }
        std::vector<int> dy, dx;
        std::vector<double> adds;
        for (const ipt::frontend::MorphMember& m : plan.members) {
            dy.push_back(static_cast<int>(m.dr));
            dx.push_back(static_cast<int>(m.dc));
            if (!plan.flat) adds.push_back(m.add);
        }
        SEList se;
        se.count = static_cast<int>(dy.size());
        se.min_dy = lo_r;
        se.max_dy = hi_r;
        se.min_dx = lo_c;
        se.max_dx = hi_c;
        DeviceArray<int> ddy = to_device(dy, s), ddx = to_device(dx, s);
        DeviceArray<double> dh = to_device(adds, s);
        se.dy = ddy.get();
        se.dx = ddx.get();
        se.h = dh.get();
        const size_t list_bytes = se_list_bytes(se.count, plan.flat);
        const size_t tile_bytes =
            sizeof(T) * static_cast<size_t>(32 + se.max_dy - se.min_dy) * (32 + se.max_dx - se.min_dx);
        const bool staged = list_bytes <= kMorphSharedCap;
        const bool tiled = plan.flat && se.count > 0 && staged && list_bytes + tile_bytes <= kMorphSharedCap;
        const size_t bytes = (staged ? list_bytes : 0) + (tiled ? tile_bytes : 0);
        dim3 grid(static_cast<unsigned>((cols + 31) / 32), static_cast<unsigned>((rows + 31) / 32));
        dim3 block(32, 8);
        if (plan.flat) {
            if (staged) morph_direct<T, Dilate, true, true><<<grid, block, bytes, s>>>(src, dst, rows, cols, se, pad, tiled);
            else morph_direct<T, Dilate, true, false><<<grid, block, bytes, s>>>(src, dst, rows, cols, se, pad, false);
        } else if constexpr (!std::is_same_v<T, bool>) {  // the front-end admits no non-flat logical call
            if (staged) morph_direct<T, Dilate, false, true><<<grid, block, bytes, s>>>(src, dst, rows, cols, se, pad, false);
            else morph_direct<T, Dilate, false, false><<<grid, block, bytes, s>>>(src, dst, rows, cols, se, pad, false);
        }
        check_launch(op);
    });
}

// Runs the front-end's plan (backends/common/ops/imdilate.hpp).
inline void run_morphology(const ipt::plugin::KernelArgs& args, const ipt::frontend::MorphologyPlan& plan) {
    const Device& dev = device_of(args);
    const ipt_tensor* a = args.image("A");
    const ipt_tensor* b = args.output("B", plan.dtype, plan.rows, plan.cols, 1);
    if (plan.rows == 0 || plan.cols == 0) return;
    if (plan.dilate)
        run_morphology_plan<true>(a, b, plan, dev.stream);
    else
        run_morphology_plan<false>(a, b, plan, dev.stream);
}

}  // namespace ipt::cuda
