/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenIPT plugin C ABI: what a plugin exports and what it may call back.
 *
 * A plugin is a shared library that exports exactly one symbol:
 *
 *     const ipt_plugin_table* ipt_plugin_entry(const ipt_host_table* host,
 *                                              const char** reason);
 *
 * It receives the host's table and returns its own, or NULL and sets *reason
 * to a static string saying why. Every table starts with ipt_table_header; the
 * host rejects a table whose abi_version differs from IPT_ABI_VERSION and reads
 * a slot only when struct_size says the slot is there. Optional slots may be
 * NULL. No C++ exception may leave a plugin function (the host guards every
 * call anyway and turns a stray exception into a load or call failure).
 *
 * Growth: either side may be built against an older or a newer header. No
 * side indexes an array of the other's structs with its own sizeof: arrays of
 * descriptions a plugin hands over are arrays of pointers, and the arrays of
 * parameters and values carry their stride (ipt_op_param, ipt_kernel_value).
 * Every struct passed by pointer starts with struct_size. A field is read
 * only when struct_size or the stride covers it (IPT_SIZE_THROUGH); less than
 * the API version 1 size (IPT_*_MIN_SIZE) is refused.
 *
 * See docs/abi.md and docs/writing-a-plugin.md.
 */
#ifndef IPT_PLUGIN_H
#define IPT_PLUGIN_H

#include "ipt.h"
#include "ipt_ops.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPT_PLUGIN_ENTRY_SYMBOL "ipt_plugin_entry"

#if defined(_WIN32)
#define IPT_PLUGIN_EXPORT __declspec(dllexport)
#else
#define IPT_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

typedef struct ipt_table_header {
    uint32_t struct_size;
    uint32_t abi_version;
    uint32_t api_version;
} ipt_table_header;

/* An image as a plugin sees it. In API version 1 the host always hands
 * plugins tightly packed images: row_pitch == cols * element size, and
 * channel planes follow each other (plane stride = rows * row_pitch). */
typedef struct ipt_tensor {
    uint32_t struct_size;
    int32_t dtype;             /* ipt_dtype */
    int64_t rows;
    int64_t cols;
    int64_t channels;
    int64_t row_pitch;         /* bytes */
    void* data;                /* host address, or device address (CUDA); NULL if none */
    void* buffer;              /* what the owning plugin's mem_alloc returned */
    uint64_t offset;           /* bytes into buffer where the image starts */
    uint32_t device_id;        /* global device id */
} ipt_tensor;

/* One parameter value, in schema order, defaults already filled in. It
 * carries no struct_size: the call gives the stride (ipt_kernel_call). */
typedef struct ipt_value {
    int32_t kind;              /* ipt_param_kind of the schema parameter */
    int32_t present;           /* 0: optional and not given (no default) */
    const ipt_tensor* image;   /* IPT_PARAM_INPUT */
    int64_t i;                 /* IPT_PARAM_INT */
    double f;                  /* IPT_PARAM_FLOAT */
    const double* floats;      /* IPT_PARAM_FLOATS */
    uint64_t count;            /* number of floats */
    const char* str;           /* IPT_PARAM_ENUM: one of the schema's values */
    int32_t wanted;            /* IPT_PARAM_OUTPUT: 1 if the caller wants it */
} ipt_value;

/* Native handles a plugin may ask for, for a device another plugin owns. */
typedef enum ipt_native_kind {
    IPT_NATIVE_CUDA_DEVICE = 1,    /* int ordinal, stored in the pointer */
    IPT_NATIVE_CUDA_STREAM = 2,    /* cudaStream_t */
    IPT_NATIVE_VK_INSTANCE = 10,
    IPT_NATIVE_VK_PHYSICAL_DEVICE = 11,
    IPT_NATIVE_VK_DEVICE = 12,
    IPT_NATIVE_VK_QUEUE = 13,
    IPT_NATIVE_VK_BUFFER = 14,     /* of a tensor: pass tensor->buffer */
    IPT_NATIVE_KIND_MAX_ENUM = 0x7FFFFFFF
} ipt_native_kind;

/* What an implementation receives. */
typedef struct ipt_kernel_call {
    uint32_t struct_size;
    const struct ipt_op_schema* schema;
    uint32_t device_id;            /* global id of the device it runs on */
    uint32_t device_index;         /* index in the owning plugin's device list */
    void* impl_user;               /* ipt_impl_desc.user */
    uint32_t value_count;          /* == schema->param_count */
    uint32_t value_stride;         /* bytes from one value to the next: the host's sizeof(ipt_value) */
    const ipt_value* values;       /* read them with ipt_kernel_value() */
    void* host_call;               /* opaque: pass to the host table's functions */
} ipt_kernel_call;

/* The index-th value of a call, whatever the size of ipt_value in the header
 * the host was built with. */
static inline const ipt_value* ipt_kernel_value(const ipt_kernel_call* call, uint32_t index) {
    return (const ipt_value*)((const char*)call->values + (size_t)index * call->value_stride);
}

/* Table the host gives a plugin. */
typedef struct ipt_host_table {
    ipt_table_header header;
    /* level: 0 debug, 1 info, 2 warning, 3 error */
    void (*log)(int32_t level, const char* plugin, const char* message);
    /* Sets the message of the failure a plugin function is about to return
     * (per thread). Always set one before returning an error. */
    void (*set_error)(const char* message);
    /* Allocates the output at param_index on the call's device. The image is
     * owned by the host; the returned tensor stays valid during the call. */
    ipt_status (*alloc_output)(void* host_call, uint32_t param_index, int32_t dtype,
                               int64_t rows, int64_t cols, int64_t channels,
                               const ipt_tensor** out);
    /* Native handle of the call's device (see ipt_native_kind). */
    ipt_status (*native_handle)(void* host_call, int32_t kind, const ipt_tensor* tensor,
                                void** out);
    /* Worker threads a CPU implementation should use (>= 1). */
    int32_t (*cpu_threads)(void);
} ipt_host_table;

