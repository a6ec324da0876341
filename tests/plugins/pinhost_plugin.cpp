// SPDX-License-Identifier: Apache-2.0
// A plugin with one device (memory from malloc, as "testdev") that offers
// host_register and host_unregister (API version 4). It only records what
// the host asks for; the tests read the record through the functions below,
// found with dlsym in the same loaded library, and can make it refuse.
#include <cstdint>
#include <map>
#include <mutex>

#include "ipt/ipt_plugin.hpp"

#include "host_memory.hpp"

namespace {

const ipt_device_desc device = {sizeof(ipt_device_desc), "pinning test device", "pinhost", "OpenIPT tests",
                                "pinhost-0", 1u << 20, 1, 0};
const ipt_device_desc* const device_list[] = {&device};

std::mutex record_mutex;
std::map<const void*, uint64_t> registered;  // address -> bytes
uint64_t unregister_calls = 0;
bool refuse = false;

ipt_status host_register(void* address, uint64_t bytes) {
    std::lock_guard lock(record_mutex);
    if (refuse) {
        ipt::plugin::set_error("pinhost: refused on purpose");
        return IPT_ERR_OUT_OF_MEMORY;
    }
    if (registered.count(address)) {
        ipt::plugin::set_error("pinhost: address registered twice");
        return IPT_ERR_INVALID_ARGUMENT;
    }
    registered[address] = bytes;
    return IPT_OK;
}

void host_unregister(void* address) {
    std::lock_guard lock(record_mutex);
    ++unregister_calls;
    registered.erase(address);
}

// mean2 of uint8 images on its device, so that the measured selection
// prices the device (and its copies) against the CPU's.
ipt_status mean2_uint8(const ipt_kernel_call* call) {
    return ipt::plugin::guarded([&] {
        ipt::plugin::KernelArgs args(call);
        const ipt_tensor* a = args.image("A");
        if (a->dtype != IPT_UINT8) ipt::plugin::unsupported("pinhost handles uint8 only");
        const auto* p = static_cast<const uint8_t*>(a->data);
        const int64_t n = a->rows * a->cols * a->channels;
        uint64_t sum = 0;
        for (int64_t i = 0; i < n; ++i) sum += p[i];
        const ipt_tensor* m = args.output("m", IPT_DOUBLE, 1, 1);
        *static_cast<double*>(m->data) = n ? static_cast<double>(sum) / static_cast<double>(n) : 0.0;
    });
}
const ipt_impl_desc mean2 = {sizeof(ipt_impl_desc), "ipt.mean2", "", "pinhost", 0, mean2_uint8, nullptr};
const ipt_impl_desc* const impl_list[] = {&mean2};

}  // namespace

// Bytes registered at `address` (0: not registered).
extern "C" IPT_PLUGIN_EXPORT uint64_t pinhost_registered_bytes(const void* address) {
    std::lock_guard lock(record_mutex);
    auto it = registered.find(address);
    return it == registered.end() ? 0 : it->second;
}
extern "C" IPT_PLUGIN_EXPORT uint64_t pinhost_registered_count() {
    std::lock_guard lock(record_mutex);
    return registered.size();
}
extern "C" IPT_PLUGIN_EXPORT uint64_t pinhost_unregister_calls() {
    std::lock_guard lock(record_mutex);
    return unregister_calls;
}
extern "C" IPT_PLUGIN_EXPORT void pinhost_refuse(int on) {
    std::lock_guard lock(record_mutex);
    refuse = on != 0;
}

extern "C" IPT_PLUGIN_EXPORT const ipt_plugin_table* ipt_plugin_entry(const ipt_host_table* host, const char**) {
    ipt::plugin::host() = host;
    static ipt_plugin_table t = [] {
        ipt_plugin_table table{};
        table.header = {sizeof(ipt_plugin_table), IPT_ABI_VERSION, IPT_API_VERSION};
        table.name = "pinhost";
        table.vendor = "OpenIPT tests";
        table.version = "1.0";
        table.device_count = 1;
        table.devices = device_list;
        table.device_note = "";
        table.mem_alloc = host_memory::alloc;
        table.mem_free = host_memory::release;
        table.mem_upload = host_memory::upload;
        table.mem_download = host_memory::download;
        table.sync = host_memory::sync;
        table.impl_count = 1;
        table.impls = impl_list;
        table.host_register = host_register;
        table.host_unregister = host_unregister;
        return table;
    }();
    return &t;
}
