// SPDX-License-Identifier: Apache-2.0
// All-zero device scratch per stream, for kernels that finish their own work
// in the last block to arrive (a reduction's total, a histogram's counts): one
// launch, no allocation and no memset per call. The contract: a kernel that
// takes the scratch leaves every byte it touched zero again before it ends
// (common/last_block.cuh), so the next call on the same stream finds it all
// zero. Calls on one stream run in order, so a stream's scratch is never used
// by two kernels at once. (Launches captured into a CUDA graph and replayed on
// several streams at once would share it; OpenIPT captures none.)
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "common/buffer.hpp"

namespace ipt::cuda {

// The size of each stream's scratch: a reduction's counter and per-block
// partials, or a 65536-bin histogram of 32-bit counts and its counter.
constexpr size_t kStreamScratchBytes = 65536 * 4 + 16384 + 256;

class ZeroedScratch {
public:
    // The stream's scratch, set up (zeroed in stream order) on first use; a
    // request larger than kStreamScratchBytes, on a stream beyond the number
    // kept, or on cudaStreamPerThread (one handle, a stream per thread) gets
    // a block of its own, zeroed and freed in stream order.
    ZeroedScratch(cudaStream_t stream, size_t bytes);
    void* get() const { return ptr_; }

private:
    void* ptr_ = nullptr;
    DeviceArray<uint8_t> own_;
};

// Frees every stream's scratch; the host calls it after its work has ended
// (the plugin's shutdown).
void release_stream_scratch();

}  // namespace ipt::cuda
