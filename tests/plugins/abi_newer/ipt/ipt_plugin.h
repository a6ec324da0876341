/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The plugin ABI as a later API version of ABI version 2 might define it:
 * the layout of abi_oldest/ipt/ipt_plugin.h with one field or slot appended
 * to every struct that may grow, and IPT_API_VERSION 3 (newer than the host's). The plugin built
 * against it (libipt_abi_newer) is the "newer plugin" the current host must
 * load: the host reads only what it knows, and the plugin reads an appended
 * field only where struct_size or a stride says the host provided it.
 */
#ifndef IPT_PLUGIN_H
#define IPT_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IPT_ABI_VERSION 2u
#define IPT_API_VERSION 3u
#define IPT_SIZE_THROUGH(type, field) (offsetof(type, field) + sizeof(((type*)0)->field))

typedef enum ipt_status {
    IPT_OK = 0,
    IPT_ERR_INVALID_ARGUMENT = 1,
    IPT_ERR_UNSUPPORTED = 2,
    IPT_ERR_OUT_OF_MEMORY = 3,
    IPT_ERR_NOT_FOUND = 4,
    IPT_ERR_PLUGIN = 5,
    IPT_ERR_DEVICE = 6,
    IPT_ERR_INTERNAL = 7,
    IPT_ERR_ABI = 8,
    IPT_STATUS_MAX_ENUM = 0x7FFFFFFF
} ipt_status;

typedef enum ipt_dtype {
    IPT_LOGICAL = 1,
    IPT_UINT8 = 2,
    IPT_UINT16 = 3,
    IPT_INT16 = 4,
    IPT_INT32 = 5,
    IPT_UINT32 = 6,
    IPT_SINGLE = 7,
    IPT_DOUBLE = 8,
    IPT_DTYPE_MAX_ENUM = 0x7FFFFFFF
} ipt_dtype;

typedef enum ipt_param_kind {
    IPT_PARAM_INPUT = 1,
    IPT_PARAM_OUTPUT = 2,
    IPT_PARAM_INT = 3,
    IPT_PARAM_FLOAT = 4,
    IPT_PARAM_FLOATS = 5,
    IPT_PARAM_ENUM = 6,
    IPT_PARAM_KIND_MAX_ENUM = 0x7FFFFFFF
} ipt_param_kind;

#define IPT_DT(d) (1u << (d))
#define IPT_P_OPTIONAL 0x0001u
#define IPT_P_NONEMPTY 0x0008u
#define IPT_P_FINITE 0x0010u
#define IPT_CMP_EXACT 1
#define IPT_CMP_RANGE_EPS 2

typedef struct ipt_param_schema {
    const char* name;
    int32_t kind;
    uint32_t dtypes;
    uint32_t flags;
    const char* values;
    const char* default_text;
    double min_value;
    double max_value;
    uint32_t min_count;
    uint32_t max_count;
    const char* ref;
    const char* doc;
    const char* unit;          /* API 2 */
} ipt_param_schema;

typedef struct ipt_op_schema {
    uint32_t struct_size;
    const char* name;
    const char* matlab;
    const char* summary;
    uint32_t param_count;
    uint32_t param_stride;
    const ipt_param_schema* params;
    const char* alternatives;
    int32_t compare;
    double tolerance;
    const char* compare_doc;
    const char* since;         /* API 2 */
} ipt_op_schema;

#define IPT_PARAM_SCHEMA_MIN_SIZE IPT_SIZE_THROUGH(ipt_param_schema, doc)
#define IPT_OP_SCHEMA_MIN_SIZE IPT_SIZE_THROUGH(ipt_op_schema, compare_doc)

static inline const ipt_param_schema* ipt_op_param(const ipt_op_schema* op, uint32_t index) {
    return (const ipt_param_schema*)((const char*)op->params + (size_t)index * op->param_stride);
}

#define IPT_PLUGIN_EXPORT __attribute__((visibility("default")))
#define IPT_KIND_HOST "cpu"

typedef struct ipt_table_header {
    uint32_t struct_size;
    uint32_t abi_version;
    uint32_t api_version;
} ipt_table_header;

typedef struct ipt_tensor {
    uint32_t struct_size;
    int32_t dtype;
    int64_t rows;
    int64_t cols;
    int64_t channels;
    int64_t row_pitch;
    void* data;
    void* buffer;
    uint64_t offset;
    uint32_t device_id;
    uint64_t plane_stride;     /* API 2 */
} ipt_tensor;

typedef struct ipt_value {
    int32_t kind;
    int32_t present;
    const ipt_tensor* image;
    int64_t i;
    double f;
    const double* floats;
    uint64_t count;
    const char* str;
    int32_t wanted;
    uint64_t hints;            /* API 2 */
} ipt_value;

typedef struct ipt_kernel_call {
    uint32_t struct_size;
    const ipt_op_schema* schema;
    uint32_t device_id;
    uint32_t device_index;
    void* impl_user;
    uint32_t value_count;
    uint32_t value_stride;
    const ipt_value* values;
    void* host_call;
    uint64_t deadline_ns;      /* API 2 */
} ipt_kernel_call;

static inline const ipt_value* ipt_kernel_value(const ipt_kernel_call* call, uint32_t index) {
    return (const ipt_value*)((const char*)call->values + (size_t)index * call->value_stride);
}

typedef struct ipt_host_table {
    ipt_table_header header;
    void (*log)(int32_t level, const char* plugin, const char* message);
    void (*set_error)(const char* message);
    ipt_status (*alloc_output)(void* host_call, uint32_t param_index, int32_t dtype, int64_t rows,
                               int64_t cols, int64_t channels, const ipt_tensor** out);
    ipt_status (*native_handle)(void* host_call, int32_t kind, const ipt_tensor* tensor, void** out);
    int32_t (*cpu_threads)(void);
    uint64_t (*now_ns)(void);  /* API 2 */
} ipt_host_table;

typedef struct ipt_device_desc {
    uint32_t struct_size;
    const char* name;
    const char* kind;
    const char* vendor;
    const char* identity;
    uint64_t memory_bytes;
    uint32_t compute_units;
    uint32_t subgroup_size;
    uint64_t max_allocation;   /* API 2 */
} ipt_device_desc;

typedef ipt_status (*ipt_kernel_fn)(const ipt_kernel_call* call);

typedef struct ipt_impl_desc {
    uint32_t struct_size;
    const char* op;
    const char* variant;
    const char* device_kind;
    int32_t priority;
    ipt_kernel_fn run;
    void* user;
    uint64_t cost_hint;        /* API 2 */
} ipt_impl_desc;

typedef struct ipt_plugin_table {
    ipt_table_header header;
    const char* name;
    const char* vendor;
    const char* version;
    uint32_t device_count;
    const ipt_device_desc* const* devices;
    const char* device_note;
    ipt_status (*mem_alloc)(uint32_t device_index, uint64_t bytes, void** buffer, void** address);
    void (*mem_free)(uint32_t device_index, void* buffer);
    ipt_status (*mem_upload)(uint32_t device_index, void* buffer, uint64_t offset, const void* src,
                             uint64_t bytes);
    ipt_status (*mem_download)(uint32_t device_index, void* buffer, uint64_t offset, void* dst,
                               uint64_t bytes);
    ipt_status (*sync)(uint32_t device_index);
    ipt_status (*native_handle)(uint32_t device_index, int32_t kind, void* buffer, void** out);
    uint32_t impl_count;
    const ipt_impl_desc* const* impls;
    uint32_t schema_count;
    const ipt_op_schema* const* schemas;
    void (*shutdown)(void);
    void (*trim)(uint32_t device_index); /* API 2 */
} ipt_plugin_table;

#define IPT_HOST_TABLE_MIN_SIZE IPT_SIZE_THROUGH(ipt_host_table, cpu_threads)
#define IPT_TENSOR_MIN_SIZE IPT_SIZE_THROUGH(ipt_tensor, device_id)
#define IPT_VALUE_MIN_SIZE IPT_SIZE_THROUGH(ipt_value, wanted)
#define IPT_KERNEL_CALL_MIN_SIZE IPT_SIZE_THROUGH(ipt_kernel_call, host_call)

#ifdef __cplusplus
}
#endif

#endif /* IPT_PLUGIN_H */
