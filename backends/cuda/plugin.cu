// SPDX-License-Identifier: Apache-2.0
// Entry of libipt_cuda: finds the NVIDIA GPUs, gives each one stream, and
// hands the host the memory functions and every registered implementation.
// The CUDA runtime is linked statically, so on a machine without a driver the
// library still loads and reports zero devices with the runtime's reason.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/check.hpp"
#include "common/context.hpp"
#include "common/stream_scratch.hpp"
#include "common/table_cache.hpp"
#include "common/op_registry.hpp"
#include "common/staging.hpp"
#include "ipt/ipt_plugin.hpp"

#ifndef IPT_VERSION_STRING
#define IPT_VERSION_STRING "0.0.0"
#endif

namespace ipt::cuda {

std::vector<ipt_impl_desc>& registered_impls() {
    static std::vector<ipt_impl_desc> impls;
    return impls;
}

std::vector<Device>& devices() {
    static std::vector<Device> list;
    return list;
}

namespace {

// Streams the calling thread gave per device index (null: the device's own).
thread_local std::vector<cudaStream_t> t_caller_streams;

}  // namespace

cudaStream_t caller_stream(uint32_t index) {
    return index < t_caller_streams.size() ? t_caller_streams[index] : nullptr;
}

const Device& device_with_stream(const Device& d, cudaStream_t s) {
    thread_local Device view;
    view = d;
    view.stream = s;
    return view;
}

namespace {

// A kernel whose attributes can be read only when this build has code the
// device can run (sm_90 machine code or PTX the driver can compile).
__global__ void probe_kernel(int* out) {
    if (out) *out = 1;
}

std::vector<ipt_device_desc>& descs() {
    static std::vector<ipt_device_desc> d;
    return d;
}
std::string& device_note() {
    static std::string note;
    return note;
}

void log(int level, const std::string& message) {
    const ipt_host_table* h = ipt::plugin::host();
    if (h && h->log) h->log(level, "cuda", message.c_str());
}

std::string uuid_text(const cudaUUID_t& u) {
    char buf[64];
    const auto* b = reinterpret_cast<const unsigned char*>(u.bytes);
    std::snprintf(buf, sizeof buf,
                  "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                  b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                  b[14], b[15]);
    return buf;
}

void discover() {
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        device_note() = "cudaGetDeviceCount failed: " + describe(e);
        (void)cudaGetLastError();
        return;
    }
    if (count == 0) {
        device_note() = "the CUDA runtime reports no device";
        return;
    }
    int driver = 0;
    (void)cudaDriverGetVersion(&driver);
    const std::string driver_text =
        "driver " + std::to_string(driver / 1000) + "." + std::to_string((driver % 1000) / 10);
    std::string skipped;
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp p{};
        if ((e = cudaGetDeviceProperties(&p, i)) != cudaSuccess) {
            skipped += "device " + std::to_string(i) + ": " + describe(e) + "; ";
            continue;
        }
        cudaFuncAttributes attr{};
        if ((e = cudaSetDevice(i)) != cudaSuccess ||
            (e = cudaFuncGetAttributes(&attr, probe_kernel)) != cudaSuccess) {
            skipped += "device " + std::to_string(i) + " (" + p.name + ", sm_" +
                       std::to_string(p.major) + std::to_string(p.minor) +
                       "): no code for it in this build, which has " IPT_CUDA_ARCHITECTURES
                       " (sm_N machine code, compute_N PTX for newer GPUs; rebuild with "
                       "-DCMAKE_CUDA_ARCHITECTURES=" +
                       std::to_string(p.major) + std::to_string(p.minor) + "): " + describe(e) + "; ";
            (void)cudaGetLastError();
            continue;
        }
        Device d;
        d.ordinal = i;
        d.sm_count = p.multiProcessorCount;
        d.shared_per_block_optin = p.sharedMemPerBlockOptin;
        d.name = p.name;
        d.identity = uuid_text(p.uuid) + " " + driver_text + " sm_" + std::to_string(p.major) +
                     std::to_string(p.minor);
        if ((e = cudaStreamCreateWithFlags(&d.stream, cudaStreamNonBlocking)) != cudaSuccess) {
            skipped += "device " + std::to_string(i) + ": cudaStreamCreate: " + describe(e) + "; ";
            continue;
        }
        // Keep freed memory in the pool: allocations of the next call are then
        // cheap and never implicitly synchronise.
        cudaMemPool_t pool;
        if (cudaDeviceGetDefaultMemPool(&pool, i) == cudaSuccess) {
            uint64_t threshold = UINT64_MAX;
            (void)cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
        }
        devices().push_back(d);
        ipt_device_desc desc{};
        desc.struct_size = sizeof desc;
        desc.kind = kDeviceKind;
        desc.vendor = "NVIDIA";
        desc.memory_bytes = p.totalGlobalMem;
        desc.compute_units = static_cast<uint32_t>(p.multiProcessorCount);
        desc.subgroup_size = static_cast<uint32_t>(p.warpSize);
        descs().push_back(desc);
    }
    // Names point into devices(), which no longer grows.
    for (size_t k = 0; k < devices().size(); ++k) {
        descs()[k].name = devices()[k].name.c_str();
        descs()[k].identity = devices()[k].identity.c_str();
    }
    if (devices().empty()) device_note() = "no usable CUDA device: " + skipped;
    else if (!skipped.empty()) log(2, "some CUDA devices were skipped: " + skipped);
}

// ---- memory functions ---------------------------------------------------------

ipt_status fail_with(cudaError_t e, const std::string& what) {
    (void)cudaGetLastError();
    ipt::plugin::set_error((what + ": " + describe(e)).c_str());
    return status_of(e);
}

bool select(uint32_t index, cudaStream_t* stream) {
    if (index >= devices().size()) {
        ipt::plugin::set_error("libipt_cuda: device index out of range");
        return false;
    }
    if (cudaSetDevice(devices()[index].ordinal) != cudaSuccess) {
        ipt::plugin::set_error("libipt_cuda: cudaSetDevice failed");
        return false;
    }
    cudaStream_t caller = caller_stream(index);
    *stream = caller ? caller : devices()[index].stream;
    return true;
}

// Work queued on `later` from now on runs after what `earlier` holds now,
// without a host synchronisation.
cudaError_t order_after(cudaStream_t later, cudaStream_t earlier) {
    cudaEvent_t ev = nullptr;
    cudaError_t e = cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
    if (e == cudaSuccess) e = cudaEventRecord(ev, earlier);
    if (e == cudaSuccess) e = cudaStreamWaitEvent(later, ev, 0);
    if (ev) (void)cudaEventDestroy(ev);  // released once it has completed
    return e;
}

// Buffers allocated on a caller's stream, freed on it: the caller's later
// work on that stream may still read them when the host frees the image.
std::mutex g_caller_alloc_mutex;
std::unordered_map<void*, cudaStream_t> g_caller_allocs;

ipt_status mem_alloc(uint32_t index, uint64_t bytes, void** buffer, void** address) {
    cudaStream_t s;
    if (!select(index, &s)) return IPT_ERR_INTERNAL;
    void* p = nullptr;
    // An empty image still gets a valid, distinct allocation.
    cudaError_t e = cudaMallocAsync(&p, bytes ? bytes : 1, s);
    if (e != cudaSuccess)
        return fail_with(e, "libipt_cuda: cannot allocate " + std::to_string(bytes) + " bytes");
    *buffer = p;
    *address = p;
    if (caller_stream(index)) {
        std::lock_guard<std::mutex> lock(g_caller_alloc_mutex);
        g_caller_allocs[p] = s;
    }
    return IPT_OK;
}

void mem_free(uint32_t index, void* buffer) {
    cudaStream_t s;
    if (!buffer || !select(index, &s)) return;
    cudaStream_t caller = nullptr;
    {
        std::lock_guard<std::mutex> lock(g_caller_alloc_mutex);
        if (auto it = g_caller_allocs.find(buffer); it != g_caller_allocs.end()) {
            caller = it->second;
            g_caller_allocs.erase(it);
        }
    }
    if (caller) {
        // Freed on the caller's stream, after what this thread and the
        // device's own stream queued too (either may have read it since).
        for (cudaStream_t earlier : {s, devices()[index].stream})
            if (earlier != caller) order_after(caller, earlier);
        s = caller;
    }
    cudaError_t e = cudaFreeAsync(buffer, s);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        log(2, "cudaFreeAsync: " + describe(e));
    }
}

