// SPDX-License-Identifier: Apache-2.0
// Order-statistic filtering shared by ordfilt2 and medfilt2: the order-th
// smallest of A(p + offset) (+ S(offset)) over the nonzero elements of the
// domain, whose centre is floor((size+1)/2) (docs/matlab-semantics.md#centre).
//
// Selection is a bitwise radix select on order-preserving unsigned keys:
// from the top bit down, count the window values <= prefix|0111..1 and keep
// the bit at 0 when at least `order` values are that small. That is
// (bits x window) compares with no data-dependent memory access and no
// sorting network size limit: 8 passes for uint8, 16 for 16-bit classes,
// 32 for single and 32-bit integers, 64 for double. The input tile with its
// halo (border resolved) sits in shared memory.
#pragma once

#include <algorithm>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/buffer.hpp"
#include "common/device.cuh"
#include "common/ops/ordfilt2.hpp"
#include "median_network.hpp"

namespace ipt::cuda {

template <class T> struct KeyOf;
template <> struct KeyOf<bool> { using K = uint8_t; static constexpr int bits = 1; };
template <> struct KeyOf<uint8_t> { using K = uint8_t; static constexpr int bits = 8; };
template <> struct KeyOf<uint16_t> { using K = uint16_t; static constexpr int bits = 16; };
template <> struct KeyOf<int16_t> { using K = uint16_t; static constexpr int bits = 16; };
template <> struct KeyOf<int32_t> { using K = uint32_t; static constexpr int bits = 32; };
template <> struct KeyOf<uint32_t> { using K = uint32_t; static constexpr int bits = 32; };
template <> struct KeyOf<float> { using K = uint32_t; static constexpr int bits = 32; };
template <> struct KeyOf<double> { using K = unsigned long long; static constexpr int bits = 64; };

template <class T>
__device__ inline typename KeyOf<T>::K to_key(T v) {
    if constexpr (std::is_same_v<T, bool>) return v ? 1 : 0;
    else if constexpr (std::is_same_v<T, int16_t>) return static_cast<uint16_t>(v) ^ 0x8000u;
    else if constexpr (std::is_same_v<T, int32_t>) return static_cast<uint32_t>(v) ^ 0x80000000u;
    else if constexpr (std::is_same_v<T, float>) {
        if (v != v) return 0xFFFFFFFFu;  // every NaN sorts last, as MATLAB's sort
        uint32_t u = __float_as_uint(v);
        return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
    } else if constexpr (std::is_same_v<T, double>) {
        if (v != v) return ~0ull;  // every NaN sorts last
        unsigned long long u = static_cast<unsigned long long>(__double_as_longlong(v));
        return (u & 0x8000000000000000ull) ? ~u : (u | 0x8000000000000000ull);
    } else return v;
}

template <class T>
__device__ inline T from_key(typename KeyOf<T>::K k) {
    if constexpr (std::is_same_v<T, bool>) return k != 0;
    else if constexpr (std::is_same_v<T, int16_t>) return static_cast<int16_t>(static_cast<uint16_t>(k ^ 0x8000u));
    else if constexpr (std::is_same_v<T, int32_t>) return static_cast<int32_t>(k ^ 0x80000000u);
    else if constexpr (std::is_same_v<T, float>) {
        if (k == 0xFFFFFFFFu) return __uint_as_float(0x7fc00000u);
        uint32_t u = (k & 0x80000000u) ? (k & 0x7fffffffu) : ~k;
        return __uint_as_float(u);
    } else if constexpr (std::is_same_v<T, double>) {
        if (k == ~0ull) return __longlong_as_double(0x7ff8000000000000ll);
        unsigned long long u = (k & 0x8000000000000000ull) ? (k & 0x7fffffffffffffffull) : ~k;
        return __longlong_as_double(static_cast<long long>(u));
    } else return static_cast<T>(k);
}

struct OrderParams {
    const int* dy = nullptr;  // offsets of the domain's nonzero elements
    const int* dx = nullptr;
    const double* s = nullptr;  // additive offsets (S), or null
    int count = 0;
    int min_dy = 0, max_dy = 0, min_dx = 0, max_dx = 0;
    int order1 = 1;  // 1-based
    int order2 = 0;  // 0: one order; else the mean of order1 and order2 (medfilt2, even sizes)
    Border border = Border::Constant;
    bool tiled = true;
};

// Offsets: ordfilt2's S is given, and the selected values are
// double(A(p + d)) + S(d) (V = double), whatever the class of A.
template <class T, class Out, bool Offsets>
__global__ void __launch_bounds__(256)
order_filter(const T* __restrict__ a, Out* __restrict__ out, int64_t rows, int64_t cols, OrderParams p, T pad) {
    using V = std::conditional_t<Offsets, double, T>;
    using K = typename KeyOf<V>::K;
    constexpr int bits = KeyOf<V>::bits;
    extern __shared__ double smem[];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * 32 + tx;
    const int th = 32 + p.max_dy - p.min_dy, tw = 32 + p.max_dx - p.min_dx;
    double* ss = smem;
    int* ofs = reinterpret_cast<int*>(ss + (Offsets ? p.count : 0));
    T* tile = reinterpret_cast<T*>(ofs + p.count + (p.count & 1));
    for (int i = tid; i < p.count; i += 256) {
        ofs[i] = p.tiled ? (p.dy[i] - p.min_dy) * tw + (p.dx[i] - p.min_dx) : 0;
        if constexpr (Offsets) ss[i] = p.s[i];
    }
    const int64_t r0 = static_cast<int64_t>(blockIdx.y) * 32, c0 = static_cast<int64_t>(blockIdx.x) * 32;
    if (p.tiled) {
        for (int i = tid; i < th * tw; i += 256) {
            const int64_t ri = border_index(p.border, r0 + p.min_dy + i / tw, rows);
            const int64_t ci = border_index(p.border, c0 + p.min_dx + i % tw, cols);
            tile[i] = (ri < 0 || ci < 0) ? pad : a[ri * cols + ci];
        }
    }
    __syncthreads();
    const int64_t c = c0 + tx;
    if (c >= cols) return;
    for (int k0 = ty; k0 < 32; k0 += 8) {
        const int64_t r = r0 + k0;
        if (r >= rows) return;
        auto value = [&](int k) -> V {
            T v;
            if (p.tiled) {
                v = tile[k0 * tw + tx + ofs[k]];
            } else {
                const int64_t ri = border_index(p.border, r + p.dy[k], rows);
                const int64_t ci = border_index(p.border, c + p.dx[k], cols);
                v = (ri < 0 || ci < 0) ? pad : a[ri * cols + ci];
            }
            // The CPU reference's sum: double(A) + S(d), padded values too.
            if constexpr (Offsets) return to_double(v) + ss[k];
            else return v;
        };
        auto select = [&](int order) -> V {
            K ans = 0;
            for (int b = bits - 1; b >= 0; --b) {
                const K test = ans | ((K(1) << b) - 1);
                int n = 0;
                for (int k = 0; k < p.count; ++k) n += (to_key<V>(value(k)) <= test);
                if (n < order) ans |= (K(1) << b);
            }
            return from_key<V>(ans);
        };
        const V first = select(p.order1);
        Out result;
        if (p.order2 == 0) {
            result = static_cast<Out>(first);
        } else {
            // medfilt2's even windows (common/ops/medfilt2.hpp): 0.5*v1 + 0.5*v2
            // in double, converted once: integers rounded half away from zero,
            // floating classes to nearest. (Logical plans take one order.)
            const V second = select(p.order2);
            result = saturate_round<Out>(0.5 * to_double(first) + 0.5 * to_double(second));
        }
        out[r * cols + c] = result;
    }
}

// Median of a K x K window for 8- and 16-bit integer classes: a comparator
// network that selects the middle value (median_network.hpp: 24 min/max
// pairs for 3x3, 113 for 5x5, fully unrolled, every index a compile-time
// constant) leaves the median in a register. Each thread takes two
// neighbouring outputs of a row at once, one in each 16-bit lane of a word:
// sm_90 has native min.u16x2 / max.u16x2, so one instruction serves both
// windows. int16 values are flipped to order-preserving unsigned keys (sign
// bit toggled) and back. Exact for integers (no NaN); no memory traffic
// after the tile.
__device__ __forceinline__ void compare_exchange_pair(uint32_t& lo, uint32_t& hi) {
    const uint32_t l = __vminu2(lo, hi);
    hi = __vmaxu2(lo, hi);
    lo = l;
}

// Leaves the median of v[0..N) in v[N / 2].
template <int N, size_t... I>
__device__ __forceinline__ void select_median(uint32_t* v, std::index_sequence<I...>) {
    using Net = ipt::common::MedianNetwork<N>;
    (compare_exchange_pair(v[Net::comparators[I].lo], v[Net::comparators[I].hi]), ...);
}

constexpr int kMedianPairCols = 64;  // outputs per block row: 32 threads x 2

template <class T, int K>
__global__ void __launch_bounds__(256)
median_network(const T* __restrict__ a, T* __restrict__ out, int64_t rows, int64_t cols, Border border, T pad) {
    static_assert(sizeof(T) <= 2, "8- and 16-bit classes");
    constexpr int N = K * K, H = (K - 1) / 2, TW = kMedianPairCols + K - 1;
    constexpr uint32_t kFlip = std::is_same_v<T, int16_t> ? 0x80008000u : 0u;
    __shared__ T tile[(32 + K - 1) * TW];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t r0 = static_cast<int64_t>(blockIdx.y) * 32, c0 = static_cast<int64_t>(blockIdx.x) * kMedianPairCols;
    stage_tile<TW>(a, rows, cols, border, pad, r0 - H, c0 - H, 32 + K - 1, TW, tile);
    __syncthreads();
    const int64_t c = c0 + 2 * tx;
    if (c >= cols) return;
    for (int k0 = ty; k0 < 32; k0 += 8) {
        const int64_t r = r0 + k0;
        if (r >= rows) return;
        uint32_t v[N];
#pragma unroll
        for (int i = 0; i < K; ++i) {
            const T* row = tile + (k0 + i) * TW + 2 * tx;
            uint32_t left = static_cast<uint16_t>(row[0]);
#pragma unroll
            for (int j = 0; j < K; ++j) {
                const uint32_t right = static_cast<uint16_t>(row[j + 1]);
                v[i * K + j] = __byte_perm(left, right, 0x5410) ^ kFlip;  // output c in the low lane, c + 1 high
                left = right;
            }
        }
        select_median<N>(v, std::make_index_sequence<ipt::common::MedianNetwork<N>::count>{});
        const uint32_t m = v[N / 2] ^ kFlip;
        T* dst = out + r * cols + c;
        dst[0] = static_cast<T>(static_cast<uint16_t>(m & 0xFFFFu));
        if (c + 1 < cols) dst[1] = static_cast<T>(static_cast<uint16_t>(m >> 16));
    }
}

// Host side: the launch for a window of the front-end (common/ops/ordfilt2.hpp).
using OrderWindow = ipt::frontend::order::Window;
using OrderPadding = ipt::frontend::order::Padding;

// Shared memory the offset list takes (S, then the offsets); the kernel
// needs it to fit in 48 KiB.
inline size_t order_list_bytes(int64_t count, bool offsets) {
    return (offsets ? sizeof(double) * count : 0) + sizeof(int) * (count + 1);
}
inline bool order_window_fits(int64_t count, bool offsets) {
    return order_list_bytes(count, offsets) + 16 <= 48 * 1024;
}

// order1 (1-based) of each window, or with order2 != 0 the medfilt2 mean of
// orders order1 and order2. Offsets: w.s is added (Out is double).
template <class T, class Out, bool Offsets>
void order_filter_async(const T* a, Out* out, int64_t rows, int64_t cols, const OrderWindow& w, int order1,
                        int order2, const OrderPadding& pad, cudaStream_t stream, const char* what) {
    if (rows == 0 || cols == 0) return;
    if (!order_window_fits(w.count(), Offsets))
        ipt::plugin::unsupported(std::string(what) + ": domain too large for libipt_cuda");
    OrderParams p;
    p.count = static_cast<int>(w.count());
    p.min_dy = *std::min_element(w.dy.begin(), w.dy.end());
    p.max_dy = *std::max_element(w.dy.begin(), w.dy.end());
    p.min_dx = *std::min_element(w.dx.begin(), w.dx.end());
    p.max_dx = *std::max_element(w.dx.begin(), w.dx.end());
    p.order1 = order1;
    p.order2 = order2;
    p.border = pad.kind == ipt::frontend::order::Pad::Symmetric ? Border::Symmetric : Border::Constant;
    DeviceArray<int> ddy = to_device(w.dy, stream), ddx = to_device(w.dx, stream);
    DeviceArray<double> ds = Offsets ? to_device(w.s, stream) : DeviceArray<double>();
    p.dy = ddy.get();
    p.dx = ddx.get();
    p.s = Offsets ? ds.get() : nullptr;
    const size_t list = order_list_bytes(p.count, Offsets);
    const size_t tile = sizeof(T) * static_cast<size_t>(32 + p.max_dy - p.min_dy) * (32 + p.max_dx - p.min_dx);
    p.tiled = list + tile <= 48 * 1024;
    const size_t bytes = list + (p.tiled ? tile : 0) + 16;
    dim3 grid(static_cast<unsigned>((cols + 31) / 32), static_cast<unsigned>((rows + 31) / 32));
    order_filter<T, Out, Offsets>
        <<<grid, dim3(32, 8), bytes, stream>>>(a, out, rows, cols, p, static_cast<T>(pad.value));
    check_launch(what);
}

}  // namespace ipt::cuda
