// SPDX-License-Identifier: Apache-2.0
// Table look-up over a whole plane stack, shared by ipt.intlut and
// ipt.imadjust (whose integer classes go through a LUT, as MATLAB's do).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <type_traits>

#include "common/isa.hpp"
#include "common/parallel.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace ipt::cpu {

#if defined(__x86_64__)
// A byte table over 64 pixels at a time (AVX-512 VBMI): the table's four
// 64-byte quarters stay in registers, one two-source byte permute looks up
// entries 0-127 by each pixel's low seven bits, another entries 128-255, and
// the pixel's top bit chooses. About six instructions for 64 pixels, where
// the scalar loop's loads and stores take a cycle or more for each.
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) inline void lut_bytes_vbmi(const uint8_t* in, uint8_t* out,
                                                                                 int64_t n, const uint8_t* lut) {
    const __m512i q0 = _mm512_loadu_si512(lut), q1 = _mm512_loadu_si512(lut + 64);
    const __m512i q2 = _mm512_loadu_si512(lut + 128), q3 = _mm512_loadu_si512(lut + 192);
    int64_t i = 0;
    for (; i + 64 <= n; i += 64) {
        const __m512i x = _mm512_loadu_si512(in + i);
        const __m512i low = _mm512_permutex2var_epi8(q0, x, q1);
        const __m512i high = _mm512_permutex2var_epi8(q2, x, q3);
        _mm512_storeu_si512(out + i, _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), low, high));
    }
    for (; i < n; ++i) out[i] = lut[in[i]];
}
#endif

// Number of entries of a table indexed by every value of T (256 or 65536).
template <class T>
constexpr int64_t lut_entries() {
    return int64_t(1) << (8 * sizeof(T));
}

// out[i] = lut[in[i] - lowest(T)]: uint8/uint16 tables start at 0, int16 tables
// at -32768 (MATLAB's intlut). Parallel over blocks of pixels.
template <class T>
void apply_lut(const T* in, T* out, int64_t n, const T* lut) {
    static_assert(std::is_integral_v<T> && sizeof(T) <= 2);
    const T* base = std::is_signed_v<T> ? lut + lut_entries<T>() / 2 : lut;
    // Workers claim 16 Ki-element blocks from a shared counter instead of a
    // fixed half each: the pass takes about a millisecond, and a worker that
    // wakes late (a busy machine) then costs its share, not the whole call.
    constexpr int64_t kBlock = int64_t(1) << 14;
    const int64_t blocks = (n + kBlock - 1) / kBlock;
#if defined(__x86_64__)
    const bool vbmi = std::is_same_v<T, uint8_t> && isa_avx512_vbmi();
#endif
    std::atomic<int64_t> next_block{0};
    parallel_for(0, std::min<int64_t>(thread_count(), blocks), [&](int64_t) {
        for (int64_t b = next_block.fetch_add(1, std::memory_order_relaxed); b < blocks;
             b = next_block.fetch_add(1, std::memory_order_relaxed)) {
            const int64_t begin = b * kBlock, count = std::min(n, begin + kBlock) - begin;
            // Local restrict pointers: a uint8 store may alias anything, so
            // without them the compiler reloads the captured pointers after
            // every store.
            const T* __restrict src = in + begin;
            T* __restrict dst = out + begin;
            const T* __restrict table = base;
#if defined(__x86_64__)
            if constexpr (std::is_same_v<T, uint8_t>)
                if (vbmi) {
                    lut_bytes_vbmi(src, dst, count, table);
                    continue;
                }
#endif
            for (int64_t i = 0; i < count; ++i) dst[i] = table[src[i]];
        }
    });
}

}  // namespace ipt::cpu
