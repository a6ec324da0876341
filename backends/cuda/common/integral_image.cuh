// Upright integral image on CUDA, shared by integralImage and imboxfilt: the
// table of backends/cpu/common/integral_image.hpp with the same additions in
// the same order, cumsum(cumsum(P, 1), 2) of the padded plane P.
//
// Column pass: a thread per column walks the rows in order (a warp touches
// 32 neighbouring values of one row per step). Row pass: a warp owns 32
// rows and walks them in tiles of 32 columns staged in shared memory, so the
// loads and stores stay contiguous while each lane carries its own row's
// running sum in order.
#pragma once

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

template <class T>
__global__ void integral_columns(const T* __restrict__ a, double* __restrict__ J, IntegralGeometry g) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t stride = g.pn + 1;
    if (c > g.pn) return;
    if (c == 0) {
        for (int64_t r = 0; r <= g.pm; ++r) J[r * stride] = 0;
        return;
    }
    J[c] = 0;
    const int64_t ac = border_index(g.border, c - 1 - g.left, g.n);
    double acc = 0;
    for (int64_t r = 0; r < g.pm; ++r) {
        const int64_t ar = border_index(g.border, r - g.top, g.m);
        const double v = (ar < 0 || ac < 0) ? g.pad : to_double(a[ar * g.n + ac]);
        acc = __dadd_rn(acc, v);
        J[(r + 1) * stride + c] = acc;
    }
}

constexpr int kIntegralTile = 32, kIntegralWarps = 4;

// (A template, so that every op file including this header may instantiate it.)
template <int Warps>
__global__ void __launch_bounds__(kIntegralTile* Warps)
integral_rows(double* __restrict__ J, int64_t rows, int64_t cols) {
    __shared__ double tile[Warps][kIntegralTile][kIntegralTile + 1];
    const int lane = threadIdx.x, w = threadIdx.y;
    const int64_t r0 = 1 + (static_cast<int64_t>(blockIdx.x) * Warps + w) * kIntegralTile;
    double acc = 0;
    for (int64_t c0 = 1; c0 < cols; c0 += kIntegralTile) {
        const int64_t tw = cols - c0 < kIntegralTile ? cols - c0 : kIntegralTile;
        for (int k = 0; k < kIntegralTile; ++k)
            if (r0 + k <= rows && lane < tw) tile[w][k][lane] = J[(r0 + k) * cols + c0 + lane];
        __syncwarp();
        if (r0 + lane <= rows)
            for (int k = 0; k < tw; ++k) {
                acc = __dadd_rn(acc, tile[w][lane][k]);
                tile[w][lane][k] = acc;
            }
        __syncwarp();
        for (int k = 0; k < kIntegralTile; ++k)
            if (r0 + k <= rows && lane < tw) J[(r0 + k) * cols + c0 + lane] = tile[w][k][lane];
        __syncwarp();
    }
}

// Enqueues the table of one plane a (class T) into J.
template <class T>
void integral_image_async(const T* a, double* J, const IntegralGeometry& g, cudaStream_t s, const char* what) {
    integral_columns<T><<<grid_for(g.pn + 1, kThreads, INT32_MAX), kThreads, 0, s>>>(a, J, g);
    check_launch(what);
    if (g.pm == 0 || g.pn == 0) return;
    const int64_t per_block = int64_t{kIntegralTile} * kIntegralWarps;
    const unsigned blocks = static_cast<unsigned>((g.pm + per_block - 1) / per_block);
    integral_rows<kIntegralWarps><<<blocks, dim3(kIntegralTile, kIntegralWarps), 0, s>>>(J, g.pm, g.pn + 1);
    check_launch(what);
}

}  // namespace ipt::cuda
