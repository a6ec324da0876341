// SPDX-License-Identifier: Apache-2.0
// Copies between pageable host memory and a GPU through page-locked bounce
// buffers. From pageable memory the driver stages each copy itself, one
// piece after the other, and reached 8-12 GB/s on an H100 host where
// page-locked memory moved 54. Here each device keeps a few page-locked
// buffers (allocated on first use, reused by every later copy, freed at
// shutdown) and a copy is cut into chunks that pipeline: the host's memcpy
// of one chunk into a buffer runs while the DMA engine moves the previous
// one. An event per buffer says when its DMA is done, so a buffer is reused
// only after that. Page-locked memory (cudaHostAlloc, cudaHostRegister, the
// host images libipt locks) goes straight to cudaMemcpyAsync, and so do
// copies under kDirectBelow, whose fixed costs outweigh the rate.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace ipt::cuda::staging {

inline constexpr size_t kBufferBytes = size_t{8} << 20;   // the largest chunk
inline constexpr size_t kMinChunkBytes = size_t{1} << 20;
inline constexpr int kBuffersPerStager = 3;
// Stagers (sets of buffers) of a device: one per copy in flight; a further
// copy waits for one to come back.
inline constexpr int kMaxStagersPerDevice = 2;
inline constexpr size_t kDirectBelow = size_t{256} << 10;

// Whether all of [p, p + bytes) is page-locked host memory or memory the GPU
// addresses directly (device, managed): a copy of it needs no staging.
bool directly_copyable(const void* p, size_t bytes);

// Copies `bytes` from pageable `src` to device memory `dst` on `stream` of
// the device at `index`. Returns false in *staged when no staging buffers
// can be had (page-locked memory refused): the caller then copies directly.
// On return the caller may reuse `src`; the DMA of the last chunks may still
// be queued on `stream`.
cudaError_t upload(uint32_t index, void* dst, const void* src, size_t bytes, cudaStream_t stream, bool* staged);
// Copies `bytes` from device memory `src` to pageable `dst` after the work
// queued on `stream`; on return every byte is in `dst`.
cudaError_t download(uint32_t index, void* dst, const void* src, size_t bytes, cudaStream_t stream, bool* staged);
// Host threads besides the caller's that copy into and out of the buffers.
unsigned copy_helpers();
// Frees every device's buffers (plugin shutdown; no copy may be running).
void release_all();

}  // namespace ipt::cuda::staging
