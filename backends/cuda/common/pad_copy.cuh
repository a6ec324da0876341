// A copy of rows and columns of an image into another, each output element
// taken from the source element that padarray's rules pick, or a fill value:
// out(p, r, c) = A(p, src(r - top, rows), src(c - left, cols)), src being
// padarray_source of the method (common/ops/padarray.hpp), fill where it
// gives -1. padarray uses it with its padding; imcrop with a negative
// top/left (the crop's corner) and the constant method, whose indices then
// always fall inside A.
//
// Bandwidth-bound: each thread writes 16 bytes of an output row (one vector
// store when the row starts 16-byte aligned), reading them with one vector
// load when they lie in one source row at a 16-byte aligned address, and
// element by element otherwise.
#pragma once

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

// Grid: x over each output row in VEC-element chunks, y over the rows, z over
// the planes, so that a thread finds its source row once per row and never
// divides. Rows whose start is 16-byte aligned (VectorRows) are written with
// one vector store per thread.
template <class T, int VEC, bool VectorRows>
__global__ void pad_copy_kernel(const T* __restrict__ in, T* __restrict__ out, PadCopy g, T fill) {
    const int64_t c0 = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) * VEC;
    if (c0 >= g.out_cols) return;
    const bool has_source = g.rows > 0 && g.cols > 0;
    for (int64_t p = blockIdx.z; p < g.planes; p += gridDim.z)
        for (int64_t r = blockIdx.y; r < g.out_rows; r += gridDim.y) {
            const int64_t s = has_source ? ipt::frontend::padarray_source(g.method, r - g.top, g.rows) : -1;
            const T* row = s < 0 ? nullptr : in + (p * g.rows + s) * g.cols;
            T* dst = out + (p * g.out_rows + r) * g.out_cols + c0;
            const int64_t j0 = c0 - g.left;
            T v[VEC];
            if (row && c0 + VEC <= g.out_cols && j0 >= 0 && j0 + VEC <= g.cols &&
                reinterpret_cast<uintptr_t>(row + j0) % 16 == 0) {
                const uint4 u = __ldg(reinterpret_cast<const uint4*>(row + j0));
                memcpy(v, &u, sizeof u);
            } else {
#pragma unroll
                for (int e = 0; e < VEC; ++e) {
                    const int64_t j = row && c0 + e < g.out_cols
                                          ? ipt::frontend::padarray_source(g.method, j0 + e, g.cols)
                                          : -1;
                    v[e] = j >= 0 ? row[j] : fill;
                }
            }
            if (VectorRows && c0 + VEC <= g.out_cols) {
                uint4 u;
                memcpy(&u, v, sizeof u);
                *reinterpret_cast<uint4*>(dst) = u;
            } else {
                for (int e = 0; e < VEC && c0 + e < g.out_cols; ++e) dst[e] = v[e];
            }
        }
}

}  // namespace detail

// Enqueues the copy on `stream`; `fill` is already a value of T.
template <class T>
void pad_copy(const T* in, T* out, const PadCopy& g, T fill, cudaStream_t stream) {
    constexpr int kVec = static_cast<int>(16 / sizeof(T));
    constexpr int kWidth = 128;
    if (g.planes * g.out_rows * g.out_cols == 0) return;
    const bool vector_rows =
        reinterpret_cast<uintptr_t>(out) % 16 == 0 && (g.out_cols * static_cast<int64_t>(sizeof(T))) % 16 == 0;
    const int64_t chunks = (g.out_cols + kVec - 1) / kVec;
    const dim3 grid(static_cast<unsigned>((chunks + kWidth - 1) / kWidth),
                    static_cast<unsigned>(g.out_rows < 65535 ? g.out_rows : 65535),
                    static_cast<unsigned>(g.planes < 65535 ? g.planes : 65535));
    if (vector_rows)
        detail::pad_copy_kernel<T, kVec, true><<<grid, kWidth, 0, stream>>>(in, out, g, fill);
    else
        detail::pad_copy_kernel<T, kVec, false><<<grid, kWidth, 0, stream>>>(in, out, g, fill);
}

}  // namespace ipt::cuda
