// One source, one fault per build (IPT_FAULT_<name>): each plugin breaks the
// ABI in one way, and the registry must record why and keep going.
#include <cstddef>
#include <stdexcept>

#include "ipt/ipt_plugin.h"

namespace {

ipt_status run_nothing(const ipt_kernel_call*) { return IPT_OK; }

const ipt_impl_desc twice[] = {
    {sizeof(ipt_impl_desc), "ipt.mean2", "", IPT_KIND_HOST, 1, run_nothing, nullptr},
    {sizeof(ipt_impl_desc), "ipt.mean2", "", IPT_KIND_HOST, 1, run_nothing, nullptr},
};

ipt_plugin_table make_table() {
    ipt_plugin_table t{};
    t.header = {sizeof(ipt_plugin_table), IPT_ABI_VERSION, IPT_API_VERSION};
    t.name = "fault";
    t.vendor = "OpenIPT tests";
    t.version = "1";
    t.device_note = "";
    return t;
}

}  // namespace

#if !defined(IPT_FAULT_no_entry)
extern "C" IPT_PLUGIN_EXPORT const ipt_plugin_table* ipt_plugin_entry(const ipt_host_table*, const char** reason) {
    static ipt_plugin_table table = make_table();
    (void)reason;
    (void)table;
#if defined(IPT_FAULT_wrong_abi)
    table.header.abi_version = IPT_ABI_VERSION + 98;
    return &table;
#elif defined(IPT_FAULT_null_entry)
    *reason = "refuses to load on purpose";
    return nullptr;
#elif defined(IPT_FAULT_throws)
    (void)reason;
    throw std::runtime_error("initialisation failed on purpose");
#elif defined(IPT_FAULT_dup_op)
    (void)reason;
    table.impl_count = 2;
    table.impls = twice;
    return &table;
#elif defined(IPT_FAULT_short_table)
    (void)reason;
    table.header.struct_size = offsetof(ipt_plugin_table, devices);
    return &table;
#endif
}
#else
// The entry is there under another name only.
extern "C" IPT_PLUGIN_EXPORT const ipt_plugin_table* ipt_plugin_entry_misspelt(const ipt_host_table*, const char**) {
    (void)twice;
    (void)make_table;
    return nullptr;
}
#endif
