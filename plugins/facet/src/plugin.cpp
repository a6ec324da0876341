// SPDX-License-Identifier: Apache-2.0
// libipt_facet: an operator-only plugin. It owns no devices; it introduces
// the operator facet.robust (its schema travels in the table) and implements
// it on the host ("cpu") and, when built with CUDA, on the devices of
// whichever plugin provides kind "cuda" (the CUDA backend), reaching their
// streams through the host table.
#include <ipt/ipt_plugin.h>
#include <ipt/ipt_plugin.hpp>

#include "facet_impls.hpp"
#include "facet_op.hpp"

#ifndef FACET_VERSION_STRING
#define FACET_VERSION_STRING "0"
#endif

namespace facet {
namespace {

const ipt_impl_desc kCpu = {sizeof(ipt_impl_desc), kOpName, "", IPT_KIND_HOST, 0, run_cpu, nullptr};
#if defined(FACET_HAVE_CUDA)
const ipt_impl_desc kCuda = {sizeof(ipt_impl_desc), kOpName, "", "cuda", 10, run_cuda, nullptr};
#endif
// The table lists descriptions by pointer, so either side may be built
// against a header whose ipt_impl_desc is longer.
const ipt_impl_desc* const kImpls[] = {
    &kCpu,
#if defined(FACET_HAVE_CUDA)
    &kCuda,
#endif
};

const ipt_op_schema* const kSchemas[] = {&kRobustSchema};

ipt_plugin_table make_table() {
    ipt_plugin_table t{};
    t.header.struct_size = sizeof(ipt_plugin_table);
    t.header.abi_version = IPT_ABI_VERSION;
    t.header.api_version = IPT_API_VERSION;
    t.name = "facet";
    t.vendor = "OpenIPT example plugin (plugins/facet)";
    t.version = FACET_VERSION_STRING;
    t.device_count = 0;  // operator-only: no devices, no memory functions
    t.devices = nullptr;
    t.device_note = "operator-only plugin: runs on the host and on devices of kind 'cuda'";
    t.impl_count = IPT_COUNT_OF(kImpls);
    t.impls = kImpls;
    t.schema_count = IPT_COUNT_OF(kSchemas);
    t.schemas = kSchemas;
    t.shutdown = nullptr;
    return t;
}

}  // namespace
}  // namespace facet

extern "C" IPT_PLUGIN_EXPORT const ipt_plugin_table* ipt_plugin_entry(const ipt_host_table* host,
                                                                      const char** reason) {
    if (!host || host->header.abi_version != IPT_ABI_VERSION) {
        if (reason) *reason = "libipt_facet: host speaks another ABI version";
        return nullptr;
    }
    if (host->header.struct_size < IPT_HOST_TABLE_MIN_SIZE) {
        if (reason) *reason = "libipt_facet: host table too short (needs API version 1)";
        return nullptr;
    }
    ipt::plugin::host() = host;
    static const ipt_plugin_table table = facet::make_table();
    return &table;
}
