// SPDX-License-Identifier: Apache-2.0
// A copy of rows and columns of an image into another, each output element
// taken from the source element that padarray's rules pick, or a fill value:
// out(p, r, c) = A(p, src(r - top, rows), src(c - left, cols)), src being
// padarray_source of the method (common/ops/padarray.hpp), fill where it
// gives -1. padarray uses it with its padding; imcrop with a negative
// top/left (the crop's corner) and the constant method, whose indices then
// always fall inside A.
//
// Bandwidth-bound: each thread writes 16 bytes of the output (one vector
// store when the output is 16-byte aligned), reading them with one vector
// load when they lie in one source row at a 16-byte aligned address, and
// element by element otherwise (consecutive threads read consecutive
// elements, so the loads coalesce). When every output row starts 16-byte
// aligned, a warp copies one output row at a time (pad_copy_rows): no
// division of a flat index per 16 bytes, which costs more than the copy.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "common/device.cuh"
#include "common/ops/padarray.hpp"

namespace ipt::cuda {

struct PadCopy {
    int64_t rows = 0, cols = 0;          // of a source plane
    int64_t out_rows = 0, out_cols = 0;  // of an output plane
    int64_t planes = 1;
    int64_t top = 0, left = 0;
    ipt::frontend::PadMethod method = ipt::frontend::PadMethod::Constant;
};

namespace detail {

template <class T>
__device__ inline const T* pad_copy_row(const T* in, const PadCopy& g, int64_t k) {
    if (g.rows == 0 || g.cols == 0) return nullptr;
    const int64_t plane = k / g.out_rows, r = k - plane * g.out_rows;
    const int64_t s = ipt::frontend::padarray_source(g.method, r - g.top, g.rows);
    return s < 0 ? nullptr : in + (plane * g.rows + s) * g.cols;
}

template <class T, int VEC>
__global__ void pad_copy_kernel(const T* __restrict__ in, T* __restrict__ out, PadCopy g, T fill, int64_t total,
                                bool vector_store) {
    const int64_t chunks = (total + VEC - 1) / VEC;
    IPT_GRID_STRIDE(i, chunks) {
        const int64_t flat = i * VEC;
        int64_t k = flat / g.out_cols, c = flat - k * g.out_cols;
        const T* row = pad_copy_row(in, g, k);
        T v[VEC];
        const int64_t j0 = c - g.left;
        if (row && c + VEC <= g.out_cols && j0 >= 0 && j0 + VEC <= g.cols &&
            reinterpret_cast<uintptr_t>(row + j0) % 16 == 0) {
            const uint4 u = *reinterpret_cast<const uint4*>(row + j0);
            memcpy(v, &u, sizeof u);
        } else {
            for (int e = 0; e < VEC; ++e) {
                const int64_t j = ipt::frontend::padarray_source(g.method, c - g.left, g.cols);
                v[e] = row && j >= 0 ? row[j] : fill;
                if (++c == g.out_cols && flat + e + 1 < total) {
                    c = 0;
                    row = pad_copy_row(in, g, ++k);
                }
            }
        }
        if (vector_store && flat + VEC <= total) {
            uint4 u;
            memcpy(&u, v, sizeof u);
            reinterpret_cast<uint4*>(out)[i] = u;
        } else {
            for (int e = 0; e < VEC && flat + e < total; ++e) out[flat + e] = v[e];
        }
    }
}

template <class T, int VEC>
__device__ __forceinline__ void pad_copy_chunk(const T* row, T* orow, const PadCopy& g, T fill, int64_t c) {
    const int64_t j0 = c - g.left;
    T v[VEC];
    using ipt::frontend::PadMethod;
    const bool one_value = (g.method == PadMethod::Constant || g.method == PadMethod::Replicate) &&
                           (j0 + VEC <= 0 || j0 >= g.cols);
    if (row && c + VEC <= g.out_cols && j0 >= 0 && j0 + VEC <= g.cols &&
        reinterpret_cast<uintptr_t>(row + j0) % 16 == 0) {
        const uint4 u = *reinterpret_cast<const uint4*>(row + j0);
        memcpy(v, &u, sizeof u);
    } else if (one_value) {
        // Wholly beside the row, constant or replicate: one value (the
        // fill, or the row's end element) for the whole chunk.
        const int64_t j = ipt::frontend::padarray_source(g.method, j0, g.cols);
        const T value = row && j >= 0 ? row[j] : fill;
#pragma unroll
        for (int e = 0; e < VEC; ++e) v[e] = value;
    } else {
#pragma unroll
        for (int e = 0; e < VEC; ++e) {
            const int64_t j = c + e < g.out_cols ? ipt::frontend::padarray_source(g.method, c + e - g.left, g.cols) : -1;
            v[e] = row && j >= 0 ? row[j] : fill;
        }
    }
    if (c + VEC <= g.out_cols) {
        uint4 u;
        memcpy(&u, v, sizeof u);
        *reinterpret_cast<uint4*>(orow + c) = u;
    } else {
        for (int e = 0; c + e < g.out_cols; ++e) orow[c + e] = v[e];
    }
}

// A warp per output row (planes' rows one after another), 16 bytes a lane.
template <class T, int VEC>
__global__ void pad_copy_rows(const T* __restrict__ in, T* __restrict__ out, PadCopy g, int64_t out_rows_all,
                              T fill) {
    for (int64_t k = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y; k < out_rows_all;
         k += static_cast<int64_t>(gridDim.y) * blockDim.y) {
        const T* row = pad_copy_row(in, g, k);
        T* orow = out + k * g.out_cols;
        for (int64_t c = (static_cast<int64_t>(blockIdx.x) * 32 + threadIdx.x) * VEC; c < g.out_cols;
             c += int64_t{32} * VEC * gridDim.x)
            pad_copy_chunk<T, VEC>(row, orow, g, fill, c);
    }
}

}  // namespace detail

// Enqueues the copy on `stream`; `fill` is already a value of T.
template <class T>
void pad_copy(const T* in, T* out, const PadCopy& g, T fill, cudaStream_t stream) {
    constexpr int kVec = static_cast<int>(16 / sizeof(T));
    const int64_t total = g.planes * g.out_rows * g.out_cols;
    if (total == 0) return;
    const bool vector_store = reinterpret_cast<uintptr_t>(out) % 16 == 0;
    if (vector_store && (g.out_cols * static_cast<int64_t>(sizeof(T))) % 16 == 0) {
        const int64_t rows = g.planes * g.out_rows;
        constexpr int kRowsPerBlock = 8;
        const int64_t blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
        // A warp per row leaves most of the chip idle unless there are many
        // rows: each row is also split among blocks (a warp's 32 lanes x 16
        // bytes per span), up to about 48 warps per multiprocessor.
        const int64_t spans = (g.out_cols / kVec + 31) / 32;
        constexpr int64_t kTargetWarps = 132 * 48;
        const int64_t across = std::clamp<int64_t>((kTargetWarps + rows - 1) / rows, 1, std::max<int64_t>(spans, 1));
        detail::pad_copy_rows<T, kVec><<<dim3(static_cast<unsigned>(across),
                                              static_cast<unsigned>(blocks < 65535 ? blocks : 65535)),
                                         dim3(32, kRowsPerBlock), 0, stream>>>(in, out, g, rows, fill);
        return;
    }
    detail::pad_copy_kernel<T, kVec>
        <<<grid_for((total + kVec - 1) / kVec), kThreads, 0, stream>>>(in, out, g, fill, total, vector_store);
}

}  // namespace ipt::cuda
