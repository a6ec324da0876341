// SPDX-License-Identifier: Apache-2.0
// Device memory of the test plugins' own devices: host memory from malloc,
// so that tests can read it back. Include after the plugin header the plugin
// is built against (the current one or a frozen one: these slots have the
// same signature in every layout).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace {
namespace host_memory {

ipt_status alloc(uint32_t, uint64_t bytes, void** buffer, void** address) {
    void* p = std::malloc(bytes ? bytes : 1);
    if (!p) return IPT_ERR_OUT_OF_MEMORY;
    *buffer = p;
    *address = p;
    return IPT_OK;
}
void release(uint32_t, void* buffer) { std::free(buffer); }
ipt_status upload(uint32_t, void* buffer, uint64_t offset, const void* src, uint64_t bytes) {
    std::memcpy(static_cast<char*>(buffer) + offset, src, bytes);
    return IPT_OK;
}
ipt_status download(uint32_t, void* buffer, uint64_t offset, void* dst, uint64_t bytes) {
    std::memcpy(dst, static_cast<const char*>(buffer) + offset, bytes);
    return IPT_OK;
}
ipt_status sync(uint32_t) { return IPT_OK; }

}  // namespace host_memory
}  // namespace