typedef struct ipt_device_desc {
    uint32_t struct_size;
    const char* name;
    const char* kind;              /* "cuda", "vulkan", ... ("cpu" is the host's) */
    const char* vendor;
    const char* identity;          /* UUID or PCI id + driver version */
    uint64_t memory_bytes;
    uint32_t compute_units;
    uint32_t subgroup_size;
} ipt_device_desc;

/* The device kind of the host. Implementations that run on host memory
 * register with this kind; they need no memory functions of their own. */
#define IPT_KIND_HOST "cpu"

typedef ipt_status (*ipt_kernel_fn)(const ipt_kernel_call* call);

typedef struct ipt_impl_desc {
    uint32_t struct_size;
    const char* op;                /* "ipt.conv2", "acme.facet" */
    const char* variant;           /* "" or a name: "fft", "wave64", ... */
    const char* device_kind;       /* IPT_KIND_HOST, "cuda", "vulkan" */
    int32_t priority;              /* higher wins in the static selection */
    ipt_kernel_fn run;
    void* user;                    /* handed back in ipt_kernel_call.impl_user */
} ipt_impl_desc;

/* Table a plugin returns. Devices and memory slots are for plugins that own
 * devices; an operator-only plugin sets device_count = 0 and leaves them NULL. */
typedef struct ipt_plugin_table {
    ipt_table_header header;
    const char* name;
    const char* vendor;
    const char* version;

    uint32_t device_count;
    const ipt_device_desc* const* devices;  /* device_count pointers */
    const char* device_note;       /* why device_count is 0 ("" otherwise) */

    /* Memory of the plugin's own devices (device_index is plugin-local).
     * Work is queued in order per device. mem_free may be called while queued
     * work still reads the buffer: release it in queue order (e.g. a
     * stream-ordered free, or after the fence of the last submission).
     * mem_download waits for queued work before copying. */
    ipt_status (*mem_alloc)(uint32_t device_index, uint64_t bytes, void** buffer, void** address);
    void (*mem_free)(uint32_t device_index, void* buffer);
    ipt_status (*mem_upload)(uint32_t device_index, void* buffer, uint64_t offset,
                             const void* src, uint64_t bytes);
    ipt_status (*mem_download)(uint32_t device_index, void* buffer, uint64_t offset, void* dst,
                               uint64_t bytes);
    ipt_status (*sync)(uint32_t device_index);
    ipt_status (*native_handle)(uint32_t device_index, int32_t kind, void* buffer, void** out);

    uint32_t impl_count;
    const ipt_impl_desc* const* impls;      /* impl_count pointers */

    /* Operators this plugin introduces (NULL/0 for built-ins only). */
    uint32_t schema_count;
    const struct ipt_op_schema* const* schemas;  /* schema_count pointers */

    /* Called once before the library is unloaded. */
    void (*shutdown)(void);

    /* API version 3, optional (read only when struct_size covers them). */
    /* Accepts memory the host's caller owns on the device: checks that
     * [address, address + bytes) is the device's memory and sets *buffer to
     * what a tensor over it carries (data = address). The host never passes
     * such a buffer to mem_free and never writes through it. */
    ipt_status (*mem_wrap)(uint32_t device_index, void* address, uint64_t bytes, void** buffer);
    /* Queues the calling thread's work on the device on the caller's native
     * queue (CUDA: a cudaStream_t), NULL for the plugin's own; work queued
     * before is ordered before work queued after. See ipt_set_native_stream. */
    ipt_status (*set_stream)(uint32_t device_index, void* stream);

    /* API version 4, optional (read only when struct_size covers them). */
    /* Page-locks host memory that the host allocated, [address, address +
     * bytes), so that uploads from it and downloads into it run at the bus's
     * rate (CUDA: cudaHostRegister). A failure only means the memory stays
     * pageable: the host goes on without it. Each success is matched by one
     * host_unregister(address) before the host frees the memory; no queued
     * copy reads or writes it by then (uploads from page-locked memory and
     * downloads return only once their copy is done). See IPT_PINNED_HOST. */
    ipt_status (*host_register)(void* address, uint64_t bytes);
    void (*host_unregister)(void* address);
} ipt_plugin_table;

/* The least sizes a reader accepts: every slot and field of API version 1. */
#define IPT_HOST_TABLE_MIN_SIZE IPT_SIZE_THROUGH(ipt_host_table, cpu_threads)
#define IPT_PLUGIN_TABLE_MIN_SIZE IPT_SIZE_THROUGH(ipt_plugin_table, shutdown)
#define IPT_DEVICE_DESC_MIN_SIZE IPT_SIZE_THROUGH(ipt_device_desc, subgroup_size)
#define IPT_IMPL_DESC_MIN_SIZE IPT_SIZE_THROUGH(ipt_impl_desc, user)
#define IPT_TENSOR_MIN_SIZE IPT_SIZE_THROUGH(ipt_tensor, device_id)
#define IPT_VALUE_MIN_SIZE IPT_SIZE_THROUGH(ipt_value, wanted)
#define IPT_KERNEL_CALL_MIN_SIZE IPT_SIZE_THROUGH(ipt_kernel_call, host_call)

typedef const ipt_plugin_table* (*ipt_plugin_entry_fn)(const ipt_host_table* host,
                                                        const char** reason);

#ifdef __cplusplus
}
#endif

#endif /* IPT_PLUGIN_H */
