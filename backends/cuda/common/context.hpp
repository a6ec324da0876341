// SPDX-License-Identifier: Apache-2.0
// The devices of libipt_cuda and the stream of each: every operation of a
// device is enqueued on its one stream, in call order, or on the stream the
// calling thread gave (ipt_set_native_stream).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/check.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::cuda {

struct Device {
    int ordinal = 0;
    cudaStream_t stream = nullptr;
    int sm_count = 0;
    size_t shared_per_block_optin = 0;
    std::string name, identity;
};

// Devices found at load time (plugin.cu owns them).
std::vector<Device>& devices();

// The stream the calling thread set for the device at index through the
// host's set_stream (ipt_set_native_stream), or null for the device's own.
cudaStream_t caller_stream(uint32_t index);
// A per-thread copy of d that queues on s instead (plugin.cu).
const Device& device_with_stream(const Device& d, cudaStream_t s);

// The device a kernel call runs on, made current on this thread.
inline const Device& device_of(const ipt::plugin::KernelArgs& args) {
    uint32_t index = args.raw()->device_index;
    auto& list = devices();
    if (index >= list.size())
        ipt::plugin::fail(IPT_ERR_INTERNAL,
                          std::string(args.op()) + ": device index out of range");
    check(cudaSetDevice(list[index].ordinal), "cudaSetDevice");
    if (cudaStream_t s = caller_stream(index)) return device_with_stream(list[index], s);
    return list[index];
}

}  // namespace ipt::cuda
