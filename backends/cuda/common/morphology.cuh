// Grey-scale and binary morphology shared by imdilate and imerode
// (MATLAB_SEMANTICS.md, pitfall 6):
//   dilate(p) = max_{b in SE} A(p - b) (+ h(b)),   erode(p) = min_{b in SE} A(p + b) (- h(b)),
// pixels outside the image never win (they hold the identity of max / min).
//
// Flat full rectangles (square, rectangle, horizontal and vertical lines) run
// as two 1-D passes, each output a window extreme over a row or column segment
// staged in shared memory. Any other neighbourhood, and non-flat elements,
// run directly: the list of offsets and heights in shared memory and an input
// tile with its halo, one output per thread.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/device.cuh"

namespace ipt::cuda {

template <class T, bool Dilate>
__device__ inline T morph_identity() {
    return Dilate ? lowest_value<T>() : highest_value<T>();
}
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
                           int hi) {
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
            seg[i] = (c >= 0 && c < cols) ? a[r * cols + c] : morph_identity<T, Dilate>();
        }
        __syncthreads();
        const int64_t c = c0 + threadIdx.x;
        if (c < cols) {
            T acc = morph_identity<T, Dilate>();
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
                (c < cols && r >= 0 && r < rows) ? a[r * cols + c] : morph_identity<T, Dilate>();
        }
        __syncthreads();
        if (c >= cols) return;
        for (int k0 = ty; k0 < 32; k0 += 8) {
            const int64_t r = r0 + k0;
            if (r >= rows) break;
            T acc = morph_identity<T, Dilate>();
            for (int k = 0; k <= span; ++k) acc = morph_pick<T, Dilate>(acc, seg[(k0 + k) * 32 + tx]);
            out[r * cols + c] = acc;
        }
    }
}

// Direct: read offsets (dy, dx) with heights; flat when heights is null.
struct SEList {
    const int* dy = nullptr;
    const int* dx = nullptr;
    const double* h = nullptr;
    int count = 0;
    int min_dy = 0, max_dy = 0, min_dx = 0, max_dx = 0;
};

template <class T, bool Dilate, bool Flat>
__global__ void morph_direct(const T* __restrict__ a, T* __restrict__ out, int64_t rows, int64_t cols, SEList se,
                             bool tiled) {
    extern __shared__ unsigned char raw[];
    const int tx = threadIdx.x, ty = threadIdx.y;  // 32 x 8, 32 x 32 outputs
    const int tid = ty * 32 + tx;
    const int th = 32 + se.max_dy - se.min_dy, tw = 32 + se.max_dx - se.min_dx;
    int* sy = reinterpret_cast<int*>(raw);
    int* sx = sy + se.count;
    double* sh = reinterpret_cast<double*>(sx + se.count);  // 2*count ints: 8-byte aligned
    T* tile = reinterpret_cast<T*>(sh + (Flat ? 0 : se.count));
    for (int i = tid; i < se.count; i += 256) {
        sy[i] = se.dy[i];
        sx[i] = se.dx[i];
        if constexpr (!Flat) sh[i] = se.h[i];
    }
    const int64_t r0 = static_cast<int64_t>(blockIdx.y) * 32, c0 = static_cast<int64_t>(blockIdx.x) * 32;
    if (tiled) {
        for (int i = tid; i < th * tw; i += 256) {
            const int64_t r = r0 + se.min_dy + i / tw, c = c0 + se.min_dx + i % tw;
            tile[i] = (r >= 0 && r < rows && c >= 0 && c < cols) ? a[r * cols + c] : morph_identity<T, Dilate>();
        }
    }
    __syncthreads();
    const int64_t c = c0 + tx;
    for (int k0 = ty; k0 < 32; k0 += 8) {
        const int64_t r = r0 + k0;
        if (r >= rows || c >= cols) continue;
        if constexpr (Flat) {
            T acc = morph_identity<T, Dilate>();
            for (int k = 0; k < se.count; ++k) {
                T v;
                if (tiled) {
                    v = tile[(k0 + sy[k] - se.min_dy) * tw + (tx + sx[k] - se.min_dx)];
                } else {
                    const int64_t rr = r + sy[k], cc = c + sx[k];
                    v = (rr >= 0 && rr < rows && cc >= 0 && cc < cols) ? a[rr * cols + cc]
                                                                         : morph_identity<T, Dilate>();
                }
                acc = morph_pick<T, Dilate>(acc, v);
            }
            out[r * cols + c] = acc;
        } else {
            // Non-flat: in double; pixels outside the image never win.
            double acc = Dilate ? -static_cast<double>(INFINITY) : static_cast<double>(INFINITY);
            for (int k = 0; k < se.count; ++k) {
                const int64_t rr = r + sy[k], cc = c + sx[k];
                if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) continue;
                const double v = to_double(a[rr * cols + cc]);
                if constexpr (Dilate) {
                    const double t = v + sh[k];
                    acc = (acc < t) ? t : acc;
                } else {
                    const double t = v - sh[k];
                    acc = (t < acc) ? t : acc;
                }
            }
            out[r * cols + c] = saturate_round<T>(acc);
        }
    }
}

