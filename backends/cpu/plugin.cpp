// SPDX-License-Identifier: Apache-2.0
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
        host->header.struct_size < IPT_HOST_TABLE_MIN_SIZE) {
        if (reason) *reason = "libipt_cpu: the host speaks another ABI version or its table is shorter than API version 1";
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
        static std::vector<const ipt_impl_desc*> impls;
        for (const ipt_impl_desc& d : ipt::cpu::registered_impls()) impls.push_back(&d);
        t.impl_count = static_cast<uint32_t>(impls.size());
        t.impls = impls.data();
        return t;
    }();
    return &table;
}
