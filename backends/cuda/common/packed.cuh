// SPDX-License-Identifier: Apache-2.0
// Element-wise passes in which each thread moves a pack of V neighbouring
// elements with one 16-byte load or store on the wider side (and one narrower
// aligned access on the other), so that a pass over 1- and 2-byte classes
// keeps enough bytes in flight to run at the copy bandwidth. An operator gives the per-element rule; the pass reads NIn
// planes of the input and writes NOut planes of the output, `plane` elements
// apart (RGB images as OpenIPT stores them; NIn = NOut = 1 for a plain array).
// Arrays whose planes are not aligned to the pack run element by element.
#pragma once

#include <concepts>
#include <cstdint>

#include "check.hpp"
#include "device.cuh"

namespace ipt::cuda::packed {

// Elements per thread: 16 bytes of the wider class, so that every load and
// store of a warp covers one contiguous run (a pack of more than 16 bytes
// would be written as strided 16-byte pieces).
template <class In, class Out>
constexpr int pack_width() {
    constexpr int wide = sizeof(In) < sizeof(Out) ? sizeof(Out) : sizeof(In);
    return wide >= 16 ? 1 : 16 / wide;
}

// The unit of one load or store of V elements of T: 16 bytes, or the whole
// pack when it is smaller.
template <class T, int V>
constexpr int chunk_bytes() {
    return V * int(sizeof(T)) >= 16 ? 16 : V * int(sizeof(T));
}

template <int Bytes>
struct ChunkOf;
template <>
struct ChunkOf<16> {
    using type = uint4;
};
template <>
struct ChunkOf<8> {
    using type = uint2;
};
template <>
struct ChunkOf<4> {
    using type = uint32_t;
};
template <>
struct ChunkOf<2> {
    using type = uint16_t;
};
template <>
struct ChunkOf<1> {
    using type = uint8_t;
};

template <class T, int V>
__device__ __forceinline__ void load_pack(const T* __restrict__ src, T (&dst)[V]) {
    using C = typename ChunkOf<chunk_bytes<T, V>()>::type;
    constexpr int chunks = V * int(sizeof(T)) / int(sizeof(C));
#pragma unroll
    for (int k = 0; k < chunks; ++k) reinterpret_cast<C*>(dst)[k] = __ldg(reinterpret_cast<const C*>(src) + k);
}

template <class T, int V>
__device__ __forceinline__ void store_pack(T* __restrict__ dst, const T (&src)[V]) {
    using C = typename ChunkOf<chunk_bytes<T, V>()>::type;
    constexpr int chunks = V * int(sizeof(T)) / int(sizeof(C));
#pragma unroll
    for (int k = 0; k < chunks; ++k) reinterpret_cast<C*>(dst)[k] = reinterpret_cast<const C*>(src)[k];
}

// An operator may also give f.fast(x, y) -> bool: a cheaper way to the same
// outputs that declines (returns false) where it cannot guarantee them. The
// declined elements of a pack are computed again with f after the pack is
// stored, one at a time from memory, so the hot loop holds no second path
// and keeps no extra registers for one.
template <class F, class In, class Out, int NIn, int NOut>
concept HasFastPath = requires(const F& f, const In (&x)[NIn], Out (&y)[NOut]) {
    { f.fast(x, y) } -> std::convertible_to<bool>;
};

// f on the element at i of every plane, from a to z.
template <int NIn, int NOut, class In, class Out, class F>
__device__ __forceinline__ void apply_element(const F& f, const In* __restrict__ a, Out* __restrict__ z, int64_t plane,
                                              int64_t i) {
    In xi[NIn];
    Out yi[NOut];
#pragma unroll
    for (int c = 0; c < NIn; ++c) xi[c] = a[c * plane + i];
    f(xi, yi);
#pragma unroll
    for (int c = 0; c < NOut; ++c) z[c * plane + i] = yi[c];
}

// f(const In (&x)[NIn], Out (&y)[NOut]) for one element of every plane.
template <int V, int NIn, int NOut, class In, class Out, class F>
__global__ void planes_packed(const In* __restrict__ a, Out* __restrict__ z, int64_t plane, int64_t packs, F f) {
    static_assert(V <= 32, "a pack's declined elements fit one mask");
    IPT_GRID_STRIDE(p, packs) {
        alignas(16) In x[NIn][V];
        alignas(16) Out y[NOut][V];
#pragma unroll
        for (int c = 0; c < NIn; ++c) load_pack<In, V>(a + c * plane + p * V, x[c]);
        unsigned declined = 0;
#pragma unroll
        for (int k = 0; k < V; ++k) {
            In xi[NIn];
            Out yi[NOut];
#pragma unroll
            for (int c = 0; c < NIn; ++c) xi[c] = x[c][k];
            if constexpr (HasFastPath<F, In, Out, NIn, NOut>) declined |= static_cast<unsigned>(!f.fast(xi, yi)) << k;
            else f(xi, yi);
#pragma unroll
            for (int c = 0; c < NOut; ++c) y[c][k] = yi[c];
        }
#pragma unroll
        for (int c = 0; c < NOut; ++c) store_pack<Out, V>(z + c * plane + p * V, y[c]);
        for (; declined; declined &= declined - 1)
            apply_element<NIn, NOut>(f, a, z, plane, p * V + (__ffs(declined) - 1));
    }
}

template <int NIn, int NOut, class In, class Out, class F>
__global__ void planes_each(const In* __restrict__ a, Out* __restrict__ z, int64_t plane, int64_t begin, F f) {
    for (int64_t i = begin + static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < plane;
         i += static_cast<int64_t>(blockDim.x) * gridDim.x)
        apply_element<NIn, NOut>(f, a, z, plane, i);
}

inline bool aligned_to(const void* p, int64_t stride_bytes, int bytes) {
    return reinterpret_cast<uintptr_t>(p) % bytes == 0 && stride_bytes % bytes == 0;
}

// Runs f over `plane` elements of NIn input planes and NOut output planes.
template <int NIn, int NOut, class In, class Out, class F>
void run_planes(const char* op, const In* a, Out* z, int64_t plane, cudaStream_t stream, F f) {
    if (plane <= 0) return;
    constexpr int V = pack_width<In, Out>();
    const bool aligned = aligned_to(a, plane * int64_t(sizeof(In)), chunk_bytes<In, V>()) &&
                         aligned_to(z, plane * int64_t(sizeof(Out)), chunk_bytes<Out, V>());
    const int64_t packs = aligned ? plane / V : 0;
    if (packs > 0)
        planes_packed<V, NIn, NOut, In, Out, F>
            <<<grid_for(packs), kThreads, 0, stream>>>(a, z, plane, packs, f);
    if (packs * V < plane)
        planes_each<NIn, NOut, In, Out, F><<<grid_for(plane - packs * V), kThreads, 0, stream>>>(a, z, plane, packs * V, f);
    check_launch(op);
}

// One plane in, one plane out: z[i] = f(a[i]).
template <class F>
struct EachElement {
    F f;
    template <class In, class Out>
    __device__ void operator()(const In (&x)[1], Out (&y)[1]) const {
        y[0] = f(x[0]);
    }
};

template <class In, class Out, class F>
void run_map(const char* op, const In* a, Out* z, int64_t n, cudaStream_t stream, F f) {
    run_planes<1, 1, In, Out>(op, a, z, n, stream, EachElement<F>{f});
}

}  // namespace ipt::cuda::packed
