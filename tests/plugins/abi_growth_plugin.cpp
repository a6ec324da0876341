// SPDX-License-Identifier: Apache-2.0
// A plugin built against a frozen plugin header instead of api/include:
// abi_oldest/ (libipt_abi_oldest: every struct at its API version 1 layout) or
// abi_newer/ (libipt_abi_newer, IPT_ABI_NEWER: every struct one field longer,
// API version 2). It crosses the ABI in every direction that can grow:
//
//   - a device of its own (kind = the plugin's name, memory from malloc), in
//     the table's list of device descriptions;
//   - the operator <name>.scale, which it introduces (B = A * k, or A + k
//     with mode "add"): the host reads the schema's parameters by their stride;
//   - <name>.scale on the host and on its device, and ipt.mean2 (double only)
//     on its device: it reads the host's values and the built-in schema by
//     the strides the call gives, never by its own sizeof.
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "ipt/ipt_plugin.h"

#include "host_memory.hpp"

namespace {

// ABI_API2(x): the value of a field the newer header appends (nothing in the
// oldest layout).
#if defined(IPT_ABI_NEWER)
#define ABI_NAME "abi_newer"
#define ABI_API2(x) , x
constexpr uint64_t kMemory = 3u << 20;
constexpr uint32_t kUnits = 5, kSubgroup = 9;
#else
#define ABI_NAME "abi_oldest"
#define ABI_API2(x)
constexpr uint64_t kMemory = 1u << 20;
constexpr uint32_t kUnits = 3, kSubgroup = 7;
#endif

const ipt_host_table* host = nullptr;

ipt_status failed(ipt_status status, const char* message) {
    host->set_error(message);
    return status;
}


// The value of the parameter called `name`: the schema's parameters and the
// call's values each at their own stride.
const ipt_value* value_of(const ipt_kernel_call* call, const char* name) {
    for (uint32_t i = 0; i < call->value_count; ++i)
        if (std::strcmp(ipt_op_param(call->schema, i)->name, name) == 0) return ipt_kernel_value(call, i);
    return nullptr;
}

uint32_t index_of(const ipt_kernel_call* call, const char* name) {
    for (uint32_t i = 0; i < call->value_count; ++i)
        if (std::strcmp(ipt_op_param(call->schema, i)->name, name) == 0) return i;
    return UINT32_MAX;
}

bool call_is_readable(const ipt_kernel_call* call) {
    if (call->struct_size < IPT_KERNEL_CALL_MIN_SIZE || call->value_stride < IPT_VALUE_MIN_SIZE ||
        call->schema->param_stride < IPT_PARAM_SCHEMA_MIN_SIZE)
        return false;
#if defined(IPT_ABI_NEWER)
    // Fields of API version 2 exist only where the host's sizes cover them;
    // a host of API version 1 gives none, and that is not an error.
    if (call->struct_size >= IPT_SIZE_THROUGH(ipt_kernel_call, deadline_ns) && call->deadline_ns == 1)
        return false;  // (no such host exists yet; the read is what matters)
#endif
    return true;
}

ipt_status run_scale(const ipt_kernel_call* call) {
    if (!call_is_readable(call)) return failed(IPT_ERR_ABI, ABI_NAME ": unreadable call");
    const ipt_value* a = value_of(call, "A");
    const ipt_value* k = value_of(call, "k");
    const ipt_value* mode = value_of(call, "mode");
    if (!a || !k || !mode || !a->present || !a->image || a->image->dtype != IPT_DOUBLE || !mode->str)
        return failed(IPT_ERR_INTERNAL, ABI_NAME ".scale: values not where the schema says");
    const ipt_tensor* in = a->image;
    if (in->struct_size < IPT_TENSOR_MIN_SIZE) return failed(IPT_ERR_ABI, ABI_NAME ": tensor too short");
#if defined(IPT_ABI_NEWER)
    if (in->struct_size >= IPT_SIZE_THROUGH(ipt_tensor, plane_stride) && in->plane_stride != 0 &&
        in->plane_stride != static_cast<uint64_t>(in->rows * in->row_pitch))
        return failed(IPT_ERR_UNSUPPORTED, ABI_NAME ": planes not packed");
#endif
    const ipt_tensor* out = nullptr;
    ipt_status s = host->alloc_output(call->host_call, index_of(call, "B"), IPT_DOUBLE, in->rows, in->cols,
                                      in->channels, &out);
    if (s != IPT_OK) return s;
    const bool add = std::strcmp(mode->str, "add") == 0;
    const auto* x = static_cast<const double*>(in->data);
    auto* y = static_cast<double*>(out->data);
    for (int64_t i = 0; i < in->rows * in->cols * in->channels; ++i) y[i] = add ? x[i] + k->f : x[i] * k->f;
    return IPT_OK;
}

ipt_status run_mean2(const ipt_kernel_call* call) {
    if (!call_is_readable(call)) return failed(IPT_ERR_ABI, ABI_NAME ": unreadable call");
    const ipt_value* a = value_of(call, "A");
    if (!a || !a->image) return failed(IPT_ERR_INTERNAL, ABI_NAME ": ipt.mean2 without 'A'");
    if (a->image->dtype != IPT_DOUBLE) return failed(IPT_ERR_UNSUPPORTED, ABI_NAME " handles double only");
    const ipt_tensor* out = nullptr;
    ipt_status s = host->alloc_output(call->host_call, index_of(call, "m"), IPT_DOUBLE, 1, 1, 1, &out);
    if (s != IPT_OK) return s;
    const int64_t n = a->image->rows * a->image->cols;
    double sum = 0;
    for (int64_t i = 0; i < n; ++i) sum += static_cast<const double*>(a->image->data)[i];
    *static_cast<double*>(out->data) = n ? sum / static_cast<double>(n) : NAN;
    return IPT_OK;
}

// Positional initialisers, a C writer's way; the newer layout's appended
// fields get values the host must not need.
const ipt_param_schema kParams[] = {
    {"A", IPT_PARAM_INPUT, IPT_DT(IPT_DOUBLE), IPT_P_NONEMPTY, nullptr, nullptr, 0, 0, 0, 0, nullptr,
     "image" ABI_API2("px")},
    {"k", IPT_PARAM_FLOAT, 0, IPT_P_FINITE, nullptr, "2", -1e6, 1e6, 0, 0, nullptr,
     "factor or term" ABI_API2("1")},
    {"mode", IPT_PARAM_ENUM, 0, 0, "mul|add", "mul", 0, 0, 0, 0, nullptr, "A*k or A+k" ABI_API2("")},
    {"B", IPT_PARAM_OUTPUT, IPT_DT(IPT_DOUBLE), 0, nullptr, nullptr, 0, 0, 0, 0, nullptr,
     "result" ABI_API2("px")},
};

const ipt_op_schema kScale = {sizeof(ipt_op_schema),
                              ABI_NAME ".scale",
                              "",
                              "A * k or A + k (ABI growth test)",
                              sizeof kParams / sizeof kParams[0],
                              sizeof(ipt_param_schema),
                              kParams,
                              nullptr,
                              IPT_CMP_EXACT,
                              0,
                              "exact" ABI_API2("API 2")};
const ipt_op_schema* const kSchemas[] = {&kScale};

const ipt_device_desc kDevice = {sizeof(ipt_device_desc), ABI_NAME " device", ABI_NAME, "OpenIPT tests",
                                 ABI_NAME "-0", kMemory, kUnits, kSubgroup ABI_API2(kMemory / 2)};
const ipt_device_desc* const kDevices[] = {&kDevice};

const ipt_impl_desc kImpls[] = {
    {sizeof(ipt_impl_desc), ABI_NAME ".scale", "", IPT_KIND_HOST, 1, run_scale, nullptr ABI_API2(7)},
    {sizeof(ipt_impl_desc), ABI_NAME ".scale", "", ABI_NAME, 2, run_scale, nullptr ABI_API2(7)},
    {sizeof(ipt_impl_desc), "ipt.mean2", "", ABI_NAME, 0, run_mean2, nullptr ABI_API2(7)},
};
const ipt_impl_desc* const kImplList[] = {&kImpls[0], &kImpls[1], &kImpls[2]};

void trim(uint32_t) {}

ipt_plugin_table make_table() {
    ipt_plugin_table t{};
    t.header = {sizeof(ipt_plugin_table), IPT_ABI_VERSION, IPT_API_VERSION};
    t.name = ABI_NAME;
    t.vendor = "OpenIPT tests";
    t.version = "1";
    t.device_count = 1;
    t.devices = kDevices;
    t.device_note = "";
    t.mem_alloc = host_memory::alloc;
    t.mem_free = host_memory::release;
    t.mem_upload = host_memory::upload;
    t.mem_download = host_memory::download;
    t.sync = host_memory::sync;
    t.impl_count = 3;
    t.impls = kImplList;
    t.schema_count = 1;
    t.schemas = kSchemas;
#if defined(IPT_ABI_NEWER)
    t.trim = trim;
#else
    (void)trim;
#endif
    return t;
}

}  // namespace

extern "C" IPT_PLUGIN_EXPORT const ipt_plugin_table* ipt_plugin_entry(const ipt_host_table* h, const char** reason) {
    if (!h || h->header.abi_version != IPT_ABI_VERSION || h->header.struct_size < IPT_HOST_TABLE_MIN_SIZE) {
        if (reason) *reason = ABI_NAME ": the host speaks another ABI version";
        return nullptr;
    }
    host = h;
#if defined(IPT_ABI_NEWER)
    // A slot of API version 2: present only if the host's table covers it.
    if (h->header.struct_size >= IPT_SIZE_THROUGH(ipt_host_table, now_ns) && h->now_ns) (void)h->now_ns();
#endif
    static const ipt_plugin_table table = make_table();
    return &table;
}
