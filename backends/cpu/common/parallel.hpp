// Work sharing across the host's cores (OpenMP, with the thread count the host
// asks for).
#pragma once

#include <algorithm>
#include <cstdint>

#include "ipt/ipt_plugin.hpp"

namespace ipt::cpu {

inline int thread_count() {
    const ipt_host_table* h = ipt::plugin::host();
    int n = (h && h->cpu_threads) ? h->cpu_threads() : 1;
    return n < 1 ? 1 : n;
}

// Calls body(i) for i in [begin, end) on several threads. The body must not
// throw (check arguments before the loop). Threads take chunks of about an
// eighth of their share as they go, so one that starts late (a busy machine)
// does not hold the whole call back.
template <class Body>
void parallel_for(int64_t begin, int64_t end, Body&& body, int64_t min_per_thread = 1) {
    const int64_t n = end - begin;
    if (n <= 0) return;
    int threads = thread_count();
    if (n < 2 * min_per_thread || threads == 1) {
        for (int64_t i = begin; i < end; ++i) body(i);
        return;
    }
    const int64_t chunk = std::max<int64_t>(min_per_thread, n / (int64_t{threads} * 8));
#pragma omp parallel for num_threads(threads) schedule(dynamic, chunk)
    for (int64_t i = begin; i < end; ++i) body(i);
}

}  // namespace ipt::cpu
