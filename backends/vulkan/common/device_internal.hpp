// SPDX-License-Identifier: Apache-2.0
// What the files of the Vulkan device share (instance.cpp, memory.cpp,
// commands.cpp, pipelines.cpp); operator files use device.hpp.
#pragma once

#include <chrono>
#include <map>
#include <string>

#include "common/parallel_copy.hpp"
#include "device.hpp"

namespace ipt::vk {

// A message through the host's log (0 debug, 1 info, 2 warning, 3 error).
inline void log(int level, const std::string& message) {
    const ipt_host_table* h = ipt::plugin::host();
    if (h && h->log) h->log(level, "vulkan", message.c_str());
}

inline double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The host threads that copy between the caller's memory and mapped staging
// buffers (memory.cpp; IPT_HOST_COPY_THREADS, common/parallel_copy.hpp).
// Stopped by Instance::shutdown().
ipt::common::ParallelCopy& host_copy();

// One VkDeviceMemory allocation, sub-allocated first-fit (memory.cpp).
struct Block {
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize size = 0;
    uint32_t type = 0;
    MemoryKind kind = MemoryKind::DeviceLocal;
    uint8_t* mapped = nullptr;
    std::map<VkDeviceSize, VkDeviceSize> free_ranges;  // offset -> bytes
    VkDeviceSize used = 0;
};

}  // namespace ipt::vk
