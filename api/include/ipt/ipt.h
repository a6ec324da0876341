/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenIPT host C API: what applications call.
 *
 * Conventions (see docs/abi.md):
 *  - Every function returns an ipt_status (or a value documented otherwise).
 *    On failure a message is available from ipt_last_error(), per thread, and
 *    output arguments are left untouched.
 *  - Handles are opaque. A context may be used from several threads at once.
 *    Every handle carries a tag of its type that every function checks: a
 *    freed handle, or one of another type, is IPT_ERR_MISUSE (functions
 *    returning void ignore it and set the thread's last error) as long as
 *    its memory has not been reused; the library holds the most recently
 *    freed handles back from reuse for that (see docs/abi.md).
 *  - Structs the library fills in start with `struct_size`: set it to
 *    sizeof(the struct) before the call; the library writes only the fields
 *    that fit, so old callers keep working against a newer library.
 *  - Images are row-major, channel planes one after another (planar), with a
 *    row pitch in bytes. Element types are MATLAB's classes.
 */
#ifndef IPT_H
#define IPT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define IPT_API __declspec(dllimport)
#else
#define IPT_API __attribute__((visibility("default")))
#endif

/* Versions of the contract this header describes. abi_version changes only on
 * a breaking change; api_version grows when functions or slots are appended,
 * and starts again at 1 with each abi_version (docs/abi.md lists what each
 * API version added). */
#define IPT_ABI_VERSION 2u
#define IPT_API_VERSION 4u

/* Bytes of `type` up to and including `field`: a reader may read `field` of a
 * struct only when its struct_size (or its array's stride) is at least this. */
#define IPT_SIZE_THROUGH(type, field) (offsetof(type, field) + sizeof(((type*)0)->field))

typedef enum ipt_status {
    IPT_OK = 0,
    IPT_ERR_INVALID_ARGUMENT = 1, /* a parameter is wrong; the message names it */
    IPT_ERR_UNSUPPORTED = 2,      /* no implementation accepts this call */
    IPT_ERR_OUT_OF_MEMORY = 3,
    IPT_ERR_NOT_FOUND = 4,        /* unknown operator, device, plugin or name */
    IPT_ERR_PLUGIN = 5,           /* a plugin failed to load or misbehaved */
    IPT_ERR_DEVICE = 6,           /* the device reported an error */
    IPT_ERR_INTERNAL = 7,
    IPT_ERR_ABI = 8,              /* version or struct_size mismatch */
    IPT_ERR_MISUSE = 9,           /* a freed handle or a handle of another type; the message
                                     names the function and the parameter */
    IPT_STATUS_MAX_ENUM = 0x7FFFFFFF
} ipt_status;

/* MATLAB classes. The values are part of the ABI. */
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
#define IPT_DTYPE_COUNT 9 /* one more than the largest value */

/* Device id of the host (always present). Other ids are stable for the life
 * of a context: they follow plugin load order and each plugin's device order. */
#define IPT_DEVICE_HOST 0u
#define IPT_DEVICE_ANY 0xFFFFFFFFu

typedef struct ipt_context ipt_context;
typedef struct ipt_image ipt_image;
typedef struct ipt_call ipt_call;

/* ---- errors --------------------------------------------------------------- */

/* Message of the last failed call on this thread ("" if none). Valid until the
 * next call into the library on the same thread. */
IPT_API const char* ipt_last_error(void);
IPT_API const char* ipt_status_name(ipt_status status);
IPT_API size_t ipt_dtype_size(ipt_dtype dtype); /* 0 for an unknown dtype */
IPT_API const char* ipt_dtype_name(ipt_dtype dtype); /* "uint8", ...; NULL if unknown */
IPT_API ipt_status ipt_dtype_from_name(const char* name, ipt_dtype* out);
IPT_API uint32_t ipt_version_abi(void);
IPT_API uint32_t ipt_version_api(void);

/* ---- context -------------------------------------------------------------- */

/* Flags for ipt_context_create. */
#define IPT_CONTEXT_NO_DISCOVERY 1u /* do not load IPT_PLUGIN_PATH or the default folder */

IPT_API ipt_status ipt_context_create(uint32_t flags, ipt_context** out);
/* NULL is ignored. Images and calls still alive keep the context's plugins
 * loaded until they are freed (the handle itself is dead at once); calls of
 * a destroyed context fail with IPT_ERR_MISUSE, its images may still be read
 * and freed. */
IPT_API void ipt_context_destroy(ipt_context* ctx);

/* Loads one plugin file. A plugin found twice (same file) is loaded once and
 * the second attempt is recorded as "duplicate". A failure is recorded in the
 * load report and returned; the context stays usable. */
IPT_API ipt_status ipt_load_plugin(ipt_context* ctx, const char* path);

/* Pins every later call of this context to one device (IPT_DEVICE_ANY lifts
 * it). The environment variable IPT_DEVICE sets the initial value. */
IPT_API ipt_status ipt_set_device(ipt_context* ctx, uint32_t device_id);

/* Fallback policy when the pinned device has no implementation that accepts
 * a call: 0 = error (default), 1 = allow another device. */
#define IPT_FALLBACK_ERROR 0u
#define IPT_FALLBACK_ALLOW 1u
IPT_API ipt_status ipt_set_fallback(ipt_context* ctx, uint32_t policy);
/* API version 3. Queues the work of the calling thread on device_id on the
 * caller's native queue instead of the plugin's own: for CUDA a cudaStream_t
 * of the device's GPU (cudaStreamLegacy, i.e. (void*)1, for the legacy
 * default stream; cudaStreamPerThread, (void*)2, for the per-thread one).
 * Calls, uploads, downloads and the freeing of images made meanwhile are
 * then ordered on that stream, without a host synchronisation; work queued
 * before the switch is ordered before work queued after it. NULL returns the
 * thread to the plugin's own queue. Per thread and per device, for the whole
 * process (every context sharing the plugin). Keep the stream alive until
 * NULL is set and the images allocated on it are freed. The host device, or
 * a plugin without this slot (Vulkan), is IPT_ERR_UNSUPPORTED. */
IPT_API ipt_status ipt_set_native_stream(ipt_context* ctx, uint32_t device_id, void* stream);

/* How a call's implementation is chosen among the candidates (after pinning):
 * IPT_SELECT_AUTO (default) by measured cost: run time for this operator,
 * class, parameter class and size bucket on each device, measured on a miss
 * and kept in the tuning cache, plus the time to move inputs there and the
 * results back; IPT_SELECT_STATIC by the implementations' static priority.
 * The environment variable IPT_SELECT=auto|static sets the initial value. */
#define IPT_SELECT_AUTO 0u
#define IPT_SELECT_STATIC 1u
IPT_API ipt_status ipt_set_selection(ipt_context* ctx, uint32_t policy);

/* The tuning cache file. NULL or "" keeps measurements in memory only. The
 * default is $IPT_TUNING_CACHE, else $XDG_CACHE_HOME/openipt/tuning.json,
 * else ~/.cache/openipt/tuning.json. A corrupt file is reported (log) and
 * ignored. Setting a path loads it. */
IPT_API ipt_status ipt_set_tuning_cache(ipt_context* ctx, const char* path);
/* The current tuning cache path ("" when memory only). */
IPT_API const char* ipt_tuning_cache_path(const ipt_context* ctx);
/* Writes measurements made since the last save (merged with what other
 * processes wrote meanwhile). Also done when the context is destroyed. */
IPT_API ipt_status ipt_tuning_cache_save(ipt_context* ctx);

/* Waits for queued work on a device (IPT_DEVICE_ANY: every device) and
 * reports an error raised by that work. */
IPT_API ipt_status ipt_sync(ipt_context* ctx, uint32_t device_id);

/* ---- load report ---------------------------------------------------------- */

typedef enum ipt_load_outcome {
    IPT_LOAD_LOADED = 0,
    IPT_LOAD_FAILED = 1,
    IPT_LOAD_DUPLICATE = 2,
    IPT_LOAD_OUTCOME_MAX_ENUM = 0x7FFFFFFF
} ipt_load_outcome;

typedef struct ipt_plugin_report {
    uint32_t struct_size;
    const char* path;          /* as given or found */
    const char* source;        /* "explicit", "IPT_PLUGIN_PATH", "default" */
    int32_t outcome;           /* ipt_load_outcome */
    const char* error;         /* loader or plugin text; "" when loaded */
    const char* name;          /* plugin name, "" if unknown */
    const char* vendor;
    const char* version;
    uint32_t abi_version_seen; /* 0 when no table was returned */
    uint32_t api_version_seen;
    uint32_t device_count;
    const char* device_note;   /* why there are no devices, "" otherwise */
    uint32_t impl_count;
} ipt_plugin_report;

IPT_API uint32_t ipt_plugin_report_count(const ipt_context* ctx);
/* Strings stay valid for the life of the context. */
IPT_API ipt_status ipt_plugin_report_get(const ipt_context* ctx, uint32_t index,
                                         ipt_plugin_report* out);

/* ---- devices -------------------------------------------------------------- */

typedef struct ipt_device_info {
    uint32_t struct_size;
    uint32_t id;
    const char* name;
    const char* kind;          /* "cpu", "cuda", "vulkan", ... */
    const char* vendor;
    const char* plugin;        /* owning plugin name; "openipt" for the host */
    const char* identity;      /* UUID or PCI id and driver, for caches */
    uint64_t memory_bytes;
    uint32_t compute_units;
    uint32_t subgroup_size;    /* warp / wavefront width; 0 if not meaningful */
} ipt_device_info;

IPT_API uint32_t ipt_device_count(const ipt_context* ctx);
IPT_API ipt_status ipt_device_get(const ipt_context* ctx, uint32_t id, ipt_device_info* out);

/* ---- operators ------------------------------------------------------------ */

struct ipt_op_schema; /* ipt_ops.h */

IPT_API uint32_t ipt_op_count(const ipt_context* ctx);
/* The schema of the index-th operator (built-in or introduced by a plugin). */
IPT_API const struct ipt_op_schema* ipt_op_get(const ipt_context* ctx, uint32_t index);
IPT_API const struct ipt_op_schema* ipt_op_find(const ipt_context* ctx, const char* name);

typedef struct ipt_impl_info {
    uint32_t struct_size;
    const char* op;
    const char* variant;       /* "" or e.g. "fft", "wave64" */
    const char* plugin;
    uint32_t device_id;
    int32_t priority;
} ipt_impl_info;

/* Implementations bound to devices, for one operator (name) or all (NULL). */
IPT_API uint32_t ipt_impl_count(const ipt_context* ctx, const char* op);
IPT_API ipt_status ipt_impl_get(const ipt_context* ctx, const char* op, uint32_t index,
                                ipt_impl_info* out);

/* ---- images --------------------------------------------------------------- */

typedef struct ipt_image_info {
    uint32_t struct_size;
    int32_t dtype;
    int64_t rows;
    int64_t cols;
    int64_t channels;
    int64_t row_pitch;         /* bytes between rows on the device */
    uint32_t device_id;
} ipt_image_info;

/* Bounds of an image, so that no size arithmetic can overflow int64: rows,
 * cols and channels at most IPT_IMAGE_MAX_DIM each, and rows * cols *
 * channels * element size at most IPT_IMAGE_MAX_BYTES (an empty image too:
 * its other dimensions stay within IPT_IMAGE_MAX_DIM). */
#define IPT_IMAGE_MAX_DIM INT64_C(2147483647)
#define IPT_IMAGE_MAX_BYTES (INT64_C(1) << 48)

/* A new image on a device, contents undefined. rows, cols >= 0 (an empty image
 * is allowed), channels >= 1, within the bounds above (IPT_ERR_INVALID_ARGUMENT
 * naming the parameter otherwise). */
IPT_API ipt_status ipt_image_create(ipt_context* ctx, uint32_t device_id, ipt_dtype dtype,
                                    int64_t rows, int64_t cols, int64_t channels,
                                    ipt_image** out);
/* Copies host data in. host_row_pitch = 0 means tightly packed. Planes follow
 * each other, each rows * host_row_pitch bytes. */
IPT_API ipt_status ipt_image_upload(ipt_image* image, const void* host, int64_t host_row_pitch);
/* API version 2. A host image over the caller's memory, without a copy, for
 * use as a call's input: tightly packed rows (host_row_pitch 0 or cols *
 * element size), planes one after another, data aligned to the element
 * size. The library never writes into it (ipt_image_upload into it is
 * IPT_ERR_INVALID_ARGUMENT) and never frees it; outputs are always images of
 * their own. Keep the memory valid and unchanged until the image is freed. */
IPT_API ipt_status ipt_image_wrap_host(ipt_context* ctx, ipt_dtype dtype, int64_t rows, int64_t cols,
                                       int64_t channels, const void* data, int64_t host_row_pitch,
                                       ipt_image** out);
/* API version 3. An image over memory the caller owns on a device (for CUDA:
 * a device pointer of the plugin's GPU, from cudaMalloc, CuPy, PyTorch, ...),
 * without a copy, for use as a call's input. Same layout as
 * ipt_image_wrap_host: tightly packed rows (row_pitch 0 or cols * element
 * size), planes one after another, the address aligned to the element size.
 * The library never writes into it and never frees it; keep the memory valid
 * and unchanged until the image is freed and the work that reads it is done
 * (see ipt_set_native_stream). The host device is IPT_ERR_INVALID_ARGUMENT
 * (use ipt_image_wrap_host); a device whose plugin cannot wrap its memory is
 * IPT_ERR_UNSUPPORTED; an address the plugin does not recognise as its
 * device's memory is IPT_ERR_INVALID_ARGUMENT naming native_address. */
IPT_API ipt_status ipt_image_wrap_device(ipt_context* ctx, uint32_t device_id, ipt_dtype dtype, int64_t rows,
                                         int64_t cols, int64_t channels, void* native_address,
                                         int64_t row_pitch, ipt_image** out);
/* API version 3. Where an image's first element lies on its device (a host
 * address for host images, a device pointer for CUDA) and its row pitch in
 * bytes, so that another library can read an output in place. Valid until
 * the image is freed. Work that writes the image is queued: read it in the
 * order of the device's queue (the caller's stream when one was set with
 * ipt_set_native_stream) or after ipt_image_download. */
IPT_API ipt_status ipt_image_native_address(const ipt_image* image, void** address, int64_t* row_pitch);
/* Waits for queued work on the image's device, then copies out. */
IPT_API ipt_status ipt_image_download(const ipt_image* image, void* host, int64_t host_row_pitch);
IPT_API ipt_status ipt_image_get_info(const ipt_image* image, ipt_image_info* out);
/* A copy of the image on another device (through host memory if needed). */
IPT_API ipt_status ipt_image_copy_to(ipt_context* ctx, const ipt_image* image,
                                     uint32_t device_id, ipt_image** out);
IPT_API void ipt_image_free(ipt_image* image); /* NULL is ignored */

/* ---- calls ---------------------------------------------------------------- */

/* A call is built like an SQLite statement: create, set parameters by name,
 * run, take the outputs, free. Parameters not set get their defaults. A call
 * may be run again after changing parameters. Not thread-safe itself; use one
 * call object per thread. */
IPT_API ipt_status ipt_call_create(ipt_context* ctx, const char* op, ipt_call** out);
IPT_API void ipt_call_free(ipt_call* call); /* frees outputs not taken */

/* The call refers to the image (no copy): keep it alive until the call has
 * run. Running a call whose input image was freed meanwhile is
 * IPT_ERR_MISUSE naming the parameter (never a read of freed memory). */
IPT_API ipt_status ipt_call_set_image(ipt_call* call, const char* name, const ipt_image* image);
IPT_API ipt_status ipt_call_set_int(ipt_call* call, const char* name, int64_t value);
IPT_API ipt_status ipt_call_set_float(ipt_call* call, const char* name, double value);
IPT_API ipt_status ipt_call_set_floats(ipt_call* call, const char* name, const double* values,
                                       uint64_t count);
IPT_API ipt_status ipt_call_set_string(ipt_call* call, const char* name, const char* value);
/* Sets any scalar, array or enum parameter from its textual form
 * ("same", "3", "[0.01 0.99]", "0:179"), as the CLI does. A list is counted
 * before its ranges are expanded: more values than the parameter's bound (or
 * 2^24 where it has none) is IPT_ERR_INVALID_ARGUMENT. */
IPT_API ipt_status ipt_call_set_text(ipt_call* call, const char* name, const char* text);
/* Asks that an optional output be produced (all required outputs always are). */
IPT_API ipt_status ipt_call_want_output(ipt_call* call, const char* name);
/* Runs on this device only (overrides the context's pin for this call). */
IPT_API ipt_status ipt_call_set_device(ipt_call* call, uint32_t device_id);
/* Runs only this variant ("" for the plain one). */
IPT_API ipt_status ipt_call_set_variant(ipt_call* call, const char* variant);
/* Runs only implementations of this plugin (its name in the load report). */
IPT_API ipt_status ipt_call_set_plugin(ipt_call* call, const char* plugin);

IPT_API ipt_status ipt_call_run(ipt_call* call);

/* Hands an output of the last run to the caller, who frees it. A second take
 * of the same output is IPT_ERR_NOT_FOUND. */
IPT_API ipt_status ipt_call_take_output(ipt_call* call, const char* name, ipt_image** out);

/* ---- dispatch record ------------------------------------------------------ */

typedef struct ipt_dispatch_info {
    uint32_t struct_size;
    const char* op;
    const char* plugin;
    const char* variant;
    uint32_t device_id;
    double run_ms;             /* host wall time of the implementation call */
    double transfer_ms;        /* moving inputs to the device */
    const char* reason;        /* why this implementation was chosen */
    uint32_t candidates;       /* implementations considered */
    uint32_t declined;         /* of those, how many declined (UNSUPPORTED) */
} ipt_dispatch_info;

/* The last dispatch made on this thread through this context. Strings stay
 * valid until the next call on this thread. */
IPT_API ipt_status ipt_last_dispatch(const ipt_context* ctx, ipt_dispatch_info* out);

/* Where a candidate's run time came from. */
typedef enum ipt_cost_source {
    IPT_COST_STATIC = 0,     /* not measured: static selection or a single candidate */
    IPT_COST_MEASURED = 1,   /* measured during this call */
    IPT_COST_CACHED = 2,     /* read from the tuning cache */
    IPT_COST_DECLINED = 3,   /* the implementation declined the call */
    IPT_COST_FAILED = 4,     /* the implementation failed while being measured */
    IPT_COST_SOURCE_MAX_ENUM = 0x7FFFFFFF
} ipt_cost_source;

typedef struct ipt_candidate_info {
    uint32_t struct_size;
    const char* plugin;
    const char* variant;
    uint32_t device_id;
    double run_ms;             /* median measured run time; < 0 when unknown */
    double transfer_ms;        /* estimated time to move inputs there and results back */
    double cost_ms;            /* run_ms + transfer_ms; < 0 when unknown */
    int32_t source;            /* ipt_cost_source */
    int32_t chosen;            /* 1 for the implementation that ran */
    const char* note;          /* why declined or failed, "" otherwise */
} ipt_candidate_info;

/* The candidates of the last dispatch on this thread, in the order they were
 * ranked. */
IPT_API uint32_t ipt_last_candidate_count(const ipt_context* ctx);
IPT_API ipt_status ipt_last_candidate_get(const ipt_context* ctx, uint32_t index, ipt_candidate_info* out);

#ifdef __cplusplus
}
#endif

#endif /* IPT_H */