// Staging through bounce buffers (staging.hpp): IPT_CUDA_STAGING=1 or 0, by
// default on when the host's side of a copy runs on several threads. With
// one host thread filling the buffers, staging moved pageable memory no
// faster than the driver's own (H100: 7.3 against 7.2 GB/s up at 64 MiB, 3.8
// against 12.2 at 4 MiB, and slower down).
bool staging_on() {
    static const bool on = [] {
        const char* v = std::getenv("IPT_CUDA_STAGING");
        if (v && std::strcmp(v, "1") == 0) return true;
        if (v && std::strcmp(v, "0") == 0) return false;
        const bool by_default = staging::copy_helpers() >= 3;
        if (v && *v)
            log(2, std::string("IPT_CUDA_STAGING='") + v + "' is neither 1 nor 0; staging is " +
                       (by_default ? "on" : "off") + " (the default)");
        return by_default;
    }();
    return on;
}

bool page_locked(const void* p) {
    cudaPointerAttributes attr{};
    const bool locked = cudaPointerGetAttributes(&attr, p) == cudaSuccess && attr.type == cudaMemoryTypeHost;
    (void)cudaGetLastError();
    return locked;
}

ipt_status mem_upload(uint32_t index, void* buffer, uint64_t offset, const void* src, uint64_t bytes) {
    cudaStream_t s;
    if (!select(index, &s)) return IPT_ERR_INTERNAL;
    if (bytes == 0) return IPT_OK;
    void* dst = static_cast<char*>(buffer) + offset;
    cudaError_t e = cudaSuccess;
    if (staging_on() && bytes >= staging::kDirectBelow && !staging::directly_copyable(src, bytes)) {
        bool staged = false;
        if ((e = staging::upload(index, dst, src, bytes, s, &staged)) != cudaSuccess)
            return fail_with(e, "libipt_cuda: upload");
        if (staged) return IPT_OK;
    }
    if ((e = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s)) != cudaSuccess)
        return fail_with(e, "libipt_cuda: upload");
    // Pageable memory is staged before cudaMemcpyAsync returns; page-locked
    // memory is read later by the DMA engine, so wait before the caller may
    // reuse it.
    if (page_locked(src) && (e = cudaStreamSynchronize(s)) != cudaSuccess)
        return fail_with(e, "libipt_cuda: upload (queued work failed)");
    return IPT_OK;
}

