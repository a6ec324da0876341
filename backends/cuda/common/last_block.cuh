// SPDX-License-Identifier: Apache-2.0
// The last block of a grid to finish, found with a counter in zeroed stream
// scratch (common/stream_scratch.hpp): it sees every other block's global
// writes, so it can finish a reduction or a histogram in the same launch
// instead of a second one. It also resets the counter, keeping the scratch's
// all-zero contract.
#pragma once

#include <cuda_runtime.h>

namespace ipt::cuda {

// Called once by every thread of every block after the block's global
// writes; true in every thread of the one block that arrives last.
__device__ inline bool arrived_last(unsigned* counter) {
    __shared__ bool last;
    __threadfence();  // this thread's writes before the block's arrival
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
        const unsigned blocks = gridDim.x * gridDim.y * gridDim.z;
        last = atomicAdd(counter, 1u) == blocks - 1;
        // Every block has counted: nothing touches the counter again in this launch.
        if (last) *counter = 0;
    }
    __syncthreads();
    if (last) __threadfence();  // the other blocks' writes before the reads that follow
    return last;
}

}  // namespace ipt::cuda
