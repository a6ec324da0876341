// SPDX-License-Identifier: Apache-2.0
// The devices of libipt_cuda and the stream of each: every operation of a
// device is enqueued on its one stream, in call order.
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

// The device a kernel call runs on, made current on this thread.
inline const Device& device_of(const ipt::plugin::KernelArgs& args) {
    uint32_t index = args.raw()->device_index;
    auto& list = devices();
    if (index >= list.size())
        ipt::plugin::fail(IPT_ERR_INTERNAL,
                          std::string(args.op()) + ": device index out of range");
    check(cudaSetDevice(list[index].ordinal), "cudaSetDevice");
    return list[index];
}

}  // namespace ipt::cuda
