// SPDX-License-Identifier: Apache-2.0
// CUDA errors as ipt_status: every CUDA call's result goes through check(),
// which throws ipt::plugin::Error with a message naming what failed. The
// operator entry (guarded) turns that into a status and the host's message.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "ipt/ipt_plugin.hpp"

namespace ipt::cuda {

inline ipt_status status_of(cudaError_t e) {
    switch (e) {
    case cudaSuccess: return IPT_OK;
    case cudaErrorMemoryAllocation: return IPT_ERR_OUT_OF_MEMORY;
    case cudaErrorInvalidValue: return IPT_ERR_INTERNAL;
    default: return IPT_ERR_DEVICE;
    }
}

inline std::string describe(cudaError_t e) {
    return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

[[noreturn]] inline void throw_cuda(cudaError_t e, const std::string& what) {
    // Clear a non-sticky error so the next call on this thread starts clean.
    (void)cudaGetLastError();
    throw ipt::plugin::Error(status_of(e), what + ": " + describe(e));
}

inline void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw_cuda(e, what);
}

// After a kernel launch: invalid configurations and launch failures are
// reported here (errors of the running kernel come at the next synchronising
// call, as the contract says).
inline void check_launch(const char* what) {
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) throw_cuda(e, std::string(what) + " (kernel launch)");
}

}  // namespace ipt::cuda