template <bool Dilate>
void run_morphology(const ipt::plugin::KernelArgs& args) {
    const char* op = Dilate ? "ipt.imdilate" : "ipt.imerode";
    const Device& dev = device_of(args);
    const ipt_tensor* a = args.image("A");
    const ipt_tensor* nh = args.image("nhood");
    const ipt_tensor* hts = args.image("heights");
    if (hts && (hts->dtype != IPT_DOUBLE || hts->rows != nh->rows || hts->cols != nh->cols))
        ipt::plugin::invalid(std::string(op) + ": parameter 'heights' must be a double array of the size of nhood");
    // IPT_P_HOST: nhood and heights are host arrays.
    const auto* mask = static_cast<const uint8_t*>(nh->data);
    const double* heights = hts ? static_cast<const double*>(hts->data) : nullptr;
    // Heights count only where the neighbourhood is set; all zero is flat (as the reference).
    if (heights) {
        bool flat_se = true;
        for (int64_t i = 0; i < nh->rows * nh->cols; ++i) {
            if (!mask[i]) continue;
            if (std::isnan(heights[i]))
                ipt::plugin::invalid(std::string(op) + ": parameter 'heights' must not contain NaN");
            if (heights[i] != 0) flat_se = false;
        }
        if (!flat_se && a->dtype == IPT_LOGICAL)
            ipt::plugin::invalid(std::string(op) + ": parameter 'heights' must be zero for a logical image "
                                                   "(binary morphology needs a flat structuring element)");
        if (flat_se) heights = nullptr;
    }
    const int64_t oy = kernel_origin(nh->rows), ox = kernel_origin(nh->cols);
    std::vector<int> dy, dx;
    std::vector<double> hv;
    bool full = true;
    for (int64_t i = 0; i < nh->rows; ++i)
        for (int64_t j = 0; j < nh->cols; ++j) {
            if (!mask[i * nh->cols + j]) {
                full = false;
                continue;
            }
            // Dilation reads A(p - b), erosion A(p + b).
            const int sgn = Dilate ? -1 : 1;
            dy.push_back(static_cast<int>(sgn * (i - oy)));
            dx.push_back(static_cast<int>(sgn * (j - ox)));
            if (heights) hv.push_back(heights[i * nh->cols + j]);
        }
    if (dy.empty())
        ipt::plugin::unsupported(std::string(op) + ": an empty neighbourhood is left to the reference");
    const ipt_tensor* b = args.output("B", a->dtype, a->rows, a->cols, 1);
    const int64_t rows = a->rows, cols = a->cols;
    if (rows == 0 || cols == 0) return;
    cudaStream_t s = dev.stream;
    visit_dtype(a->dtype, [&](auto tag) {
        using T = decltype(tag);
        const T* src = dptr<const T>(a);
        T* dst = dptr<T>(b);
        if (full && !heights) {
            // Rectangle: window of columns then of rows (read offsets lo..hi).
            const int lo_c = *std::min_element(dx.begin(), dx.end()), hi_c = *std::max_element(dx.begin(), dx.end());
            const int lo_r = *std::min_element(dy.begin(), dy.end()), hi_r = *std::max_element(dy.begin(), dy.end());
            DeviceArray<T> tmp(static_cast<size_t>(rows) * cols, s);
            const T* stage = src;
            T* target = (hi_r > lo_r) ? tmp.get() : dst;
            if (hi_c > lo_c || hi_r == lo_r) {
                dim3 grid(static_cast<unsigned>((cols + kLineThreads - 1) / kLineThreads), static_cast<unsigned>(rows));
                morph_line<T, Dilate, true><<<grid, kLineThreads, sizeof(T) * (kLineThreads + hi_c - lo_c), s>>>(
                    stage, target, rows, cols, lo_c, hi_c);
                check_launch(op);
                stage = target;
            }
            if (hi_r > lo_r) {
                dim3 grid(static_cast<unsigned>((cols + 31) / 32), static_cast<unsigned>((rows + 31) / 32));
                morph_line<T, Dilate, false><<<grid, 256, sizeof(T) * 32 * (32 + hi_r - lo_r), s>>>(
                    stage, dst, rows, cols, lo_r, hi_r);
                check_launch(op);
            }
            return;
        }
        SEList se;
        se.count = static_cast<int>(dy.size());
        se.min_dy = *std::min_element(dy.begin(), dy.end());
        se.max_dy = *std::max_element(dy.begin(), dy.end());
        se.min_dx = *std::min_element(dx.begin(), dx.end());
        se.max_dx = *std::max_element(dx.begin(), dx.end());
        DeviceArray<int> ddy = to_device(dy, s), ddx = to_device(dx, s);
        DeviceArray<double> dh = heights ? to_device(hv, s) : DeviceArray<double>();
        se.dy = ddy.get();
        se.dx = ddx.get();
        se.h = dh.get();
        const size_t list_bytes = sizeof(int) * (2 * se.count + 1) + (heights ? sizeof(double) * se.count : 0) + 8;
        const size_t tile_bytes =
            sizeof(T) * static_cast<size_t>(32 + se.max_dy - se.min_dy) * (32 + se.max_dx - se.min_dx);
        const bool tiled = !heights && list_bytes + tile_bytes <= 48 * 1024;
        const size_t bytes = list_bytes + (tiled ? tile_bytes : 0);
        if (bytes > 48 * 1024) ipt::plugin::unsupported(std::string(op) + ": structuring element too large for libipt_cuda");
        dim3 grid(static_cast<unsigned>((cols + 31) / 32), static_cast<unsigned>((rows + 31) / 32));
        dim3 block(32, 8);
        if (heights) morph_direct<T, Dilate, false><<<grid, block, bytes, s>>>(src, dst, rows, cols, se, false);
        else morph_direct<T, Dilate, true><<<grid, block, bytes, s>>>(src, dst, rows, cols, se, tiled);
        check_launch(op);
    });
}

}  // namespace ipt::cuda
