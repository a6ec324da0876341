// SPDX-License-Identifier: Apache-2.0
// Stream-ordered scratch memory with RAII: allocated with cudaMallocAsync and
// released with cudaFreeAsync on the same stream, so freeing at scope exit is
// safe while kernels that use it are still queued.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/check.hpp"

namespace ipt::cuda {

template <class T>
class DeviceArray {
public:
    DeviceArray() = default;
    DeviceArray(size_t count, cudaStream_t stream) : stream_(stream), count_(count) {
        if (count == 0) return;
        void* p = nullptr;
        check(cudaMallocAsync(&p, count * sizeof(T), stream), "cudaMallocAsync (scratch)");
        ptr_ = static_cast<T*>(p);
    }
    DeviceArray(DeviceArray&& o) noexcept
        : stream_(o.stream_), count_(std::exchange(o.count_, 0)), ptr_(std::exchange(o.ptr_, nullptr)) {}
    DeviceArray& operator=(DeviceArray&& o) noexcept {
        if (this != &o) {
            release();
            stream_ = o.stream_;
            count_ = std::exchange(o.count_, 0);
            ptr_ = std::exchange(o.ptr_, nullptr);
        }
        return *this;
    }
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;
    ~DeviceArray() { release(); }

    T* get() const { return ptr_; }
    size_t size() const { return count_; }
    size_t bytes() const { return count_ * sizeof(T); }

    // Fills with zero bytes (stream-ordered).
    void zero() {
        if (ptr_) check(cudaMemsetAsync(ptr_, 0, bytes(), stream_), "cudaMemsetAsync");
    }
    // Copies host values in (stream-ordered; the driver stages pageable memory
    // before returning, so `host` may go away afterwards).
    void upload(const T* host, size_t count) {
        if (count) check(cudaMemcpyAsync(ptr_, host, count * sizeof(T), cudaMemcpyHostToDevice, stream_),
                         "cudaMemcpyAsync (parameters to device)");
    }

private:
    void release() noexcept {
        if (ptr_) (void)cudaFreeAsync(ptr_, stream_);
        ptr_ = nullptr;
    }
    cudaStream_t stream_ = nullptr;
    size_t count_ = 0;
    T* ptr_ = nullptr;
};

// A device copy of host values.
template <class T>
DeviceArray<T> to_device(const std::vector<T>& host, cudaStream_t stream) {
    DeviceArray<T> d(host.size(), stream);
    d.upload(host.data(), host.size());
    return d;
}

}  // namespace ipt::cuda
