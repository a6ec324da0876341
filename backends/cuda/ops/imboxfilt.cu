// SPDX-License-Identifier: Apache-2.0
// ipt.imboxfilt (common/ops/imboxfilt.hpp), per plane.
//
// 8- and 16-bit integers whose window sums S stay below 2^31 (and at most
// kBoxRing window rows): S is an integer, which the integral route's corners
// give exactly too, so box_running keeps S as a running sum in int32 down
// each column and forms S * f as box_value does (for unsigned classes under
// the default factor, the same integer by an integer division:
// common/box_scale.cuh).
// 1-byte images take box_quads, the same sums four columns a thread, where
// the width allows.
// Everything else: the padded plane's integral image (common/integral_image.cuh)
// and each output from the four corners of its window (box_value, the CPU
// reference's order); either way converted once to A's class.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <type_traits>

#include "common/box_scale.cuh"
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

constexpr int kBoxWidth = 128, kBoxStrip = 16, kBoxRing = 32;

// Running window sums for 8- and 16-bit integers: each thread owns one
// output column and walks a strip of kBoxStrip output rows. Per row entering
// the window it sums that row's fc values (H), keeps H in a ring of the last
// fr rows in shared memory (its own column's slots, so no thread waits for
// another; fr slots per column, so that a small window leaves room for more
// blocks per SM), and the window sum is the running total of the ring. Every sum
// is an integer below 2^31 (checked by the caller), exact in any order.
// FC > 0: the window width at compile time; a column whose window lies
// inside the image then loads the next entering row into registers before
// it sums the current one, so the loads' latency overlaps the work. Other
// columns, and FC == 0, sum one row at a time by the border rule.
template <int FC, class T>
__global__ void __launch_bounds__(kBoxWidth)
box_running(const T* __restrict__ a, T* __restrict__ b, int64_t m, int64_t n, Border border, int32_t pad, int fr,
            int fc, int64_t top, int64_t left, BoxScale scale) {
    extern __shared__ int32_t ring[];  // fr * kBoxWidth
    const int64_t c = static_cast<int64_t>(blockIdx.x) * kBoxWidth + threadIdx.x;
    if (c >= n) return;
    int32_t* slots = ring + threadIdx.x;
    const int64_t first_col = c - left;
    const bool columns_inside = first_col >= 0 && first_col + fc <= n;
    // Sum of the fc window values of padded row i (A's row i, or the border's).
    auto row_sum = [&](int64_t i) -> int32_t {
        const int64_t ar = border_index(border, i, m);
        if (ar < 0) return fc * pad;
        const T* row = a + ar * n;
        int32_t s = 0;
        if (columns_inside) {
            const T* x = row + first_col;
#pragma unroll 4
            for (int j = 0; j < fc; ++j) s += x[j];
        } else {
            for (int j = 0; j < fc; ++j) {
                const int64_t ci = border_index(border, first_col + j, n);
                s += ci < 0 ? pad : static_cast<int32_t>(row[ci]);
            }
        }
        return s;
    };
    // The FC values of padded row i of an inside column (the pad for a row
    // outside A under the constant rule).
    struct Row {
        int32_t v[FC > 0 ? FC : 1];
    };
    auto load_row = [&](int64_t i, Row& x) {
        const int64_t ar = border_index(border, i, m);
        const T* src = a + (ar < 0 ? 0 : ar * n) + first_col;
#pragma unroll
        for (int j = 0; j < FC; ++j) x.v[j] = ar < 0 ? pad : static_cast<int32_t>(src[j]);
    };
    for (int64_t r0 = static_cast<int64_t>(blockIdx.y) * kBoxStrip; r0 < m;
         r0 += static_cast<int64_t>(gridDim.y) * kBoxStrip) {
        const int64_t r_end = r0 + kBoxStrip < m ? r0 + kBoxStrip : m;
        // Output r's window covers padded rows r - top .. r - top + fr - 1.
        int32_t v = 0;
        for (int k = 0; k + 1 < fr; ++k) {
            const int32_t h = row_sum(r0 - top + k);
            slots[k * kBoxWidth] = h;
            v += h;
        }
        int slot = fr - 1;
        auto emit = [&](int64_t r, int32_t h) {
            slots[slot * kBoxWidth] = h;
            v += h;
            b[r * n + c] = box_output<T>(v, scale);
            slot = slot + 1 == fr ? 0 : slot + 1;  // now the oldest row: it leaves
            v -= slots[slot * kBoxWidth];
        };
        if (FC > 0 && columns_inside) {
            Row next;
            load_row(r0 - top + fr - 1, next);
            for (int64_t r = r0; r < r_end; ++r) {
                const Row entering = next;
                if (r + 1 < r_end) load_row(r + 1 - top + fr - 1, next);
                int32_t h = 0;
#pragma unroll
                for (int j = 0; j < FC; ++j) h += entering.v[j];
                emit(r, h);
            }
        } else {
            for (int64_t r = r0; r < r_end; ++r) emit(r, row_sum(r - top + fr - 1));
        }
    }
}

