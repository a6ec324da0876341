// SPDX-License-Identifier: Apache-2.0
// A memcpy split over a few host threads, for the copies between a caller's
// pageable memory and a GPU plugin's page-locked staging buffers. One host
// thread copies memory at a fraction of what the memory system and the bus
// can move (7 GB/s on an H100 host whose PCIe link moves 54 from page-locked
// memory), so a staged copy is only faster than the driver's own staging
// when the host's side of it runs on several cores.
//
// A process-wide crew of worker threads per plugin, started on the first
// copy that asks for more than one thread, stopped by stop() (plugin
// shutdown). The thread that calls copy() works on its own copy too, so a
// crew of n workers copies with n + 1 threads; several copies may run at
// once (their pieces queue, first come first served). The workers never
// touch a copy after its last piece is counted, so copy() returns as soon
// as every byte is in place.
//
// A staged copy is a series of chunk copies a few microseconds apart, and on
// a virtual machine waking a sleeping thread took up to a hundred: the
// workers, and a caller waiting for them, poll for kSpin before they sleep.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "ipt/ipt_plugin.hpp"

namespace ipt::common {

class ParallelCopy {
public:
    // Pieces below this are not worth a hand-off to another thread.
    static constexpr size_t kMinPieceBytes = size_t{256} << 10;
    static constexpr std::chrono::microseconds kSpin{200};

    // `helpers` worker threads besides the caller's; 0 makes copy() a memcpy.
    explicit ParallelCopy(unsigned helpers) : helpers_(helpers) {}
    ~ParallelCopy() { stop(); }
    ParallelCopy(const ParallelCopy&) = delete;
    ParallelCopy& operator=(const ParallelCopy&) = delete;

    unsigned helpers() const { return helpers_; }

    void copy(void* dst, const void* src, size_t bytes) {
        const size_t pieces = piece_count(bytes);
        if (pieces <= 1 || !start()) {
            if (bytes) std::memcpy(dst, src, bytes);
            return;
        }
        Job job{static_cast<char*>(dst), static_cast<const char*>(src), bytes, (bytes + pieces - 1) / pieces, pieces};
        {
            std::lock_guard lock(mutex_);
            queue_.push_back(&job);
            queued_.fetch_add(1, std::memory_order_release);
        }
        work_.notify_all();
        for (;;) {
            size_t k;
            {
                std::lock_guard lock(mutex_);
                if (!claim(&job, &k)) break;
            }
            run_piece(job, k);
            job.left.fetch_sub(1, std::memory_order_acq_rel);
        }
        if (spin_until([&] { return job.left.load(std::memory_order_acquire) == 0; })) return;
        std::unique_lock lock(mutex_);
        finished_.wait(lock, [&] { return job.left.load(std::memory_order_acquire) == 0; });
    }

    // Joins the workers; a later copy starts them again.
    void stop() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
            stop_flag_.store(true);
        }
        work_.notify_all();
        for (std::thread& t : workers_) t.join();
        workers_.clear();
        std::lock_guard lock(mutex_);
        stopping_ = false;
        stop_flag_.store(false);
    }

    // Helper threads for a plugin: `env` (a count, 0 for none) when it is set
    // to a whole number (above 63: 63), else up to 7 on hosts with cores to
    // spare (none on 1-2 cores, where the copy would only compete with the
    // caller's own work). A value that is not a whole number is described in
    // *complaint (for the plugin's log) and the default used.
    static unsigned helpers_from_env(const char* env, std::string* complaint = nullptr) {
        const unsigned cores = std::thread::hardware_concurrency();
        const unsigned fallback = cores <= 2 ? 0 : std::min(cores / 2, 8u) - 1;
        if (const char* v = std::getenv(env); v && *v) {
            char* end = nullptr;
            const long n = std::strtol(v, &end, 10);
            if (*end == '\0' && n >= 0) return static_cast<unsigned>(std::min<long>(n, 63));
            if (complaint)
                *complaint = std::string(env) + "='" + v + "' is not a whole number of threads; " +
                             std::to_string(fallback) + " used";
        }
        return fallback;
    }

    // A new crew for a plugin's staging, sized by IPT_HOST_COPY_THREADS; a
    // bad value is logged through the host under the plugin's name. The
    // plugin keeps it in a function-local static and never destroys it (a
    // host may exit without unloading the plugin), stopping it at shutdown.
    static ParallelCopy* for_plugin(const char* plugin) {
        std::string complaint;
        auto* crew = new ParallelCopy(helpers_from_env("IPT_HOST_COPY_THREADS", &complaint));
        const ipt_host_table* host = ipt::plugin::host();
        if (!complaint.empty() && host && host->log) host->log(2, plugin, complaint.c_str());
        return crew;
    }

private:
    struct Job {
        char* dst;
        const char* src;
        size_t bytes, piece, pieces;
        size_t next = 0;                   // the next piece to hand out (under the mutex)
        std::atomic<size_t> left{pieces};  // pieces not yet copied
    };

    // Polls `done` for up to kSpin; true once it holds.
    template <class Done>
    static bool spin_until(Done done) {
        const auto until = std::chrono::steady_clock::now() + kSpin;
        do {
            if (done()) return true;
        } while (std::chrono::steady_clock::now() < until);
        return done();
    }

    size_t piece_count(size_t bytes) const {
        if (helpers_ == 0) return 1;
        return std::clamp<size_t>(bytes / kMinPieceBytes, 1, size_t{helpers_} + 1);
    }

    // Takes the job's next piece (under the mutex); false when none is left.
    bool claim(Job* job, size_t* k) {
        if (job->next >= job->pieces) return false;
        *k = job->next++;
        if (job->next == job->pieces) {
            queue_.erase(std::find(queue_.begin(), queue_.end(), job));
            queued_.fetch_sub(1, std::memory_order_release);
        }
        return true;
    }

    static void run_piece(const Job& job, size_t k) {
        const size_t off = k * job.piece;
        if (off < job.bytes) std::memcpy(job.dst + off, job.src + off, std::min(job.piece, job.bytes - off));
    }

    // Starts the workers once; false (copy alone) when threads cannot be had.
    bool start() {
        std::unique_lock lock(mutex_);
        if (!workers_.empty()) return true;
        try {
            for (unsigned i = 0; i < helpers_; ++i) workers_.emplace_back([this] { work(); });
            return true;
        } catch (...) {
            stopping_ = true;
            stop_flag_.store(true);
            lock.unlock();
            work_.notify_all();
            for (std::thread& t : workers_) t.join();
            lock.lock();
            workers_.clear();
            stopping_ = false;
            stop_flag_.store(false);
            return false;
        }
    }

    void work() {
        for (;;) {
            spin_until([&] { return queued_.load(std::memory_order_acquire) > 0 || stop_flag_.load(); });
            std::unique_lock lock(mutex_);
            work_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
            if (stopping_) return;
            Job* job = queue_.front();
            size_t k;
            if (!claim(job, &k)) continue;
            lock.unlock();
            run_piece(*job, k);
            // The copy's owner may return the moment `left` reaches 0: the
            // job is not touched after that.
            if (job->left.fetch_sub(1, std::memory_order_acq_rel) == 1) {
                lock.lock();
                finished_.notify_all();
            }
        }
    }

    const unsigned helpers_;
    std::mutex mutex_;
    std::condition_variable work_, finished_;
    std::deque<Job*> queue_;
    std::vector<std::thread> workers_;
    bool stopping_ = false;                  // under the mutex
    std::atomic<bool> stop_flag_{false};     // the same, for polling
    std::atomic<size_t> queued_{0};          // jobs with pieces to hand out
};

}  // namespace ipt::common
