// SPDX-License-Identifier: Apache-2.0
// ipt.imboxfilt (common/ops/imboxfilt.hpp), per plane.
//
// 8- and 16-bit integers with windows of at most kBoxDirect x kBoxDirect:
// each window sum S is an integer (|S| < 2^31), which the integral route's
// corners give exactly too, so box_direct sums the window in int32 straight
// from a shared-memory tile of the padded plane (row sums of the tile with
// its halo, then column sums of those) and forms S * f as box_value does.
// Everything else: the padded plane's integral image (common/integral_image.cuh)
// and each output from the four corners of its window (box_value, the CPU
// reference's order); either way converted once to A's class.
#include <type_traits>

#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/integral_image.cuh"
#include "common/op_registry.hpp"
#include "common/ops/imboxfilt.hpp"

namespace ipt::cuda {
namespace {

using ipt::frontend::ImboxfiltPlan;

template <class T>
__global__ void box_kernel(const double* __restrict__ J, T* __restrict__ b, int64_t m, int64_t n, int64_t fr,
                           int64_t fc, int64_t stride, double norm) {
    IPT_GRID_STRIDE(i, m * n) {
        const int64_t r = i / n, c = i - r * n;
        b[i] = saturate_round<T>(ipt::frontend::box_value(J, stride, r, c, fr, fc, norm));
    }
}

constexpr int kBoxRows = 32, kBoxCols = 64, kBoxDirect = 17;
constexpr int kBoxHaloRows = kBoxRows + kBoxDirect - 1, kBoxHaloCols = kBoxCols + kBoxDirect - 1;

// One kBoxRows x kBoxCols tile of B per block of kBoxCols x 4 threads.
template <class T>
__global__ void __launch_bounds__(kBoxCols * 4)
box_direct(const T* __restrict__ a, T* __restrict__ b, int64_t m, int64_t n, Border border, T pad, int fr, int fc,
           int64_t top, int64_t left, double norm) {
    __shared__ int32_t tile[kBoxHaloRows * kBoxHaloCols];
    __shared__ int32_t rows_sum[kBoxHaloRows * kBoxCols];
    const int th = kBoxRows + fr - 1, tw = kBoxCols + fc - 1;
    const int threads = kBoxCols * 4, self = threadIdx.y * kBoxCols + threadIdx.x;
    const int64_t c0 = static_cast<int64_t>(blockIdx.x) * kBoxCols;
    for (int64_t r0 = static_cast<int64_t>(blockIdx.y) * kBoxRows; r0 < m; r0 += int64_t{gridDim.y} * kBoxRows) {
        stage_tile<0>(a, m, n, border, pad, r0 - top, c0 - left, th, tw, tile);
        __syncthreads();
        for (int idx = self; idx < th * kBoxCols; idx += threads) {
            const int y = idx / kBoxCols, x = idx - y * kBoxCols;
            const int32_t* src = tile + y * tw + x;
            int32_t s = 0;
            for (int j = 0; j < fc; ++j) s += src[j];
            rows_sum[idx] = s;
        }
        __syncthreads();
        for (int idx = self; idx < kBoxRows * kBoxCols; idx += threads) {
            const int y = idx / kBoxCols, x = idx - y * kBoxCols;
            const int64_t r = r0 + y, c = c0 + x;
            if (r >= m || c >= n) continue;
            const int32_t* src = rows_sum + idx;
            int32_t s = 0;
            for (int i = 0; i < fr; ++i) s += src[i * kBoxCols];
            b[r * n + c] = saturate_round<T>(__dmul_rn(static_cast<double>(s), norm));
        }
        __syncthreads();  // before the next band overwrites the tile
    }
}

void run_imboxfilt(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ImboxfiltPlan p = ipt::frontend::plan_imboxfilt(args);
    const ipt_tensor* B = args.output("B", p.out_class, p.rows, p.cols, p.channels);
    if (p.rows * p.cols * p.channels == 0) return;
    const Border border = ipt::frontend::border_as<Border>(p.boundary);
    visit_dtype(p.out_class, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool> && sizeof(T) <= 2) {
            if (p.fr <= kBoxDirect && p.fc <= kBoxDirect) {
                const int64_t row_tiles = (p.rows + kBoxRows - 1) / kBoxRows;
                const dim3 grid(static_cast<unsigned>((p.cols + kBoxCols - 1) / kBoxCols),
                                static_cast<unsigned>(row_tiles < 65535 ? row_tiles : 65535));
                for (int64_t ch = 0; ch < p.channels; ++ch) {
                    box_direct<T><<<grid, dim3(kBoxCols, 4), 0, dev.stream>>>(
                        dptr<const T>(p.A) + ch * p.rows * p.cols, dptr<T>(B) + ch * p.rows * p.cols, p.rows, p.cols,
                        border, static_cast<T>(p.pad_value), static_cast<int>(p.fr), static_cast<int>(p.fc), p.top,
                        p.left, p.norm);
                    check_launch("ipt.imboxfilt");
                }
                return;
            }
        }
        if constexpr (!std::is_same_v<T, bool>) {
            const int64_t stride = p.padded_cols + 1;
            DeviceArray<double> J(static_cast<size_t>((p.padded_rows + 1) * stride), dev.stream);
            for (int64_t ch = 0; ch < p.channels; ++ch) {
                IntegralGeometry g;
                g.m = p.rows;
                g.n = p.cols;
                g.border = border;
                g.pad = p.pad_value;
                g.top = p.top;
                g.left = p.left;
                g.pm = p.padded_rows;
                g.pn = p.padded_cols;
                integral_image_async(dptr<const T>(p.A) + ch * p.rows * p.cols, J.get(), g, dev.stream,
                                     "ipt.imboxfilt");
                box_kernel<T><<<grid_for(p.rows * p.cols), kThreads, 0, dev.stream>>>(
                    J.get(), dptr<T>(B) + ch * p.rows * p.cols, p.rows, p.cols, p.fr, p.fc, stride, p.norm);
                check_launch("ipt.imboxfilt");
            }
        }
    });
}

IPT_CUDA_OP("ipt.imboxfilt", "", 100, run_imboxfilt)

}  // namespace
}  // namespace ipt::cuda
