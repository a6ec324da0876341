// SPDX-License-Identifier: Apache-2.0
// Device copies of read-only host tables that operators reuse across calls
// (imresize's contribution tables): uploaded once per device, then found by
// the address of the host tables while their owner stays cached. A pageable
// upload waits for the stream, so a call that finds its tables skips the
// wait as well as the copy.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "common/check.hpp"

namespace ipt::cuda {

class DeviceTableCache {
public:
    DeviceTableCache() = default;
    DeviceTableCache(const DeviceTableCache&) = delete;
    DeviceTableCache& operator=(const DeviceTableCache&) = delete;
    // Entries still held at process exit are left to the driver: freeing
    // them there could race the runtime's own teardown.
    ~DeviceTableCache() = default;

    // The device copy of bytes at host, owned by owner (kept alive while
    // cached, so its address cannot name other tables meanwhile). Uploads on
    // a miss; an evicted copy is freed in stream order, after the kernels
    // that read it.
    const void* get(cudaStream_t stream, std::shared_ptr<const void> owner, const void* host, size_t bytes) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto hit = std::find_if(entries_.begin(), entries_.end(),
                                [&](const Entry& e) { return e.host == host && e.bytes == bytes; });
        if (hit != entries_.end()) {
            std::rotate(hit, hit + 1, entries_.end());
            return entries_.back().device;
        }
        if (entries_.size() == kEntries) {
            (void)cudaFreeAsync(entries_.front().device, stream);
            entries_.erase(entries_.begin());
        }
        void* device = nullptr;
        check(cudaMallocAsync(&device, bytes ? bytes : 1, stream), "cudaMallocAsync (tables)");
        const cudaError_t copied =
            bytes ? cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, stream) : cudaSuccess;
        if (copied != cudaSuccess) {
            (void)cudaFreeAsync(device, stream);
            check(copied, "cudaMemcpyAsync (tables to device)");
        }
        entries_.push_back(Entry{std::move(owner), host, bytes, device});
        return device;
    }

    // Frees every copy in stream order (before the stream goes away).
    void clear(cudaStream_t stream) {
        std::lock_guard<std::mutex> lock(mutex_);
        for (const Entry& e : entries_) (void)cudaFreeAsync(e.device, stream);
        entries_.clear();
    }

private:
    struct Entry {
        std::shared_ptr<const void> owner;
        const void* host;
        size_t bytes;
        void* device;
    };
    static constexpr size_t kEntries = 32;
    std::mutex mutex_;
    std::vector<Entry> entries_;  // most recently used last
};

// The cache of the device with this CUDA ordinal.
inline DeviceTableCache& table_cache(int ordinal) {
    static std::mutex mutex;
    static std::map<int, std::unique_ptr<DeviceTableCache>> caches;
    std::lock_guard<std::mutex> lock(mutex);
    auto& c = caches[ordinal];
    if (!c) c = std::make_unique<DeviceTableCache>();
    return *c;
}

}  // namespace ipt::cuda
