// SPDX-License-Identifier: Apache-2.0
// Pinned staging of copies from and to pageable host memory (common/staging.hpp).
#include <cuda_runtime.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "common/context.hpp"
#include "common/parallel_copy.hpp"
#include "common/staging.hpp"

namespace ipt::cuda::staging {

namespace {

// One set of bounce buffers, used by one copy at a time.
struct Stager {
    void* host[kBuffersPerStager] = {};
    cudaEvent_t done[kBuffersPerStager] = {};
    bool recorded[kBuffersPerStager] = {};  // done[b] marks the last DMA through host[b]

    ~Stager() {
        for (int b = 0; b < kBuffersPerStager; ++b) {
            if (done[b]) {
                (void)cudaEventSynchronize(done[b]);
                (void)cudaEventDestroy(done[b]);
            }
            if (host[b]) (void)cudaFreeHost(host[b]);
        }
        (void)cudaGetLastError();
    }
};

struct DevicePool {
    std::mutex mutex;
    std::condition_variable returned;
    std::vector<std::unique_ptr<Stager>> all;
    std::vector<Stager*> idle;
    bool refused = false;  // page-locked memory was refused: copy directly
};

std::vector<DevicePool>& pools() {
    // devices() is complete before the first copy and never grows after.
    // Never destroyed: at exit the CUDA runtime may be gone before it
    // (shutdown() frees the buffers of a host that unloads properly).
    static auto* p = new std::vector<DevicePool>(devices().size());
    return *p;
}

// The host threads that copy between the caller's memory and the buffers
// (IPT_HOST_COPY_THREADS helpers beside the caller; by default up to 7 on
// hosts with more than 2 cores). Never destroyed, like the pools; stopped by
// release_all().
ipt::common::ParallelCopy& crew() {
    static auto* c = ipt::common::ParallelCopy::for_plugin("cuda");
    return *c;
}

// A new stager on the current device, or null (errors cleared) when the
// driver refuses the memory.
std::unique_ptr<Stager> make_stager() {
    auto s = std::make_unique<Stager>();
    for (int b = 0; b < kBuffersPerStager; ++b)
        if (cudaHostAlloc(&s->host[b], kBufferBytes, cudaHostAllocPortable) != cudaSuccess ||
            cudaEventCreateWithFlags(&s->done[b], cudaEventDisableTiming) != cudaSuccess) {
            (void)cudaGetLastError();
            return nullptr;  // the destructor frees what was made
        }
    return s;
}

// A stager of the device for the length of one copy.
class Lease {
public:
    explicit Lease(uint32_t index) : pool_(index < pools().size() ? &pools()[index] : nullptr) {
        if (!pool_) return;
        std::unique_lock lock(pool_->mutex);
        for (;;) {
            if (!pool_->idle.empty()) {
                stager_ = pool_->idle.back();
                pool_->idle.pop_back();
                return;
            }
            if (pool_->refused) return;
            if (static_cast<int>(pool_->all.size()) < kMaxStagersPerDevice) {
                if (auto s = make_stager()) {
                    stager_ = s.get();
                    pool_->all.push_back(std::move(s));
                    return;
                }
                // With none at all, stage nothing; else wait for one in use.
                if (pool_->all.empty()) {
                    pool_->refused = true;
                    return;
                }
            }
            pool_->returned.wait(lock);
        }
    }
    ~Lease() {
        if (!stager_) return;
        {
            std::lock_guard lock(pool_->mutex);
            pool_->idle.push_back(stager_);
        }
        pool_->returned.notify_one();
    }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Stager* get() const { return stager_; }

private:
    DevicePool* pool_ = nullptr;
    Stager* stager_ = nullptr;
};

// Chunks of about a quarter of the copy, so that even a copy of a few MiB
// overlaps its memcpy with its DMA, within [kMinChunkBytes, kBufferBytes].
size_t chunk_for(size_t bytes) {
    const size_t quarter = (bytes / 4 + 4095) / 4096 * 4096;
    return std::clamp(quarter, kMinChunkBytes, kBufferBytes);
}

// After a failure no buffer may be reused while a DMA of this copy may still
// run through it: wait for the stream (its own error, if any, is the one
// already being reported).
cudaError_t settle(cudaError_t e, cudaStream_t stream) {
    if (e != cudaSuccess) {
        (void)cudaStreamSynchronize(stream);
        (void)cudaGetLastError();
    }
    return e;
}

}  // namespace

bool directly_copyable(const void* p, size_t bytes) {
    if (bytes == 0) return true;
    for (const void* q : {p, static_cast<const void*>(static_cast<const char*>(p) + bytes - 1)}) {
        cudaPointerAttributes a{};
        if (cudaPointerGetAttributes(&a, q) != cudaSuccess) {
            (void)cudaGetLastError();
            return false;
        }
        if (a.type == cudaMemoryTypeUnregistered) return false;
    }
    return true;
}

cudaError_t upload(uint32_t index, void* dst, const void* src, size_t bytes, cudaStream_t stream, bool* staged) {
    Lease lease(index);
    Stager* st = lease.get();
    *staged = st != nullptr;
    if (!st) return cudaSuccess;
    const size_t chunk = chunk_for(bytes);
    auto* d = static_cast<char*>(dst);
    const auto* s = static_cast<const char*>(src);
    cudaError_t e = cudaSuccess;
    for (size_t off = 0, k = 0; off < bytes; off += chunk, ++k) {
        const size_t n = std::min(chunk, bytes - off);
        const int b = static_cast<int>(k % kBuffersPerStager);
        // The host writes the buffer: its previous DMA (of this copy or an
        // earlier one, on whatever stream) must be done.
        if (st->recorded[b] && (e = cudaEventSynchronize(st->done[b])) != cudaSuccess) return settle(e, stream);
        crew().copy(st->host[b], s + off, n);
        if ((e = cudaMemcpyAsync(d + off, st->host[b], n, cudaMemcpyHostToDevice, stream)) != cudaSuccess ||
            (e = cudaEventRecord(st->done[b], stream)) != cudaSuccess)
            return settle(e, stream);
        st->recorded[b] = true;
    }
    return cudaSuccess;
}

cudaError_t download(uint32_t index, void* dst, const void* src, size_t bytes, cudaStream_t stream, bool* staged) {
    Lease lease(index);
    Stager* st = lease.get();
    *staged = st != nullptr;
    if (!st) return cudaSuccess;
    const size_t chunk = chunk_for(bytes);
    const size_t count = (bytes + chunk - 1) / chunk;
    auto* d = static_cast<char*>(dst);
    const auto* s = static_cast<const char*>(src);
    // Queues the DMA of chunk k into its buffer, after the buffer's previous
    // DMA (an upload's, maybe on another stream) on the device's side.
    auto issue = [&](size_t k) {
        const int b = static_cast<int>(k % kBuffersPerStager);
        const size_t off = k * chunk, n = std::min(chunk, bytes - off);
        cudaError_t e = cudaSuccess;
        if (st->recorded[b] && (e = cudaStreamWaitEvent(stream, st->done[b], 0)) != cudaSuccess) return e;
        if ((e = cudaMemcpyAsync(st->host[b], s + off, n, cudaMemcpyDeviceToHost, stream)) != cudaSuccess ||
            (e = cudaEventRecord(st->done[b], stream)) != cudaSuccess)
            return e;
        st->recorded[b] = true;
        return cudaSuccess;
    };
    cudaError_t e = cudaSuccess;
    for (size_t k = 0; k < std::min<size_t>(count, kBuffersPerStager); ++k)
        if ((e = issue(k)) != cudaSuccess) return settle(e, stream);
    for (size_t k = 0; k < count; ++k) {
        const int b = static_cast<int>(k % kBuffersPerStager);
        const size_t off = k * chunk, n = std::min(chunk, bytes - off);
        if ((e = cudaEventSynchronize(st->done[b])) != cudaSuccess) return settle(e, stream);
        crew().copy(d + off, st->host[b], n);
        // The buffer is free again: the DMA of a later chunk may fill it.
        if (k + kBuffersPerStager < count && (e = issue(k + kBuffersPerStager)) != cudaSuccess)
            return settle(e, stream);
    }
    return cudaSuccess;
}

unsigned copy_helpers() { return crew().helpers(); }

void release_all() {
    auto& list = pools();
    // The crew has copied only through stagers: without any, it never started.
    bool staged = false;
    for (DevicePool& p : list) {
        std::lock_guard lock(p.mutex);
        staged = staged || !p.all.empty();
    }
    if (staged) crew().stop();
    for (size_t i = 0; i < list.size(); ++i) {
        DevicePool& p = list[i];
        std::lock_guard lock(p.mutex);
        if (!p.all.empty() && cudaSetDevice(devices()[i].ordinal) == cudaSuccess) {
            p.idle.clear();
            p.all.clear();
        }
        p.refused = false;
    }
    (void)cudaGetLastError();
}

}  // namespace ipt::cuda::staging
