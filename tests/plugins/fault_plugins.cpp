// SPDX-License-Identifier: Apache-2.0
// One source, one fault per build (IPT_FAULT_<name>): each plugin breaks the
// ABI in one way, and the registry must record why and keep going.
#include <cstddef>
#include <cstring>
#include <stdexcept>

#include "ipt/ipt_plugin.h"

namespace {

[[maybe_unused]] ipt_status run_nothing(const ipt_kernel_call*) { return IPT_OK; }

// A status no version of the ABI defines.
[[maybe_unused]] ipt_status run_unknown_status(const ipt_kernel_call*) { return static_cast<ipt_status>(1234); }
[[maybe_unused]] const ipt_impl_desc unknown_status = {sizeof(ipt_impl_desc), "ipt.mean2", "unknown_status", IPT_KIND_HOST, 0,
                                      run_unknown_status, nullptr};
[[maybe_unused]] const ipt_impl_desc* const unknown_status_impls[] = {&unknown_status};

[[maybe_unused]] const ipt_impl_desc mean2 = {sizeof(ipt_impl_desc), "ipt.mean2", "", IPT_KIND_HOST, 1, run_nothing, nullptr};
[[maybe_unused]] const ipt_impl_desc* const twice[] = {&mean2, &mean2};

// Descriptions shorter than API version 1 allows: a writer built against a
// header older than any this ABI has, or one that forgot to set the size.
[[maybe_unused]] const ipt_impl_desc short_impl = {offsetof(ipt_impl_desc, run), "ipt.mean2", "", IPT_KIND_HOST, 1, run_nothing, nullptr};
[[maybe_unused]] const ipt_impl_desc* const short_impls[] = {&short_impl};

[[maybe_unused]] const ipt_device_desc short_device = {offsetof(ipt_device_desc, memory_bytes), "short", "short", "", "", 0, 0, 0};
[[maybe_unused]] const ipt_device_desc* const short_devices[] = {&short_device};
[[maybe_unused]] ipt_status mem_alloc(uint32_t, uint64_t, void**, void**) { return IPT_ERR_OUT_OF_MEMORY; }
[[maybe_unused]] void mem_free(uint32_t, void*) {}
[[maybe_unused]] ipt_status mem_copy(uint32_t, void*, uint64_t, const void*, uint64_t) { return IPT_ERR_DEVICE; }
[[maybe_unused]] ipt_status mem_read(uint32_t, void*, uint64_t, void*, uint64_t) { return IPT_ERR_DEVICE; }
[[maybe_unused]] ipt_status sync(uint32_t) { return IPT_OK; }

[[maybe_unused]] const ipt_param_schema params[] = {
    IPT_IN("A", IPT_DT_NUMERIC, 0, NULL, "image"),
    IPT_OUT("B", IPT_DT(IPT_DOUBLE), 0, "result"),
};
// The parameters are laid out one after another, but the stride claims less.
[[maybe_unused]] const ipt_op_schema short_stride = {sizeof(ipt_op_schema), "fault.stride", "", "", 2,
                                    IPT_PARAM_SCHEMA_MIN_SIZE - 8, params, NULL, IPT_CMP_EXACT, 0, "", IPT_TILING_UNKNOWN, NULL};
[[maybe_unused]] const ipt_op_schema short_schema = {offsetof(ipt_op_schema, compare), "fault.short", "", "", IPT_PARAMS(params),
                                    NULL, IPT_CMP_EXACT, 0, "", IPT_TILING_UNKNOWN, NULL};
// Schemas whose rules refer to parameters of the wrong kind, or that claim
// more parameters than any operator has.
[[maybe_unused]] const ipt_param_schema order_of_int[] = {
    IPT_IN("A", IPT_DT_NUMERIC, 0, NULL, "image"),
    IPT_INT("n", 0, NULL, "1", 1, 9, NULL, "count"),
    IPT_INT("order", IPT_P_ORDER_OF, NULL, "1", 1, 9, "n", "refers to an integer"),
    IPT_OUT("B", IPT_DT(IPT_DOUBLE), 0, "result"),
};
[[maybe_unused]] const ipt_param_schema lut_of_float[] = {
    IPT_IN("A", IPT_DT(IPT_UINT8), 0, NULL, "image"),
    IPT_FLOAT("scale", 0, "1", 0, 2, "a number"),
    IPT_IN("LUT", IPT_DT(IPT_UINT8), IPT_P_LUT, "scale", "refers to a number"),
    IPT_OUT("B", IPT_DT(IPT_UINT8), 0, "result"),
};
[[maybe_unused]] const ipt_op_schema order_ref_schema = {sizeof(ipt_op_schema), "fault.order", "", "", IPT_PARAMS(order_of_int),
                                    NULL, IPT_CMP_EXACT, 0, "", IPT_TILING_UNKNOWN, NULL};
[[maybe_unused]] const ipt_op_schema lut_ref_schema = {sizeof(ipt_op_schema), "fault.lut", "", "", IPT_PARAMS(lut_of_float),
                                    NULL, IPT_CMP_EXACT, 0, "", IPT_TILING_UNKNOWN, NULL};
[[maybe_unused]] const ipt_op_schema huge_count_schema = {sizeof(ipt_op_schema), "fault.huge", "", "", 1u << 30,
                                    sizeof(ipt_param_schema), params, NULL, IPT_CMP_EXACT, 0, "", IPT_TILING_UNKNOWN, NULL};
[[maybe_unused]] const ipt_op_schema* const order_ref_schemas[] = {&order_ref_schema};
[[maybe_unused]] const ipt_op_schema* const lut_ref_schemas[] = {&lut_ref_schema};
[[maybe_unused]] const ipt_op_schema* const huge_count_schemas[] = {&huge_count_schema};
[[maybe_unused]] const ipt_op_schema* const stride_schemas[] = {&short_stride};
[[maybe_unused]] const ipt_op_schema* const short_schemas[] = {&short_schema};

// Outputs unlike what the operator's plan or schema says: mean2's m is 1x1,
// double for a uint8 A; fault.same's B has A's size and class; and an output
// larger than any image may be.
[[maybe_unused]] const ipt_host_table* host = nullptr;
[[maybe_unused]] ipt_status allocate(const ipt_kernel_call* call, const char* name, int32_t dtype, int64_t rows,
                                     int64_t cols) {
    uint32_t index = 0;
    while (index < call->value_count && std::strcmp(ipt_op_param(call->schema, index)->name, name) != 0) ++index;
    const ipt_tensor* out = nullptr;
    return host->alloc_output(call->host_call, index, dtype, rows, cols, 1, &out);
}
[[maybe_unused]] ipt_status run_wrong_size(const ipt_kernel_call* call) { return allocate(call, "m", IPT_DOUBLE, 2, 2); }
[[maybe_unused]] ipt_status run_wrong_class(const ipt_kernel_call* call) {
    (void)allocate(call, "m", IPT_SINGLE, 1, 1);
    return IPT_OK;  // as if the refused output had been made
}
[[maybe_unused]] ipt_status run_same_size(const ipt_kernel_call* call) { return allocate(call, "B", IPT_UINT8, 3, 3); }
[[maybe_unused]] ipt_status run_huge_output(const ipt_kernel_call* call) {
    return allocate(call, "B", IPT_DOUBLE, int64_t(1) << 40, 0);
}
[[maybe_unused]] const ipt_impl_desc wrong_output_impls_[] = {
    {sizeof(ipt_impl_desc), "ipt.mean2", "wrong_size", IPT_KIND_HOST, 0, run_wrong_size, nullptr},
    {sizeof(ipt_impl_desc), "ipt.mean2", "wrong_class", IPT_KIND_HOST, 0, run_wrong_class, nullptr},
    {sizeof(ipt_impl_desc), "fault.same", "", IPT_KIND_HOST, 0, run_same_size, nullptr},
    {sizeof(ipt_impl_desc), "fault.any", "", IPT_KIND_HOST, 0, run_huge_output, nullptr},
};
[[maybe_unused]] const ipt_impl_desc* const wrong_output_impls[] = {&wrong_output_impls_[0], &wrong_output_impls_[1],
                                                                   &wrong_output_impls_[2], &wrong_output_impls_[3]};
[[maybe_unused]] const ipt_param_schema same_params[] = {
    IPT_IN("A", IPT_DT_ALL, 0, NULL, "image"),
    {"B", IPT_PARAM_OUTPUT, IPT_DT_ALL, IPT_P_SAME_SIZE | IPT_P_SAME_DTYPE, NULL, NULL, 0, 0, 0, 0, "A", "like A"},
};
[[maybe_unused]] const ipt_op_schema same_schema = {sizeof(ipt_op_schema), "fault.same", "", "", IPT_PARAMS(same_params),
                                                    NULL, IPT_CMP_EXACT, 0, "", IPT_TILING_UNKNOWN, NULL};
// An output the schema says nothing about.
[[maybe_unused]] const ipt_op_schema any_schema = {sizeof(ipt_op_schema), "fault.any", "", "", IPT_PARAMS(params),
                                                   NULL, IPT_CMP_EXACT, 0, "", IPT_TILING_UNKNOWN, NULL};
[[maybe_unused]] const ipt_op_schema* const wrong_output_schemas[] = {&same_schema, &any_schema};

// Tiling rules that are wrong in every way a plugin could get them wrong,
// one that is right, and one in a schema too short to carry it.
[[maybe_unused]] const ipt_param_schema tiling_params[] = {
    IPT_IN("A", IPT_DT_NUMERIC, 0, NULL, "image"),
    IPT_FLOATS("size", IPT_P_OPTIONAL, NULL, 1, 99, 1, 2, "window"),
    IPT_ENUM("mode", 0, "narrow|wide", "narrow", "mode"),
    IPT_IN("h", IPT_DT_FLOAT, IPT_P_OPTIONAL, NULL, "kernel"),
    IPT_OUT("B", IPT_DT(IPT_DOUBLE), 0, "result"),
};
#define IPT_TILING_FAULT(name, tiling, rule)                                                         \
    {sizeof(ipt_op_schema), "fault." name, "", "", IPT_PARAMS(tiling_params), NULL, IPT_CMP_EXACT, 0, "", \
     tiling, rule}
[[maybe_unused]] const ipt_op_schema bad_tilings[] = {
    IPT_TILING_FAULT("tiling_term", IPT_TILING_WINDOW, "blur:size"),
    IPT_TILING_FAULT("tiling_name", IPT_TILING_WINDOW, "size:nope"),
    IPT_TILING_FAULT("tiling_kind", IPT_TILING_WINDOW, "dims:size"),
    IPT_TILING_FAULT("tiling_enum", 77, "fixed:1"),
    IPT_TILING_FAULT("tiling_null", IPT_TILING_WINDOW, NULL),
    IPT_TILING_FAULT("tiling_cond", IPT_TILING_WINDOW, "mode ~ wide ? fixed:1"),
    IPT_TILING_FAULT("tiling_fixed", IPT_TILING_WINDOW, "fixed:-1"),
    IPT_TILING_FAULT("tiling_colon", IPT_TILING_WINDOW, "size"),
    IPT_TILING_FAULT("tiling_vec", IPT_TILING_WINDOW, "vec:h"),
    IPT_TILING_FAULT("tiling_point", IPT_TILING_POINTWISE, "fixed:1"),
    IPT_TILING_FAULT("tiling_ok", IPT_TILING_WINDOW, "mode=narrow ? size:size | dims:h | fixed:2 # wide looks far"),
    {IPT_SIZE_THROUGH(ipt_op_schema, compare_doc), "fault.tiling_short", "", "", IPT_PARAMS(tiling_params), NULL,
     IPT_CMP_EXACT, 0, "", IPT_TILING_WINDOW, "fixed:1"},
};
[[maybe_unused]] const ipt_op_schema* const bad_tiling_schemas[] = {
    &bad_tilings[0], &bad_tilings[1], &bad_tilings[2], &bad_tilings[3], &bad_tilings[4], &bad_tilings[5],
    &bad_tilings[6], &bad_tilings[7], &bad_tilings[8], &bad_tilings[9], &bad_tilings[10], &bad_tilings[11]};

// The table introducing the one schema a fault plugin brings.
[[maybe_unused]] const ipt_plugin_table* with_schema(ipt_plugin_table& table, const ipt_op_schema* const* schema) {
    table.schema_count = 1;
    table.schemas = schema;
    return &table;
}

[[maybe_unused]] ipt_plugin_table make_table() {
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
extern "C" IPT_PLUGIN_EXPORT const ipt_plugin_table* ipt_plugin_entry(const ipt_host_table* host_table,
                                                                      const char** reason) {
    static ipt_plugin_table table = make_table();
    host = host_table;
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
    table.impl_count = 2;
    table.impls = twice;
    return &table;
#elif defined(IPT_FAULT_short_table)
    table.header.struct_size = offsetof(ipt_plugin_table, devices);
    return &table;
#elif defined(IPT_FAULT_short_impl)
    table.impl_count = 1;
    table.impls = short_impls;
    return &table;
#elif defined(IPT_FAULT_short_device)
    table.device_count = 1;
    table.devices = short_devices;
    table.mem_alloc = mem_alloc;
    table.mem_free = mem_free;
    table.mem_upload = mem_copy;
    table.mem_download = mem_read;
    table.sync = sync;
    return &table;
#elif defined(IPT_FAULT_short_param_stride)
    return with_schema(table, stride_schemas);
#elif defined(IPT_FAULT_short_schema)
    return with_schema(table, short_schemas);
#elif defined(IPT_FAULT_order_of_int)
    return with_schema(table, order_ref_schemas);
#elif defined(IPT_FAULT_lut_of_float)
    return with_schema(table, lut_ref_schemas);
#elif defined(IPT_FAULT_unknown_status)
    table.impl_count = 1;
    table.impls = unknown_status_impls;
    return &table;
#elif defined(IPT_FAULT_huge_param_count)
    return with_schema(table, huge_count_schemas);
#elif defined(IPT_FAULT_bad_tiling)
    table.schema_count = sizeof bad_tiling_schemas / sizeof bad_tiling_schemas[0];
    table.schemas = bad_tiling_schemas;
    return &table;
#elif defined(IPT_FAULT_wrong_output)
    table.impl_count = 4;
    table.impls = wrong_output_impls;
    table.schema_count = 2;
    table.schemas = wrong_output_schemas;
    return &table;
#endif
}
#else
// The entry is there under another name only.
extern "C" IPT_PLUGIN_EXPORT const ipt_plugin_table* ipt_plugin_entry_misspelt(const ipt_host_table*, const char**) {
    return nullptr;
}
#endif
