// Entry of libipt_cpu, the reference backend. Its implementations run on the
// host device, so it owns no device and no memory functions.
#include <vector>

#include "common/op_registry.hpp"
#include "ipt/ipt_plugin.hpp"

#ifndef IPT_VERSION_STRING
#define IPT_VERSION_STRING "0.0.0"
#endif

namespace ipt::cpu {

std::vector<ipt_impl_desc>& registered_impls() {
    static std::vector<ipt_impl_desc> impls;
    return impls;
}

}  // namespace ipt::cpu

extern "C" IPT_PLUGIN_EXPORT const ipt_plugin_table* ipt_plugin_entry(const ipt_host_table* host,
                                                                        const char** reason) {
    if (!host || host->header.abi_version != IPT_ABI_VERSION ||
        host->header.struct_size < sizeof(ipt_host_table)) {
        if (reason) *reason = "libipt_cpu needs a host table of ABI version 1";
        return nullptr;
    }
    ipt::plugin::host() = host;
    static ipt_plugin_table table = [] {
        ipt_plugin_table t{};
        t.header = {sizeof(ipt_plugin_table), IPT_ABI_VERSION, IPT_API_VERSION};
        t.name = "cpu";
        t.vendor = "OpenIPT";
        t.version = IPT_VERSION_STRING;
        t.device_note = "";
        const auto& impls = ipt::cpu::registered_impls();
        t.impl_count = static_cast<uint32_t>(impls.size());
        t.impls = impls.data();
        return t;
    }();
    return &table;
}