// 1-byte classes with a width divisible by 4: the same running sums with
// each thread owning four neighbouring output columns, so that a row is read
// as 32-bit words, shared by four outputs, and the four results are written
// as one word. A quad whose window lies inside the row loads the words that
// cover it and aligns them with funnel shifts (the offset is the same for
// every quad); the quads at the row's ends sum by the border rule.
constexpr int kQuadStrip = 8;

template <int FC, class T>
__global__ void __launch_bounds__(kBoxWidth, 8)
box_quads(const T* __restrict__ a, T* __restrict__ b, int64_t m, int64_t n, Border border, int32_t pad, int fr,
          int64_t top, int64_t left, BoxScale scale) {
    static_assert(sizeof(T) == 1 && FC > 0);
    extern __shared__ int4 quad_ring[];  // fr * kBoxWidth
    const int64_t q = static_cast<int64_t>(blockIdx.x) * kBoxWidth + threadIdx.x;  // quad index
    const int64_t words = n / 4;
    if (q >= words) return;
    int4* slots = quad_ring + threadIdx.x;
    const int64_t first_col = 4 * q - left;  // window of output column 4q + t starts at first_col + t
    const int64_t w0 = first_col >= 0 ? first_col / 4 : -1;
    constexpr int kWords = (FC + 3 + 3) / 4 + 1;  // covers FC + 3 bytes at any offset
    const bool inside = first_col >= 0 && w0 + kWords <= words;
    const unsigned shift = static_cast<unsigned>(first_col & 3) * 8;
    // Window sums of padded row i for the four columns.
    auto row_sums = [&](int64_t i) -> int4 {
        const int64_t ar = border_index(border, i, m);
        if (ar < 0) return make_int4(FC * pad, FC * pad, FC * pad, FC * pad);
        int32_t x[FC + 3];
        if (inside) {
            const uint32_t* row = reinterpret_cast<const uint32_t*>(a + ar * n) + w0;
            uint32_t w[kWords];
#pragma unroll
            for (int k = 0; k < kWords; ++k) w[k] = row[k];
            // y: the window's FC + 3 bytes from its first, four a word.
            constexpr int kAligned = (FC + 6) / 4;
            uint32_t y[kAligned];
#pragma unroll
            for (int k = 0; k < kAligned; ++k) y[k] = __funnelshift_r(w[k], w[k + 1], shift);
            // Column t's sum, bytes t .. t + FC - 1: dot products of the
            // words with masks of ones (the masks fold to constants).
            int32_t h[4];
#pragma unroll
            for (int t = 0; t < 4; ++t) {
                h[t] = 0;
#pragma unroll
                for (int k = 0; k < kAligned; ++k) {
                    uint32_t ones = 0;
#pragma unroll
                    for (int j = 0; j < 4; ++j)
                        if (4 * k + j >= t && 4 * k + j < t + FC) ones |= 1u << (8 * j);
                    if (ones == 0) continue;
                    if constexpr (std::is_signed_v<T>) h[t] = __dp4a(static_cast<int>(y[k]), static_cast<int>(ones), h[t]);
                    else h[t] = static_cast<int32_t>(__dp4a(y[k], ones, static_cast<uint32_t>(h[t])));
                }
            }
            return make_int4(h[0], h[1], h[2], h[3]);
        } else {
            const T* row = a + ar * n;
#pragma unroll
            for (int t = 0; t < FC + 3; ++t) {
                const int64_t ci = border_index(border, first_col + t, n);
                x[t] = ci < 0 ? pad : static_cast<int32_t>(row[ci]);
            }
        }
        int4 h;
        h.x = 0;
#pragma unroll
        for (int t = 0; t < FC; ++t) h.x += x[t];
        h.y = h.x - x[0] + x[FC];
        h.z = h.y - x[1] + x[FC + 1];
        h.w = h.z - x[2] + x[FC + 2];
        return h;
    };
    auto out = [&](int32_t v) -> uint32_t {
        return static_cast<uint8_t>(box_output<T>(v, scale));
    };
    for (int64_t r0 = static_cast<int64_t>(blockIdx.y) * kQuadStrip; r0 < m;
         r0 += static_cast<int64_t>(gridDim.y) * kQuadStrip) {
        const int64_t r_end = r0 + kQuadStrip < m ? r0 + kQuadStrip : m;
        int4 v = make_int4(0, 0, 0, 0);
        for (int k = 0; k + 1 < fr; ++k) {
            const int4 h = row_sums(r0 - top + k);
            slots[k * kBoxWidth] = h;
            v.x += h.x, v.y += h.y, v.z += h.z, v.w += h.w;
        }
        int slot = fr - 1;
        for (int64_t r = r0; r < r_end; ++r) {
            const int4 h = row_sums(r - top + fr - 1);
            slots[slot * kBoxWidth] = h;
            v.x += h.x, v.y += h.y, v.z += h.z, v.w += h.w;
            reinterpret_cast<uint32_t*>(b + r * n)[q] = out(v.x) | out(v.y) << 8 | out(v.z) << 16 | out(v.w) << 24;
            slot = slot + 1 == fr ? 0 : slot + 1;  // now the oldest row: it leaves
            const int4 o = slots[slot * kBoxWidth];
            v.x -= o.x, v.y -= o.y, v.z -= o.z, v.w -= o.w;
        }
    }
}