ipt_status mem_download(uint32_t index, void* buffer, uint64_t offset, void* dst, uint64_t bytes) {
    cudaStream_t s;
    if (!select(index, &s)) return IPT_ERR_INTERNAL;
    const void* src = static_cast<const char*>(buffer) + offset;
    cudaError_t e = cudaSuccess;
    bool staged = false;
    if (staging_on() && bytes >= staging::kDirectBelow && !staging::directly_copyable(dst, bytes) &&
        (e = staging::download(index, dst, src, bytes, s, &staged)) != cudaSuccess)
        return fail_with(e, "libipt_cuda: download (or queued work on the device failed)");
    if (bytes && !staged && (e = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s)) != cudaSuccess)
        return fail_with(e, "libipt_cuda: download");
    if ((e = cudaStreamSynchronize(s)) != cudaSuccess)
        return fail_with(e, "libipt_cuda: queued work on the device failed");
    return IPT_OK;
}

ipt_status sync(uint32_t index) {
    cudaStream_t s;
    if (!select(index, &s)) return IPT_ERR_INTERNAL;
    cudaError_t e = cudaStreamSynchronize(s);
    if (e != cudaSuccess) return fail_with(e, "libipt_cuda: queued work on the device failed");
    return IPT_OK;
}

ipt_status native_handle(uint32_t index, int32_t kind, void* /*buffer*/, void** out) {
    if (index >= devices().size()) {
        ipt::plugin::set_error("libipt_cuda: device index out of range");
        return IPT_ERR_NOT_FOUND;
    }
    switch (kind) {
    case IPT_NATIVE_CUDA_DEVICE:
        *out = reinterpret_cast<void*>(static_cast<intptr_t>(devices()[index].ordinal));
        return IPT_OK;
    case IPT_NATIVE_CUDA_STREAM:
        *out = caller_stream(index) ? caller_stream(index) : devices()[index].stream;
        return IPT_OK;
    default:
        ipt::plugin::set_error("libipt_cuda: native handle kind not provided by this plugin");
        return IPT_ERR_NOT_FOUND;
    }
}

// Memory the host's caller owns: both ends must be device (or managed)
// memory of this device's GPU. The runtime cannot tell where an allocation
// ends; checking the last byte catches a range that runs off the mapping.
ipt_status mem_wrap(uint32_t index, void* address, uint64_t bytes, void** buffer) {
    cudaStream_t s;
    if (!select(index, &s)) return IPT_ERR_INTERNAL;
    const int ordinal = devices()[index].ordinal;
    for (int end = 0; end < 2; ++end) {
        const void* p = static_cast<const char*>(address) + (end && bytes ? bytes - 1 : 0);
        const char* which = end ? "the last byte of native_address" : "native_address";
        cudaPointerAttributes attr{};
        const cudaError_t e = cudaPointerGetAttributes(&attr, p);
        if (e != cudaSuccess) {
            (void)cudaGetLastError();
            ipt::plugin::set_error((std::string(which) + " is not CUDA memory: " + describe(e)).c_str());
            return IPT_ERR_INVALID_ARGUMENT;
        }
        if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged) {
            ipt::plugin::set_error((std::string(which) + " is not CUDA device memory (" +
                                    (attr.type == cudaMemoryTypeHost ? "pinned host memory" : "host memory") + ")")
                                       .c_str());
            return IPT_ERR_INVALID_ARGUMENT;
        }
        if (attr.device != ordinal) {
            ipt::plugin::set_error((std::string(which) + " is memory of CUDA device " + std::to_string(attr.device) +
                                    ", not of this device (CUDA device " + std::to_string(ordinal) + ")")
                                       .c_str());
            return IPT_ERR_INVALID_ARGUMENT;
        }
    }
    *buffer = address;
    return IPT_OK;
}

