// SPDX-License-Identifier: Apache-2.0
// The inverse-mapping resampler of ipt.imrotate, ipt.imtranslate and
// ipt.imwarp on CUDA: a thread per output column and eight rows, the rule of
// common/ops/warp.hpp in the CPU's order (--fmad=false: every product and sum
// rounds as on the host), so integer results match the CPU bit for bit.
// The grid is (columns, rows, planes), so no thread divides, and each
// interpolation and mapping is its own kernel, so the nearest and bilinear
// kernels don't carry the bicubic one's registers.
#pragma once

#include <limits>
#include <type_traits>

#include "common/context.hpp"
#include "common/device.cuh"
#include "common/ops/warp.hpp"

namespace ipt::cuda {
namespace warp_detail {

// Where A is sampled: its row length, the window and the edge rule. Every
// dimension is below 2^30 (warp() declines larger images), so coordinates
// and their sums stay in int32 and only element offsets are 64-bit.
struct WarpWindow {
    int32_t cols, row0, col0, win_rows, win_cols;
    bool sharp;  // the plan's edge rule (common/ops/warp.hpp)
};

// Output rows a thread of warp_kernel takes (the grid is that much shorter).
constexpr int kWarpRowsPerThread = 8;

struct WarpGeometry {
    WarpWindow w;
    int32_t rows, out_rows, out_cols, channels;
    double M[9];
    double fill[3];
};

using ipt::frontend::warp_cubic;
using ipt::frontend::warp_round;

template <class T>
__device__ __forceinline__ double warp_pixel(const T* plane, const WarpWindow& w, int64_t y, int64_t x) {
    return to_double(plane[(w.row0 + y - 1) * w.cols + (w.col0 + x - 1)]);
}

// Tap (y, x) by the edge rule, anywhere.
template <int Interp, class T>
__device__ __forceinline__ double warp_at(const T* plane, const WarpWindow& w, double fill, int64_t y, int64_t x) {
    if (y >= 1 && y <= w.win_rows && x >= 1 && x <= w.win_cols) return warp_pixel(plane, w, y, x);
    if (!w.sharp) return fill;
    // Rows extended first, then the columns of the extended rows.
    using ipt::frontend::warp_sharp_tap;
    return warp_sharp_tap(x, w.win_cols, Interp == 2, [&](int64_t c) {
        return warp_sharp_tap(y, w.win_rows, Interp == 2, [&](int64_t r) { return warp_pixel(plane, w, r, c); });
    });
}

// a * b as the 64-bit product of two 32-bit integers (one IMAD.WIDE).
__device__ __forceinline__ int64_t wide_product(int32_t a, int32_t b) {
    int64_t r;
    asm("mul.wide.s32 %0, %1, %2;" : "=l"(r) : "r"(a), "r"(b));
    return r;
}

// a * b in the offset type: 32-bit where every offset of A and B fits (one
// multiply, and loads from one base register with immediate offsets), 64-bit
// otherwise.
template <class Index>
__device__ __forceinline__ Index offset_product(int32_t a, int32_t b) {
    if constexpr (sizeof(Index) == 4) return a * b;
    else return wide_product(a, b);
}

// The interpolation of the n x n taps tap(r, c) (n = 1, 2, 4) at fractions
// fx, fy, in the order common/ops/warp.hpp states.
template <int Interp, class Tap>
__device__ __forceinline__ double warp_combine(double fx, double fy, const Tap& tap) {
    if constexpr (Interp == 0) {
        return tap(0, 0);
    } else if constexpr (Interp == 1) {
        const double top = tap(0, 0) * (1 - fx) + tap(0, 1) * fx;
        const double bottom = tap(1, 0) * (1 - fx) + tap(1, 1) * fx;
        return top * (1 - fy) + bottom * fy;
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
            double row = wx[0] * tap(r, 0);
            row = row + wx[1] * tap(r, 1);
            row = row + wx[2] * tap(r, 2);
            row = row + wx[3] * tap(r, 3);
            acc = acc + wy[r] * row;
        }
        return acc;
    }
}

// A sample whose taps from (y0, x0) leave the window, through the edge rule;
// out of line, so that the interior's sampling keeps few registers.
template <int Interp, class T>
__device__ __noinline__ double warp_edge_sample(const T* plane, WarpWindow w, double fill, int32_t y0, int32_t x0,
                                                double fx, double fy) {
    return warp_combine<Interp>(fx, fy, [&](int r, int c) { return warp_at<Interp>(plane, w, fill, y0 + r, x0 + c); });
}

// The sample at A's coordinates (x, y), which passed the window test (so
// they are far inside int32); corner points at the window's pixel (1, 1).
template <int Interp, class Index, class T>
__device__ __forceinline__ double warp_sample(const T* plane, const T* corner, const WarpWindow& w, double fill, double x,
                                              double y) {
    constexpr int n = Interp == 0 ? 1 : Interp == 1 ? 2 : 4;  // taps per line
    double fx = 0, fy = 0;
    int32_t x0, y0;  // the first tap
    if constexpr (Interp == 0) {
        x0 = static_cast<int32_t>(warp_round(x));
        y0 = static_cast<int32_t>(warp_round(y));
    } else {
        double xf, yf;
        x0 = floor_to_int32(x, &xf) - (n == 4);
        y0 = floor_to_int32(y, &yf) - (n == 4);
        fx = x - xf;
        fy = y - yf;
    }
    if (x0 >= 1 && x0 + n - 1 <= w.win_cols && y0 >= 1 && y0 + n - 1 <= w.win_rows) {
        const Index first = offset_product<Index>(y0 - 1, w.cols) + (x0 - 1);
        return warp_combine<Interp>(fx, fy, [&](int r, int c) { return to_double(corner[first + offset_product<Index>(r, w.cols) + c]); });
    }
    return warp_edge_sample<Interp>(plane, w, fill, y0, x0, fx, fy);
}

// round(v) half away from zero for v in [0, 2^31), not NaN: floor(v)
// (floor_to_int32, no conversion instruction), v less it exact (Sterbenz),
// then one more where that is at least a half; fewer double instructions than
// saturate_round. The nearest and bilinear samples of unsigned classes
// (convex combinations of values and a fill of the class) always lie there.
__device__ __forceinline__ uint32_t warp_round_nonnegative(double v) {
    double floor_v;
    const int32_t n = floor_to_int32(v, &floor_v);
    return static_cast<uint32_t>(n) + (v - floor_v >= 0.5 ? 1u : 0u);
}

// Block (w, 256 / w): each warp covers w x (32 / w) outputs (warp_patch_width)
// at a time, and a thread kWarpRowsPerThread rows of outputs, a grid's height
// apart, so that its setup (parameters, the column's share of the mapping,
// the plane's corner) is paid once for several outputs; one plane per
// blockIdx.z; Index: the type of element offsets.
template <class T, int Interp, bool Projective, class Index>
__global__ void __launch_bounds__(256, Interp == 2 ? 3 : 4) warp_kernel(const T* __restrict__ a, T* __restrict__ b, WarpGeometry g) {
    const int32_t j = static_cast<int32_t>(blockIdx.x * blockDim.x + threadIdx.x);
    if (j >= g.out_cols) return;
    const int32_t ch = static_cast<int32_t>(blockIdx.z);
    const T* plane = a + static_cast<int64_t>(ch) * g.rows * g.w.cols;
    const T* corner = plane + wide_product(g.w.row0, g.w.cols) + g.w.col0;  // row0, col0: 0-based
    const int32_t i0 = static_cast<int32_t>(blockIdx.y * blockDim.y + threadIdx.y);
    const int32_t row_step = static_cast<int32_t>(gridDim.y * blockDim.y);
    // The output walks down the column by row_step rows a step.
    T* out = b + static_cast<int64_t>(ch) * g.out_rows * g.out_cols + j + wide_product(i0, g.out_cols);
    const int64_t out_step = wide_product(row_step, g.out_cols);
    const double fill = g.fill[ch < 3 ? ch : 2];
    const double jd = to_double(j + 1);
    const double pad = g.w.sharp ? 0 : ipt::frontend::kWarpPad;
    const double wc = g.w.win_cols, wr = g.w.win_rows;
    for (int32_t i = i0; i < g.out_rows; i += row_step, out += out_step) {
        const double id = to_double(i + 1);
        double x = (jd * g.M[0] + id * g.M[3]) + g.M[6];
        double y = (jd * g.M[1] + id * g.M[4]) + g.M[7];
        if constexpr (Projective) {
            const double h = (jd * g.M[2] + id * g.M[5]) + g.M[8];
            x = x / h;
            y = y / h;
        }
        double v = fill;
        if (x >= 1 - pad && x <= wc + pad && y >= 1 - pad && y <= wr + pad)
            v = warp_sample<Interp, Index>(plane, corner, g.w, fill, x, y);
        if constexpr (std::is_same_v<T, bool>) *out = saturate_round<uint8_t>(v) != 0;
        else if constexpr (std::is_unsigned_v<T> && sizeof(T) <= 2 && Interp <= 1)
            *out = static_cast<T>(min(warp_round_nonnegative(v), uint32_t{std::numeric_limits<T>::max()}));
        else *out = saturate_round<T>(v);
    }
}

}  // namespace warp_detail