template <int FC, class T>
void launch_box_quads(cudaStream_t stream, const T* a, T* b, int64_t m, int64_t n, Border border, int32_t pad, int fr,
                      int64_t top, int64_t left, BoxScale scale) {
    const int64_t strips = (m + kQuadStrip - 1) / kQuadStrip;
    const dim3 grid(static_cast<unsigned>((n / 4 + kBoxWidth - 1) / kBoxWidth),
                    static_cast<unsigned>(strips < 65535 ? strips : 65535));
    const size_t ring_bytes = sizeof(int4) * static_cast<size_t>(fr) * kBoxWidth;
    box_quads<FC, T><<<grid, kBoxWidth, ring_bytes, stream>>>(a, b, m, n, border, pad, fr, top, left, scale);
}

// The quad kernel for the common odd widths; false when it does not apply.
template <class T>
bool box_by_quads(cudaStream_t stream, const T* a, T* b, int64_t m, int64_t n, Border border, int32_t pad, int fr,
                  int fc, int64_t top, int64_t left, BoxScale scale) {
    if constexpr (sizeof(T) == 1) {
        // fr <= 16: the ring (16 bytes a slot) stays within 32 KiB of shared memory.
        if (fr > 16 || n % 4 != 0 || reinterpret_cast<uintptr_t>(a) % 4 != 0 || reinterpret_cast<uintptr_t>(b) % 4 != 0)
            return false;
        switch (fc) {
        case 3: launch_box_quads<3>(stream, a, b, m, n, border, pad, fr, top, left, scale); return true;
        case 5: launch_box_quads<5>(stream, a, b, m, n, border, pad, fr, top, left, scale); return true;
        case 7: launch_box_quads<7>(stream, a, b, m, n, border, pad, fr, top, left, scale); return true;
        case 9: launch_box_quads<9>(stream, a, b, m, n, border, pad, fr, top, left, scale); return true;
        case 11: launch_box_quads<11>(stream, a, b, m, n, border, pad, fr, top, left, scale); return true;
        default: return false;
        }
    }
    return false;
}

template <int FC, class T>
void launch_box_running(dim3 grid, cudaStream_t stream, const T* a, T* b, int64_t m, int64_t n, Border border,
                        int32_t pad, int fr, int fc, int64_t top, int64_t left, BoxScale scale) {
    const size_t ring_bytes = sizeof(int32_t) * static_cast<size_t>(fr) * kBoxWidth;
    box_running<FC, T><<<grid, kBoxWidth, ring_bytes, stream>>>(a, b, m, n, border, pad, fr, fc, top, left, scale);
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
            const auto pad = static_cast<int32_t>(static_cast<T>(p.pad_value));
            const int64_t largest = std::max<int64_t>({std::abs(int64_t{pad}), int64_t{std::numeric_limits<T>::max()},
                                                       -int64_t{std::numeric_limits<T>::min()}});
            if (p.fr <= kBoxRing && p.fr * p.fc * largest < (int64_t{1} << 31)) {
                const BoxScale scale = box_scale(p.norm, p.fr * p.fc, largest, std::is_unsigned_v<T>);
                const int64_t strips = (p.rows + kBoxStrip - 1) / kBoxStrip;
                const dim3 grid(static_cast<unsigned>((p.cols + kBoxWidth - 1) / kBoxWidth),
                                static_cast<unsigned>(strips < 65535 ? strips : 65535));
                for (int64_t ch = 0; ch < p.channels; ++ch) {
                    const T* a = dptr<const T>(p.A) + ch * p.rows * p.cols;
                    T* b = dptr<T>(B) + ch * p.rows * p.cols;
                    const int fr = static_cast<int>(p.fr), fc = static_cast<int>(p.fc);
                    // The common odd widths at compile time; others at run time.
                    if (box_by_quads(dev.stream, a, b, p.rows, p.cols, border, pad, fr, fc, p.top, p.left, scale)) {
                        check_launch("ipt.imboxfilt");
                        continue;
                    }
                    switch (fc) {
                    case 3: launch_box_running<3>(grid, dev.stream, a, b, p.rows, p.cols, border, pad, fr, fc, p.top, p.left, scale); break;
                    case 5: launch_box_running<5>(grid, dev.stream, a, b, p.rows, p.cols, border, pad, fr, fc, p.top, p.left, scale); break;
                    case 7: launch_box_running<7>(grid, dev.stream, a, b, p.rows, p.cols, border, pad, fr, fc, p.top, p.left, scale); break;
                    case 9: launch_box_running<9>(grid, dev.stream, a, b, p.rows, p.cols, border, pad, fr, fc, p.top, p.left, scale); break;
                    case 11: launch_box_running<11>(grid, dev.stream, a, b, p.rows, p.cols, border, pad, fr, fc, p.top, p.left, scale); break;
                    default: launch_box_running<0>(grid, dev.stream, a, b, p.rows, p.cols, border, pad, fr, fc, p.top, p.left, scale);
                    }
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
