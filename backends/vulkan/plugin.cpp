// SPDX-License-Identifier: Apache-2.0
// Entry of libipt_vulkan: devices found through the Vulkan loader, memory
// functions over the sub-allocator, native handles, and the operator table.
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "common/device.hpp"
#include "ipt/ipt_plugin.hpp"
#include "op_support.hpp"

#ifndef IPT_VERSION_STRING
#define IPT_VERSION_STRING "0.0.0"
#endif

namespace ipt::vk {

//                          variant   wave group  gx  gy  per  vec
const Tuning kWave32 = {"wave32", 32, 128, 32, 4, 1, 1};
const Tuning kWave64 = {"wave64", 64, 256, 64, 4, 4, 4};
const Tuning kPlain = {"", 0, 128, 32, 4, 1, 1};
const Tuning kFft = {"fft", 0, 128, 32, 4, 1, 1};

const Tuning* tuning_named(const char* variant) {
    for (const Tuning* t : {&kWave32, &kWave64, &kPlain, &kFft})
        if (std::strcmp(t->variant, variant) == 0) return t;
    return nullptr;
}

std::vector<Registered>& registrations() {
    static std::vector<Registered> list;
    return list;
}

void check_size(const char* op, int64_t elements) {
    if (elements > kMaxElements)
        ipt::plugin::unsupported(std::string(op) +
                                 ": images of more than 2^31-1 elements are not handled by the Vulkan backend");
}

Grid grid_for(const Device& device, uint64_t items, uint64_t per_group) {
    const uint64_t groups = (items + per_group - 1) / per_group;
    Grid g;
    const uint64_t max_x = device.max_group_count(0);
    if (groups <= max_x) {
        g.x = static_cast<uint32_t>(groups);
    } else {
        g.x = static_cast<uint32_t>(max_x);
        g.y = static_cast<uint32_t>((groups + max_x - 1) / max_x);
    }
    return g;
}

VkDeviceAddress OpContext::address(const ipt_tensor* t) const {
    auto* b = static_cast<Buffer*>(t ? t->buffer : nullptr);
    if (!b || b->device != &device)
        ipt::plugin::fail(IPT_ERR_INTERNAL, std::string(op()) + ": an image is not on this Vulkan device");
    return b->address + t->offset;
}

VkPipeline OpContext::pipeline(const std::string& shader, uint32_t group_x, uint32_t group_y,
                               const std::vector<uint32_t>& extra, uint32_t vector_width) const {
    std::vector<uint32_t> constants = {group_x, group_y, tuning.per_invocation,
                                       vector_width ? vector_width : tuning.vector_width};
    constants.insert(constants.end(), extra.begin(), extra.end());
    return device.pipeline(shader, constants, tuning.wave);
}

bool OpContext::aligned(std::initializer_list<VkDeviceAddress> addresses, uint32_t bytes) {
    for (VkDeviceAddress a : addresses)
        if (a % bytes) return false;
    return true;
}

ipt_status run_op(const ipt_kernel_call* call, OpBody body) {
    return ipt::plugin::guarded([&] {
        Instance& inst = Instance::get();
        if (call->device_index >= inst.device_count())
            ipt::plugin::fail(IPT_ERR_INTERNAL, std::string(call->schema->name) + ": no Vulkan device " +
                                                    std::to_string(call->device_index));
        // impl_user points at the Tuning (see the entry below).
        const auto* tuning = static_cast<const Tuning*>(call->impl_user);
        OpContext ctx{ipt::plugin::KernelArgs(call), inst.device(call->device_index), *tuning};
        if (!ctx.device.timing_enabled()) {
            body(ctx);
            return;
        }
        // IPT_VULKAN_TIMING: the recorder's report names the call and its host time.
        struct Scope {
            Scope(const char* op, const char* variant) {
                call_in_progress() = {op, variant, std::chrono::steady_clock::now()};
            }
            ~Scope() { call_in_progress() = {}; }
        } scope(call->schema->name, tuning->variant);
        body(ctx);
    });
}

namespace {

Buffer* as_buffer(uint32_t device_index, void* buffer) {
    auto* b = static_cast<Buffer*>(buffer);
    Instance& inst = Instance::get();
    if (device_index >= inst.device_count() || !b || b->device != &inst.device(device_index))
        ipt::plugin::fail(IPT_ERR_INVALID_ARGUMENT, "vulkan: buffer does not belong to device " +
                                                       std::to_string(device_index));
    return b;
}

void check_range(const Buffer* b, uint64_t offset, uint64_t bytes) {
    if (offset > b->size || bytes > b->size - offset)
        ipt::plugin::fail(IPT_ERR_INVALID_ARGUMENT, "vulkan: copy of " + std::to_string(bytes) +
                                                       " bytes at offset " + std::to_string(offset) +
                                                       " exceeds the buffer of " + std::to_string(b->size));
}

ipt_status mem_alloc(uint32_t device_index, uint64_t bytes, void** buffer, void** address) {
    return ipt::plugin::guarded([&] {
        Instance& inst = Instance::get();
        if (device_index >= inst.device_count())
            ipt::plugin::fail(IPT_ERR_INVALID_ARGUMENT, "vulkan: no device " + std::to_string(device_index));
        Buffer* b = inst.device(device_index).allocate(bytes, MemoryKind::DeviceLocal);
        *buffer = b;
        if (address) *address = nullptr;  // not host-addressable: tensor->data stays NULL
    });
}

void mem_free(uint32_t device_index, void* buffer) {
    ipt::plugin::guarded([&] {
        if (!buffer) return;
        Buffer* b = as_buffer(device_index, buffer);
        b->device->release(b);
    });
}

ipt_status mem_upload(uint32_t device_index, void* buffer, uint64_t offset, const void* src,
                      uint64_t bytes) {
    return ipt::plugin::guarded([&] {
        Buffer* b = as_buffer(device_index, buffer);
        check_range(b, offset, bytes);
        b->device->upload(b, offset, src, bytes);
    });
}

ipt_status mem_download(uint32_t device_index, void* buffer, uint64_t offset, void* dst,
                        uint64_t bytes) {
    return ipt::plugin::guarded([&] {
        Buffer* b = as_buffer(device_index, buffer);
        check_range(b, offset, bytes);
        b->device->download(b, offset, dst, bytes);
    });
}

ipt_status sync(uint32_t device_index) {
    return ipt::plugin::guarded([&] {
        Instance& inst = Instance::get();
        if (device_index >= inst.device_count())
            ipt::plugin::fail(IPT_ERR_INVALID_ARGUMENT, "vulkan: no device " + std::to_string(device_index));
        inst.device(device_index).sync();
    });
}

ipt_status native_handle(uint32_t device_index, int32_t kind, void* buffer, void** out) {
    return ipt::plugin::guarded([&] {
        Instance& inst = Instance::get();
        if (!out) ipt::plugin::invalid("vulkan: native_handle: out is NULL");
        if (device_index >= inst.device_count())
            ipt::plugin::fail(IPT_ERR_INVALID_ARGUMENT, "vulkan: no device " + std::to_string(device_index));
        Device& d = inst.device(device_index);
        switch (kind) {
        case IPT_NATIVE_VK_INSTANCE: *out = reinterpret_cast<void*>(inst.handle()); break;
        case IPT_NATIVE_VK_PHYSICAL_DEVICE: *out = reinterpret_cast<void*>(d.physical()); break;
        case IPT_NATIVE_VK_DEVICE: *out = reinterpret_cast<void*>(d.handle()); break;
        case IPT_NATIVE_VK_QUEUE: *out = reinterpret_cast<void*>(d.queue()); break;
        case IPT_NATIVE_VK_BUFFER: {
            Buffer* b = as_buffer(device_index, buffer);
            *out = reinterpret_cast<void*>(b->buffer);
            break;
        }
        default:
            ipt::plugin::unsupported("vulkan: native handle kind " + std::to_string(kind) +
                                     " is not a Vulkan handle");
        }
    });
}

// Every context that loads the plugin calls the entry once and shutdown
// once; the devices live while any context holds the plugin.
std::mutex entry_mutex;
int entry_count = 0;
ipt_plugin_table table{};
std::vector<ipt_impl_desc> descs;
std::vector<const ipt_impl_desc*> desc_list;  // the table's list: pointers into descs

void shutdown() {
    std::lock_guard<std::mutex> lock(entry_mutex);
    if (entry_count > 0 && --entry_count == 0) Instance::get().shutdown();
}

const ipt_plugin_table* enter() {
    std::lock_guard<std::mutex> lock(entry_mutex);
    if (entry_count++ > 0) return &table;
    Instance& inst = Instance::get();
    inst.init();
    // IPT_VULKAN_VARIANT=wave64 (or wave32) registers only that tuning, so
    // every call takes that path whatever the device.
    const char* forced = std::getenv("IPT_VULKAN_VARIANT");
    descs.clear();
    desc_list.clear();
    for (const Registered& r : registrations()) {
        const Tuning* tuning = tuning_named(r.variant);
        if (!tuning) {
            const std::string message =
                std::string(r.op) + ": variant '" + r.variant + "' names no tuning; not registered";
            if (ipt::plugin::host()->log) ipt::plugin::host()->log(3, "vulkan", message.c_str());
            continue;
        }
        if (forced && *forced && *tuning->variant && std::strcmp(forced, tuning->variant) != 0)
            continue;
        descs.push_back(ipt_impl_desc{sizeof(ipt_impl_desc), r.op, tuning->variant, "vulkan",
                                      r.priority, r.fn,
                                      const_cast<void*>(static_cast<const void*>(tuning))});
    }
    for (const ipt_impl_desc& d : descs) desc_list.push_back(&d);
    table = ipt_plugin_table{};
    table.header = {sizeof(ipt_plugin_table), IPT_ABI_VERSION, IPT_API_VERSION};
    table.name = "vulkan";
    table.vendor = "OpenIPT";
    table.version = IPT_VERSION_STRING;
    table.device_count = inst.device_count();
    table.devices = inst.descs();
    table.device_note = inst.note().c_str();
    table.mem_alloc = mem_alloc;
    table.mem_free = mem_free;
    table.mem_upload = mem_upload;
    table.mem_download = mem_download;
    table.sync = sync;
    table.native_handle = native_handle;
    table.impl_count = static_cast<uint32_t>(desc_list.size());
    table.impls = desc_list.data();
    table.shutdown = shutdown;
    return &table;
}

}  // namespace
}  // namespace ipt::vk

extern "C" IPT_PLUGIN_EXPORT const ipt_plugin_table* ipt_plugin_entry(const ipt_host_table* host,
                                                                        const char** reason) {
    if (!host || host->header.abi_version != IPT_ABI_VERSION ||
        host->header.struct_size < IPT_HOST_TABLE_MIN_SIZE) {
        if (reason) *reason = "libipt_vulkan: the host speaks another ABI version or its table is shorter than API version 1";
        return nullptr;
    }
    ipt::plugin::host() = host;
    try {
        return ipt::vk::enter();
    } catch (...) {
        if (reason) *reason = "libipt_vulkan: out of memory while starting";
        return nullptr;
    }
}