// B (allocated by the caller, class and size of the plan) from the plan's A.
inline void warp(const Device& dev, const ipt::frontend::WarpPlan& p, const ipt_tensor* B, const char* op) {
    constexpr int64_t kLimit = int64_t(1) << 30;
    for (int64_t d : {p.rows, p.cols, p.out_rows, p.out_cols})
        if (d >= kLimit) ipt::plugin::unsupported(std::string(op) + ": images of 2^30 rows or columns");
    if (p.channels > 65535) ipt::plugin::unsupported(std::string(op) + ": images of more than 65535 planes");
    warp_detail::WarpGeometry g{};
    g.w = {static_cast<int32_t>(p.cols), static_cast<int32_t>(p.row0), static_cast<int32_t>(p.col0),
           static_cast<int32_t>(p.win_rows), static_cast<int32_t>(p.win_cols), !p.smooth_edges};
    g.rows = static_cast<int32_t>(p.rows);
    g.out_rows = static_cast<int32_t>(p.out_rows);
    g.out_cols = static_cast<int32_t>(p.out_cols);
    g.channels = static_cast<int32_t>(p.channels);
    for (int k = 0; k < 9; ++k) g.M[k] = p.M[k];
    for (int k = 0; k < 3; ++k) g.fill[k] = p.fill[k];
    if (p.out_rows * p.out_cols * p.channels == 0) return;
    const int width = ipt::frontend::warp_patch_width(p, 32);
    const dim3 block(static_cast<unsigned>(width), static_cast<unsigned>(256 / width));
    const int64_t rows_per_block = static_cast<int64_t>(block.y) * warp_detail::kWarpRowsPerThread;
    const dim3 grid(static_cast<unsigned>((g.out_cols + width - 1) / width),
                    static_cast<unsigned>(std::min<int64_t>((g.out_rows + rows_per_block - 1) / rows_per_block, 65535)),
                    static_cast<unsigned>(g.channels));
    const int interp = static_cast<int>(p.interp);
    visit_dtype(p.dtype, [&](auto tag) {
        using T = decltype(tag);
        auto launch = [&](auto kernel) {
            kernel<<<grid, block, 0, dev.stream>>>(dptr<const T>(p.A), dptr<T>(B), g);
            check_launch(op);
        };
        using namespace warp_detail;
        auto by_index = [&](auto index) {
            using Index = decltype(index);
            if (p.projective) {
                if (interp == 0) launch(warp_kernel<T, 0, true, Index>);
                else if (interp == 1) launch(warp_kernel<T, 1, true, Index>);
                else launch(warp_kernel<T, 2, true, Index>);
            } else {
                if (interp == 0) launch(warp_kernel<T, 0, false, Index>);
                else if (interp == 1) launch(warp_kernel<T, 1, false, Index>);
                else launch(warp_kernel<T, 2, false, Index>);
            }
        };
        // One plane's offsets in 32 bits when both planes have fewer than 2^31 elements.
        if (p.rows * p.cols < INT32_MAX && p.out_rows * p.out_cols < INT32_MAX) by_index(int32_t{});
        else by_index(int64_t{});
    });
}

}  // namespace ipt::cuda
