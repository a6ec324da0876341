// SPDX-License-Identifier: Apache-2.0
// Table look-up over a whole plane stack, shared by ipt.intlut and
// ipt.imadjust (whose integer classes go through a LUT, as MATLAB's do).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <type_traits>

#include "common/parallel.hpp"

namespace ipt::cpu {

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
            for (int64_t i = 0; i < count; ++i) dst[i] = table[src[i]];
        }
    });
}

}  // namespace ipt::cpu
