// SPDX-License-Identifier: Apache-2.0
// Memory-bound passes over the elements of an image, shared among threads in
// contiguous ranges. Small passes stay on the calling thread: waking the
// workers costs more than they save below about a megabyte moved.
#pragma once

#include <algorithm>
#include <cstdint>

#include "parallel.hpp"
#include "simd.hpp"

namespace ipt::cpu {

// Calls body(first, last) over [0, n) in ranges of about 64 KiB moved
// (bytes_per_element: bytes read plus written per element). Each range runs
// through simd_dispatch, so the loop inside body is compiled for AVX2 too;
// body should copy what it captures into locals before its loop (a char
// store may otherwise alias a captured pointer and force reloads).
template <class Body>
void for_each_range(int64_t n, int64_t bytes_per_element, Body&& body) {
    if (n <= 0) return;
    constexpr int64_t kRangeBytes = int64_t{1} << 16;
    constexpr int64_t kMinRangesPerThread = 8;  // serial below 1 MiB moved
    const int64_t range = std::max<int64_t>(1, kRangeBytes / std::max<int64_t>(1, bytes_per_element));
    const int64_t ranges = (n + range - 1) / range;
    parallel_for(0, ranges, [&](int64_t k) {
        const int64_t first = k * range, last = std::min(n, first + range);
        simd_dispatch([&] { body(first, last); });
    }, kMinRangesPerThread);
}

}  // namespace ipt::cpu
