// SPDX-License-Identifier: Apache-2.0
// Per-stream zeroed scratch (common/stream_scratch.hpp).
#include <cuda_runtime.h>

#include <mutex>
#include <unordered_map>

#include "common/check.hpp"
#include "common/stream_scratch.hpp"

namespace ipt::cuda {
namespace {

// Streams whose scratch is kept; an application that makes more streams than
// this gets a fresh block per call on the others, which costs an allocation
// and a memset but stays correct.
constexpr size_t kStreamsKept = 64;

struct Kept {
    std::mutex mutex;
    // Keyed by the stream handle and the device it was set up on: a handle
    // the driver reuses after the stream is destroyed finds the same, still
    // all-zero scratch (every kernel that used it has ended).
    std::unordered_map<cudaStream_t, std::pair<int, void*>> by_stream;
};

Kept& kept() {
    static Kept* k = new Kept;  // never destroyed: freeing at exit could race the runtime's teardown
    return *k;
}

}  // namespace

ZeroedScratch::ZeroedScratch(cudaStream_t stream, size_t bytes) {
    int device = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    // cudaStreamPerThread names a different stream in every thread: no one
    // scratch can serve it.
    if (bytes <= kStreamScratchBytes && stream != cudaStreamPerThread) {
        Kept& k = kept();
        std::lock_guard<std::mutex> lock(k.mutex);
        auto it = k.by_stream.find(stream);
        if (it != k.by_stream.end() && it->second.first == device) {
            ptr_ = it->second.second;
            return;
        }
        if (it == k.by_stream.end() && k.by_stream.size() < kStreamsKept) {
            void* p = nullptr;
            check(cudaMalloc(&p, kStreamScratchBytes), "cudaMalloc (stream scratch)");
            const cudaError_t zeroed = cudaMemsetAsync(p, 0, kStreamScratchBytes, stream);
            if (zeroed != cudaSuccess) {
                (void)cudaFree(p);
                check(zeroed, "cudaMemsetAsync (stream scratch)");
            }
            k.by_stream.emplace(stream, std::make_pair(device, p));
            ptr_ = p;
            return;
        }
    }
    own_ = DeviceArray<uint8_t>(bytes, stream);
    own_.zero();
    ptr_ = own_.get();
}

void release_stream_scratch() {
    Kept& k = kept();
    std::lock_guard<std::mutex> lock(k.mutex);
    int current = 0;
    (void)cudaGetDevice(&current);
    for (auto& [stream, entry] : k.by_stream) {
        if (cudaSetDevice(entry.first) == cudaSuccess) (void)cudaFree(entry.second);
    }
    k.by_stream.clear();
    (void)cudaSetDevice(current);
    (void)cudaGetLastError();
}

}  // namespace ipt::cuda
