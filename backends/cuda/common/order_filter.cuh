// Order-statistic filtering shared by ordfilt2 and medfilt2: the order-th
// smallest of A(p + offset) (+ S(offset)) over the nonzero elements of the
// domain, whose centre is floor((size+1)/2) (pitfall 3).
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
#include <utility>
#include <vector>

#include "common/buffer.hpp"
#include "common/device.cuh"
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

// V: the type whose keys are selected (T, or double when S is given).
template <class T, class V, class Out>
__global__ void __launch_bounds__(256)
order_filter(const T* __restrict__ a, Out* __restrict__ out, int64_t rows, int64_t cols, OrderParams p, T pad) {
    using K = typename KeyOf<V>::K;
    constexpr int bits = KeyOf<V>::bits;
    extern __shared__ double smem[];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * 32 + tx;
    const int th = 32 + p.max_dy - p.min_dy, tw = 32 + p.max_dx - p.min_dx;
    double* ss = smem;
    int* ofs = reinterpret_cast<int*>(ss + (p.s ? p.count : 0));
    T* tile = reinterpret_cast<T*>(ofs + p.count + (p.count & 1));
    for (int i = tid; i < p.count; i += 256) {
        ofs[i] = p.tiled ? (p.dy[i] - p.min_dy) * tw + (p.dx[i] - p.min_dx) : 0;
        if (p.s) ss[i] = p.s[i];
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
            if constexpr (std::is_same_v<V, T>) return v;
            else return to_double(v) + ss[k];
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
            const V second = select(p.order2);
            // MATLAB's medfilt2 for even sizes: imlincomb(0.5, a, 0.5, b), i.e.
            // in double, rounded half away and saturated (logical: a | b).
            if constexpr (std::is_same_v<Out, bool>) result = to_double(first) != 0 || to_double(second) != 0;
            else result = saturate_round<Out>(0.5 * to_double(first) + 0.5 * to_double(second));
        }
        out[r * cols + c] = result;
    }
}

// Median of a K x K window for 8- and 16-bit integer classes: the K*K values
// go to registers and a comparator network that selects the middle one
// (median_network.hpp: 24 min/max pairs for 3x3, 113 for 5x5, fully
// unrolled, every index a compile-time constant) leaves the median there.
// Exact for integers (no NaN), and no memory traffic after the tile.
template <int Lo, int Hi>
__device__ __forceinline__ void compare_exchange(int* v) {
    const int lo = min(v[Lo], v[Hi]);
    v[Hi] = max(v[Lo], v[Hi]);
    v[Lo] = lo;
}

// Leaves the median of v[0..N) in v[N / 2].
template <int N, size_t... I>
__device__ __forceinline__ void select_median(int* v, std::index_sequence<I...>) {
    using Net = ipt::common::MedianNetwork<N>;
    (compare_exchange<Net::comparators[I].lo, Net::comparators[I].hi>(v), ...);
}

template <class T, int K>
__global__ void __launch_bounds__(256)
median_network(const T* __restrict__ a, T* __restrict__ out, int64_t rows, int64_t cols, Border border, T pad) {
    constexpr int N = K * K, H = (K - 1) / 2, TW = 32 + K - 1;
    __shared__ T tile[(32 + K - 1) * TW];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t r0 = static_cast<int64_t>(blockIdx.y) * 32, c0 = static_cast<int64_t>(blockIdx.x) * 32;
    stage_tile<TW>(a, rows, cols, border, pad, r0 - H, c0 - H, 32 + K - 1, TW, tile);
    __syncthreads();
    const int64_t c = c0 + tx;
    if (c >= cols) return;
    for (int k0 = ty; k0 < 32; k0 += 8) {
        const int64_t r = r0 + k0;
        if (r >= rows) return;
        int v[N];
#pragma unroll
        for (int i = 0; i < K; ++i)
#pragma unroll
            for (int j = 0; j < K; ++j) v[i * K + j] = static_cast<int>(tile[(k0 + i) * TW + tx + j]);
        select_median<N>(v, std::make_index_sequence<ipt::common::MedianNetwork<N>::count>{});
        out[r * cols + c] = static_cast<T>(v[N / 2]);
    }
}

// Host side: offsets of the domain (host logical array), then the launch.
struct Domain {
    std::vector<int> dy, dx;
    std::vector<double> s;
};

inline Domain domain_from_mask(const uint8_t* mask, int64_t rows, int64_t cols, const double* s) {
    Domain d;
    const int64_t oy = kernel_origin(rows), ox = kernel_origin(cols);
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
            if (mask == nullptr || mask[i * cols + j]) {
                d.dy.push_back(static_cast<int>(i - oy));
                d.dx.push_back(static_cast<int>(j - ox));
                if (s) d.s.push_back(s[i * cols + j]);
            }
    return d;
}

template <class T, class V, class Out>
void order_filter_async(const T* a, Out* out, int64_t rows, int64_t cols, const Domain& d, int order1, int order2,
                        Border border, T pad, cudaStream_t stream, const char* what) {
    if (rows == 0 || cols == 0) return;
    OrderParams p;
    p.count = static_cast<int>(d.dy.size());
    p.min_dy = *std::min_element(d.dy.begin(), d.dy.end());
    p.max_dy = *std::max_element(d.dy.begin(), d.dy.end());
    p.min_dx = *std::min_element(d.dx.begin(), d.dx.end());
    p.max_dx = *std::max_element(d.dx.begin(), d.dx.end());
    p.order1 = order1;
    p.order2 = order2;
    p.border = border;
    DeviceArray<int> ddy = to_device(d.dy, stream), ddx = to_device(d.dx, stream);
    DeviceArray<double> ds = d.s.empty() ? DeviceArray<double>() : to_device(d.s, stream);
    p.dy = ddy.get();
    p.dx = ddx.get();
    p.s = d.s.empty() ? nullptr : ds.get();
    const size_t list = (p.s ? sizeof(double) * p.count : 0) + sizeof(int) * (p.count + 1);
    const size_t tile = sizeof(T) * static_cast<size_t>(32 + p.max_dy - p.min_dy) * (32 + p.max_dx - p.min_dx);
    p.tiled = list + tile <= 48 * 1024;
    const size_t bytes = list + (p.tiled ? tile : 0) + 16;
    if (bytes > 48 * 1024) ipt::plugin::unsupported(std::string(what) + ": domain too large for libipt_cuda");
    dim3 grid(static_cast<unsigned>((cols + 31) / 32), static_cast<unsigned>((rows + 31) / 32));
    order_filter<T, V, Out><<<grid, dim3(32, 8), bytes, stream>>>(a, out, rows, cols, p, pad);
    check_launch(what);
}

}  // namespace ipt::cuda
