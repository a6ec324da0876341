// SPDX-License-Identifier: Apache-2.0
// Work sharing across the host's cores (the thread count the host asks for).
//
// A small pool of its own instead of OpenMP: an OpenMP parallel region ends in
// a barrier that every thread of the team must reach, so when the machine is
// busy and a worker thread is not scheduled, the caller waits for it (a
// scheduler tick, 4 ms here) even if it has done all the work itself. On a
// loaded 2-core machine that made 1 ms passes take 4-16 ms, slower than one
// thread. Here the caller works through the chunks too and waits only for the
// chunks that another thread has actually started; a worker that wakes late
// finds nothing left and goes back to sleep.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <system_error>
#include <thread>
#include <type_traits>
#include <vector>

#include "ipt/ipt_plugin.hpp"

namespace ipt::cpu {

inline int thread_count() {
    const ipt_host_table* h = ipt::plugin::host();
    int n = (h && h->cpu_threads) ? h->cpu_threads() : 1;
    return n < 1 ? 1 : n;
}

namespace detail {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

// One parallel loop: chunk i covers [begin + i*chunk, min(end, begin + (i+1)*chunk)).
struct Job {
    void (*run_chunk)(void* body, int64_t first, int64_t last);
    void* body;
    int64_t begin, end, chunk, chunks;
    std::atomic<int64_t> next{0};

    void work() {
        for (int64_t i = next.fetch_add(1, std::memory_order_relaxed); i < chunks;
             i = next.fetch_add(1, std::memory_order_relaxed)) {
            const int64_t first = begin + i * chunk;
            run_chunk(body, first, std::min(end, first + chunk));
        }
    }
};

class Pool {
public:
    // A thread the system refuses (a limit on threads or memory) leaves the
    // pool smaller; the caller works through the chunks either way.
    explicit Pool(int workers) {
        for (int i = 0; i < workers; ++i) {
            try {
                threads_.emplace_back([this] { worker(); });
            } catch (const std::system_error&) {
                break;
            }
        }
    }
    ~Pool() {
        stop_.store(true);
        epoch_.fetch_add(1);
        epoch_.notify_all();
        for (std::thread& t : threads_) t.join();
    }
    Pool(const Pool&) = delete;
    Pool& operator=(const Pool&) = delete;

    // Runs every chunk of `job` once, on this thread and whichever workers
    // join in. Returns false (nothing run) if the pool is busy with another
    // call (another host thread, or a loop nested in a loop body).
    bool run(Job& job) {
        if (busy_.exchange(true, std::memory_order_acquire)) return false;
        job_.store(&job);
        epoch_.fetch_add(1);
        epoch_.notify_all();
        job.work();
        // No worker can pick the job up after this; wait for those that did
        // (they hold at most the chunk they are running).
        job_.store(nullptr);
        for (int spins = 0; active_.load() != 0; ++spins) {
            if (spins < 4096)
                cpu_relax();
            else
                std::this_thread::yield();
        }
        busy_.store(false, std::memory_order_release);
        return true;
    }

private:
    void worker() {
        uint32_t seen = epoch_.load();
        for (;;) {
            // Spin briefly (the next loop of the same call usually follows at
            // once), then sleep until the epoch changes.
            for (int spins = 0; spins < 2000 && epoch_.load(std::memory_order_relaxed) == seen; ++spins)
                cpu_relax();
            epoch_.wait(seen);
            seen = epoch_.load();
            if (stop_.load()) return;
            // Announce, then look: the caller clears job_ before it waits for
            // active_ to drop to zero, so a job seen here is still alive.
            active_.fetch_add(1);
            if (Job* job = job_.load()) job->work();
            active_.fetch_sub(1);
        }
    }

    std::vector<std::thread> threads_;
    std::atomic<Job*> job_{nullptr};
    std::atomic<int> active_{0};
    std::atomic<uint32_t> epoch_{0};
    std::atomic<bool> busy_{false};
    std::atomic<bool> stop_{false};
};

// One pool per plugin, with thread_count() - 1 workers (the caller is the last).
// Never destroyed: joining its workers from a static destructor at exit hung
// a host program (a worker missed the stop wake-up); the process ends them.
inline Pool& pool() {
    static Pool* p = new Pool(thread_count() - 1);
    return *p;
}

}  // namespace detail

// Calls body(i) for i in [begin, end) on several threads. The body must not
// throw (check arguments before the loop). Threads take chunks of about an
// eighth of their share as they go, so one that starts late (a busy machine)
// does not hold the whole call back; the caller never waits for a thread that
// has not started.
template <class Body>
void parallel_for(int64_t begin, int64_t end, Body&& body, int64_t min_per_thread = 1) {
    const int64_t n = end - begin;
    if (n <= 0) return;
    const int threads = thread_count();
    if (n < 2 * min_per_thread || threads == 1) {
        for (int64_t i = begin; i < end; ++i) body(i);
        return;
    }
    detail::Job job;
    job.run_chunk = [](void* b, int64_t first, int64_t last) {
        auto& f = *static_cast<std::remove_reference_t<Body>*>(b);
        for (int64_t i = first; i < last; ++i) f(i);
    };
    job.body = const_cast<void*>(static_cast<const void*>(&body));
    job.begin = begin;
    job.end = end;
    job.chunk = std::max<int64_t>(min_per_thread, n / (int64_t{threads} * 8));
    job.chunks = (n + job.chunk - 1) / job.chunk;
    if (!detail::pool().run(job)) job.work();  // busy (nested or concurrent): this thread alone
}

}  // namespace ipt::cpu
