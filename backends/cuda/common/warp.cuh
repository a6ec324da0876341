// SPDX-License-Identifier: Apache-2.0
// The inverse-mapping resampler of ipt.imrotate, ipt.imtranslate and
// ipt.imwarp on CUDA: one thread per output element, the rule of
// common/ops/warp.hpp in the CPU's order (--fmad=false: every product and sum
// rounds as on the host), so integer results match the CPU bit for bit.
// The grid is (columns, rows, planes), so no thread divides, and each
// interpolation and mapping is its own kernel, so the nearest and bilinear
// kernels don't carry the bicubic one's registers.
#pragma once

#include <type_traits>

#include "common/context.hpp"
#include "common/device.cuh"
#include "common/ops/warp.hpp"

namespace ipt::cuda {
namespace warp_detail {

struct WarpGeometry {
    int64_t rows, cols, row0, col0, win_rows, win_cols, out_rows, out_cols, channels;
    double M[9];
    double fill[3];
    bool sharp;  // the plan's edge rule (common/ops/warp.hpp)
};

using ipt::frontend::warp_cubic;
using ipt::frontend::warp_round;

template <class T>
__device__ __forceinline__ double warp_pixel(const T* plane, const WarpGeometry& g, int64_t y, int64_t x) {
    return to_double(plane[(g.row0 + y - 1) * g.cols + (g.col0 + x - 1)]);
}

template <int Interp, class T>
__device__ __forceinline__ double warp_at(const T* plane, const WarpGeometry& g, double fill, int64_t y, int64_t x) {
    if (y >= 1 && y <= g.win_rows && x >= 1 && x <= g.win_cols) return warp_pixel(plane, g, y, x);
    if (!g.sharp) return fill;
    // Rows extended first, then the columns of the extended rows.
    using ipt::frontend::warp_sharp_tap;
    return warp_sharp_tap(x, g.win_cols, Interp == 2, [&](int64_t c) {
        return warp_sharp_tap(y, g.win_rows, Interp == 2, [&](int64_t r) { return warp_pixel(plane, g, r, c); });
    });
}

template <class T, int Interp, bool Projective>
__global__ void warp_kernel(const T* __restrict__ a, T* __restrict__ b, WarpGeometry g) {
    const int64_t j = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (j >= g.out_cols) return;
    for (int64_t ch = blockIdx.z; ch < g.channels; ch += gridDim.z)
    for (int64_t i = blockIdx.y; i < g.out_rows; i += gridDim.y) {
        const int64_t e = (ch * g.out_rows + i) * g.out_cols + j;
        const T* plane = a + ch * g.rows * g.cols;
        const double fill = g.fill[ch < 3 ? ch : 2];
        const double jd = static_cast<double>(j + 1), id = static_cast<double>(i + 1);
        double x = (jd * g.M[0] + id * g.M[3]) + g.M[6];
        double y = (jd * g.M[1] + id * g.M[4]) + g.M[7];
        if constexpr (Projective) {
            const double h = (jd * g.M[2] + id * g.M[5]) + g.M[8];
            x = x / h;
            y = y / h;
        }
        const double pad = g.sharp ? 0 : ipt::frontend::kWarpPad;
        const double wc = static_cast<double>(g.win_cols), wr = static_cast<double>(g.win_rows);
        double v = fill;
        if (x >= 1 - pad && x <= wc + pad && y >= 1 - pad && y <= wr + pad) {
            if constexpr (Interp == 0) {
                v = warp_at<Interp>(plane, g, fill, static_cast<int64_t>(warp_round(y)), static_cast<int64_t>(warp_round(x)));
            } else {
                const double xf = floor(x), yf = floor(y);
                const double fx = x - xf, fy = y - yf;
                const int64_t x0 = static_cast<int64_t>(xf), y0 = static_cast<int64_t>(yf);
                if constexpr (Interp == 1) {
                    const double top = warp_at<Interp>(plane, g, fill, y0, x0) * (1 - fx) + warp_at<Interp>(plane, g, fill, y0, x0 + 1) * fx;
                    const double bottom =
                        warp_at<Interp>(plane, g, fill, y0 + 1, x0) * (1 - fx) + warp_at<Interp>(plane, g, fill, y0 + 1, x0 + 1) * fx;
                    v = top * (1 - fy) + bottom * fy;
                } else {
                    double wx[4], wy[4];
#pragma unroll
                    for (int k = 0; k < 4; ++k) {
                        wx[k] = warp_cubic(fx - static_cast<double>(k - 1));
                        wy[k] = warp_cubic(fy - static_cast<double>(k - 1));
                    }
                    double acc = 0;
#pragma unroll
                    for (int r = 0; r < 4; ++r) {
                        const int64_t yy = y0 - 1 + r;
                        double row = wx[0] * warp_at<Interp>(plane, g, fill, yy, x0 - 1);
                        row = row + wx[1] * warp_at<Interp>(plane, g, fill, yy, x0);
                        row = row + wx[2] * warp_at<Interp>(plane, g, fill, yy, x0 + 1);
                        row = row + wx[3] * warp_at<Interp>(plane, g, fill, yy, x0 + 2);
                        acc = acc + wy[r] * row;
                    }
                    v = acc;
                }
            }
        }
        if constexpr (std::is_same_v<T, bool>) b[e] = saturate_round<uint8_t>(v) != 0;
        else b[e] = saturate_round<T>(v);
    }
}

}  // namespace warp_detail

// B (allocated by the caller, class and size of the plan) from the plan's A.
inline void warp(const Device& dev, const ipt::frontend::WarpPlan& p, const ipt_tensor* B, const char* op) {
    warp_detail::WarpGeometry g{};
    g.rows = p.rows;
    g.cols = p.cols;
    g.row0 = p.row0;
    g.col0 = p.col0;
    g.win_rows = p.win_rows;
    g.win_cols = p.win_cols;
    g.out_rows = p.out_rows;
    g.out_cols = p.out_cols;
    g.channels = p.channels;
    for (int k = 0; k < 9; ++k) g.M[k] = p.M[k];
    for (int k = 0; k < 3; ++k) g.fill[k] = p.fill[k];
    g.sharp = !p.smooth_edges;
    if (p.out_rows * p.out_cols * p.channels == 0) return;
    constexpr int kWidth = 128;
    const dim3 grid(static_cast<unsigned>((g.out_cols + kWidth - 1) / kWidth),
                    static_cast<unsigned>(g.out_rows < 65535 ? g.out_rows : 65535),
                    static_cast<unsigned>(g.channels < 65535 ? g.channels : 65535));
    const int interp = static_cast<int>(p.interp);
    visit_dtype(p.dtype, [&](auto tag) {
        using T = decltype(tag);
        auto launch = [&](auto kernel) {
            kernel<<<grid, kWidth, 0, dev.stream>>>(dptr<const T>(p.A), dptr<T>(B), g);
            check_launch(op);
        };
        using namespace warp_detail;
        if (p.projective) {
            if (interp == 0) launch(warp_kernel<T, 0, true>);
            else if (interp == 1) launch(warp_kernel<T, 1, true>);
            else launch(warp_kernel<T, 2, true>);
        } else {
            if (interp == 0) launch(warp_kernel<T, 0, false>);
            else if (interp == 1) launch(warp_kernel<T, 1, false>);
            else launch(warp_kernel<T, 2, false>);
        }
    });
}

}  // namespace ipt::cuda