// Switches the calling thread's queue for the device; an event orders what
// was queued on the previous stream before what comes on the next.
ipt_status set_stream(uint32_t index, void* stream) {
    cudaStream_t prev;
    if (!select(index, &prev)) return IPT_ERR_INTERNAL;
    cudaStream_t next = stream ? static_cast<cudaStream_t>(stream) : devices()[index].stream;
    if (next != prev) {
        if (cudaError_t e = order_after(next, prev); e != cudaSuccess)
            return fail_with(e, "libipt_cuda: stream is not a usable stream of this device");
    }
    if (t_caller_streams.size() < devices().size()) t_caller_streams.resize(devices().size(), nullptr);
    t_caller_streams[index] = static_cast<cudaStream_t>(stream);
    return IPT_OK;
}

// Page-locks host memory that the host allocated (a big host image), for
// every device of the process (portable), so that its copies skip staging.
ipt_status host_register(void* address, uint64_t bytes) {
    if (devices().empty()) {
        ipt::plugin::set_error("libipt_cuda: no CUDA device");
        return IPT_ERR_UNSUPPORTED;
    }
    cudaError_t e = cudaSetDevice(devices()[0].ordinal);
    if (e == cudaSuccess) e = cudaHostRegister(address, bytes, cudaHostRegisterPortable);
    if (e != cudaSuccess)
        return fail_with(e, "libipt_cuda: cannot page-lock " + std::to_string(bytes) + " bytes of host memory");
    return IPT_OK;
}

void host_unregister(void* address) {
    const cudaError_t e = cudaHostUnregister(address);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        log(0, "cudaHostUnregister: " + describe(e));
    }
}

void shutdown() {
    staging::release_all();
    for (Device& d : devices()) {
        if (d.stream && cudaSetDevice(d.ordinal) == cudaSuccess) {
            table_cache(d.ordinal).clear(d.stream);
            (void)cudaStreamSynchronize(d.stream);
            (void)cudaStreamDestroy(d.stream);
        }
        d.stream = nullptr;
    }
    release_stream_scratch();
    (void)cudaGetLastError();
}

}  // namespace
}  // namespace ipt::cuda

extern "C" IPT_PLUGIN_EXPORT const ipt_plugin_table* ipt_plugin_entry(const ipt_host_table* host,
                                                                        const char** reason) {
    if (!host || host->header.abi_version != IPT_ABI_VERSION ||
        host->header.struct_size < IPT_HOST_TABLE_MIN_SIZE) {
        if (reason) *reason = "libipt_cuda: the host speaks another ABI version or its table is shorter than API version 1";
        return nullptr;
    }
    ipt::plugin::host() = host;
    static std::once_flag once;
    std::call_once(once, ipt::cuda::discover);
    // A host that called shutdown() and then asks again (without unloading)
    // gets its streams back.
    for (ipt::cuda::Device& d : ipt::cuda::devices())
        if (!d.stream && cudaSetDevice(d.ordinal) == cudaSuccess &&
            cudaStreamCreateWithFlags(&d.stream, cudaStreamNonBlocking) != cudaSuccess) {
            if (reason) *reason = "libipt_cuda: cannot create a CUDA stream";
            return nullptr;
        }
    static ipt_plugin_table table = [] {
        using namespace ipt::cuda;
        ipt_plugin_table t{};
        t.header = {sizeof(ipt_plugin_table), IPT_ABI_VERSION, IPT_API_VERSION};
        t.name = "cuda";
        t.vendor = "OpenIPT";
        t.version = IPT_VERSION_STRING;
        t.device_count = static_cast<uint32_t>(devices().size());
        static std::vector<const ipt_device_desc*> device_list;
        for (const ipt_device_desc& d : descs()) device_list.push_back(&d);
        t.devices = device_list.data();
        t.device_note = device_note().c_str();
        t.mem_alloc = mem_alloc;
        t.mem_free = mem_free;
        t.mem_upload = mem_upload;
        t.mem_download = mem_download;
        t.sync = sync;
        t.native_handle = native_handle;
        // With no device the implementations are still listed (they bind to no
        // device), so `ipt info` shows what the plugin offers.
        static std::vector<const ipt_impl_desc*> impls;
        for (const ipt_impl_desc& d : registered_impls()) impls.push_back(&d);
        t.impl_count = static_cast<uint32_t>(impls.size());
        t.impls = impls.data();
        t.shutdown = shutdown;
        t.mem_wrap = mem_wrap;
        t.set_stream = set_stream;
        t.host_register = host_register;
        t.host_unregister = host_unregister;
        return t;
    }();
    return &table;
}
