// SPDX-License-Identifier: Apache-2.0
// Work sharing by claimed blocks: the workers take the next block of [0, n)
// from a shared counter, so a worker that the OS schedules late finds the
// work done instead of holding a fixed share (on a busy machine fixed halves
// make two threads no faster than one). Each worker keeps its own scratch,
// indexed by the worker number the body receives.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "common/parallel.hpp"

namespace ipt::cpu {

// Number of workers for n blocks.
inline int64_t block_workers(int64_t nblocks) {
    return std::max<int64_t>(1, std::min<int64_t>(thread_count(), nblocks));
}

// Calls body(worker, begin, end) for consecutive blocks of `block` items of
// [0, n); `workers` from block_workers. The body must not throw.
template <class Body>
void for_claimed_blocks(int64_t workers, int64_t n, int64_t block, Body&& body) {
    if (n <= 0) return;
    block = std::max<int64_t>(1, block);
    std::atomic<int64_t> next{0};
    parallel_for(0, workers, [&](int64_t wk) {
        for (;;) {
            const int64_t b = next.fetch_add(block, std::memory_order_relaxed);
            if (b >= n) break;
            body(wk, b, std::min(n, b + block));
        }
    });
}

}  // namespace ipt::cpu
