// SPDX-License-Identifier: Apache-2.0
// A well-behaved plugin with one device of its own ("testdev", memory from
// malloc, so the tests can read it back), used to test dispatch, transfers
// between devices, declined calls and native handles.
//
// It implements ipt.mean2 on its device for logical/uint8 inputs only and
// declines every other class (IPT_ERR_UNSUPPORTED), a variant "slow" of it,
// and ipt.imlincomb with a variant "throws" that throws a C++ exception.
// Built twice: IPT_TESTDEV_SECOND makes "testdev2", a second plugin with a
// device of its own, for handing calls from one device to another; it also
// takes the caller's memory (mem_wrap: any host address, as its memory is
// host memory) and a caller's queue (set_stream), which "testdev" does not.
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "ipt/ipt_plugin.hpp"

#include "host_memory.hpp"

namespace {

using ipt::plugin::KernelArgs;

#ifdef IPT_TESTDEV_SECOND
constexpr const char* plugin_name = "testdev2";
#define IPT_TESTDEV_KIND "testdev2"
const ipt_device_desc device = {sizeof(ipt_device_desc), "second test device", IPT_TESTDEV_KIND, "OpenIPT tests",
                                "testdev-1", 1u << 20, 1, 0};
#else
constexpr const char* plugin_name = "testdev";
#define IPT_TESTDEV_KIND "testdev"
const ipt_device_desc device = {sizeof(ipt_device_desc), "test device", IPT_TESTDEV_KIND, "OpenIPT tests",
                                "testdev-0", 1u << 20, 1, 0};
#endif

int native_token = 42;

ipt_status native_handle(uint32_t, int32_t kind, void*, void** out) {
    if (kind != IPT_NATIVE_CUDA_STREAM) return IPT_ERR_UNSUPPORTED;
    *out = &native_token;
    return IPT_OK;
}

ipt_status mean2_uint8(const ipt_kernel_call* call) {
    return ipt::plugin::guarded([&] {
        KernelArgs args(call);
        const ipt_tensor* a = args.image("A");
        if (a->dtype != IPT_UINT8 && a->dtype != IPT_LOGICAL) ipt::plugin::unsupported("testdev handles uint8 and logical only");
        // The native handle of our own device must be reachable through the host.
        if (args.native(IPT_NATIVE_CUDA_STREAM) != &native_token) ipt::plugin::fail(IPT_ERR_INTERNAL, "wrong native handle");
        const auto* p = static_cast<const uint8_t*>(a->data);
        const int64_t n = a->rows * a->cols * a->channels;
        uint64_t sum = 0;
        for (int64_t i = 0; i < n; ++i) sum += p[i];
        const ipt_tensor* m = args.output("m", IPT_DOUBLE, 1, 1);
        *static_cast<double*>(m->data) = n ? static_cast<double>(sum) / static_cast<double>(n) : NAN;
    });
}

// The same operator made slow on purpose, with the highest static priority:
// the measured selection must not pick it.
ipt_status mean2_slow(const ipt_kernel_call* call) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return mean2_uint8(call);
}

ipt_status imlincomb_throws(const ipt_kernel_call*) { throw std::runtime_error("thrown on purpose"); }

#ifdef IPT_TESTDEV_SECOND
// Addresses below this one are refused, as a GPU plugin refuses memory that
// is not its device's.
constexpr uintptr_t kLowestAddress = 4096;

ipt_status mem_wrap(uint32_t, void* address, uint64_t, void** buffer) {
    if (reinterpret_cast<uintptr_t>(address) < kLowestAddress) {
        ipt::plugin::set_error("native_address is not memory of the test device");
        return IPT_ERR_INVALID_ARGUMENT;
    }
    *buffer = address;
    return IPT_OK;
}

void* caller_queue = nullptr;
ipt_status set_stream(uint32_t, void* stream) {
    caller_queue = stream;
    return IPT_OK;
}
#endif

const ipt_impl_desc impls[] = {
    {sizeof(ipt_impl_desc), "ipt.mean2", "", IPT_TESTDEV_KIND, 500, mean2_uint8, nullptr},
    {sizeof(ipt_impl_desc), "ipt.mean2", "slow", IPT_TESTDEV_KIND, 1000, mean2_slow, nullptr},
    {sizeof(ipt_impl_desc), "ipt.imlincomb", "throws", IPT_TESTDEV_KIND, 0, imlincomb_throws, nullptr},
};
const ipt_impl_desc* const impl_list[] = {&impls[0], &impls[1], &impls[2]};
const ipt_device_desc* const device_list[] = {&device};

}  // namespace

extern "C" IPT_PLUGIN_EXPORT const ipt_plugin_table* ipt_plugin_entry(const ipt_host_table* host, const char**) {
    ipt::plugin::host() = host;
    static ipt_plugin_table t = [] {
        ipt_plugin_table table{};
        table.header = {sizeof(ipt_plugin_table), IPT_ABI_VERSION, IPT_API_VERSION};
        table.name = plugin_name;
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
        table.native_handle = native_handle;
        table.impl_count = sizeof impl_list / sizeof impl_list[0];
        table.impls = impl_list;
#ifdef IPT_TESTDEV_SECOND
        table.mem_wrap = mem_wrap;
        table.set_stream = set_stream;
#endif
        return table;
    }();
    return &t;
}
