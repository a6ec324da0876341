// SPDX-License-Identifier: Apache-2.0
// Internals of libipt, the registry: what a context holds and the pieces the
// C API functions share. Nothing here is visible to plugins.
#pragma once

#ifndef BOOST_DLL_USE_STD_FS
#define BOOST_DLL_USE_STD_FS
#endif
#include <boost/dll/shared_library.hpp>

#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "ipt/ipt.h"
#include "ipt/ipt_ops.h"
#include "ipt/ipt_plugin.h"

namespace ipt::reg {

// ---- errors (errors.cpp) ------------------------------------------------------

// Records the message of a failure on this thread and returns the status, so
// a C API function can end with `return fail(IPT_ERR_..., "...")`.
ipt_status fail(ipt_status status, const std::string& message);
void clear_error();
// Message a plugin set through the host table on this thread ("" if none).
std::string take_plugin_error();
void set_plugin_error(const char* message);
// The library's log, also handed to plugins: stderr at IPT_LOG_LEVEL or above
// (0 debug ... 3 error; default 2).
void host_log(int32_t level, const char* plugin, const char* message);

// Runs body() and turns any C++ exception into a status; no exception leaves
// the C API.
template <class Body>
ipt_status guard(Body&& body) noexcept {
    try {
        clear_error();
        return body();
    } catch (const std::bad_alloc&) {
        return fail(IPT_ERR_OUT_OF_MEMORY, "out of host memory");
    } catch (const std::exception& e) {
        return fail(IPT_ERR_INTERNAL, std::string("internal error: ") + e.what());
    } catch (...) {
        return fail(IPT_ERR_INTERNAL, "internal error: unknown exception");
    }
}

size_t dtype_size(int32_t dtype);
std::string dtype_name(int32_t dtype);
std::string dtype_list(uint32_t mask); // "single, double"

// A double as printf's %.<precision>g writes it in the C locale ("nan", "inf"
// for those), whatever locale the host process set: tuning keys and
// messages must not change with it (params.cpp).
std::string format_number(double v, int precision = 17);

// ---- plugins and devices --------------------------------------------------------

struct Plugin;

struct Impl {
    const ipt_op_schema* schema = nullptr;
    std::string variant;
    Plugin* plugin = nullptr;
    uint32_t device_id = 0;
    int32_t priority = 0;
    ipt_kernel_fn run = nullptr;
    void* user = nullptr;
    std::string identity;  // candidate_identity() on its device, fixed when bound to it
};

struct Plugin {
    std::string path;
    std::string name;      // unique in the context ("cpu", "cpu#2", ...)
    boost::dll::shared_library library;
    const ipt_plugin_table* table = nullptr;
    std::vector<uint32_t> device_ids;
    std::vector<Impl> impl_templates;  // device_id unset; bound by kind
    std::vector<std::string> impl_kinds;
    // The operators it introduces, copied into this library's layout of
    // ipt_op_schema and ipt_param_schema (the plugin may be built against an
    // older or newer header), so the registry may index their parameters.
    std::deque<ipt_op_schema> schemas;
    std::deque<std::vector<ipt_param_schema>> schema_params;
    bool has_slot(size_t offset_end) const { return table->header.struct_size >= offset_end; }
};

struct Device {
    uint32_t id = 0;
    std::string name, kind, vendor, identity, plugin_name;
    uint64_t memory_bytes = 0;
    uint32_t compute_units = 0, subgroup_size = 0;
    Plugin* owner = nullptr;     // nullptr: the host, memory is host memory
    uint32_t index_in_plugin = 0;
    bool is_host() const { return owner == nullptr; }
};


// A load-report entry; `view` points into the strings.
struct Report {
    std::string path, source, error, name, vendor, version, device_note;
    int32_t outcome = IPT_LOAD_FAILED;
    uint32_t abi_seen = 0, api_seen = 0, device_count = 0, impl_count = 0;
};

class TuningCache;

// ---- handles (handles.cpp) --------------------------------------------------------
// Every handle of the host API starts with a tag of its type (the first
// member, so at offset 0 of every handle), set on creation and overwritten
// with the type's freed value on free, as SQLite's misuse detection does.
// Entry points check it before anything else, so that a freed handle, or a
// handle of another type cast to this one, is IPT_ERR_MISUSE instead of a
// crash, as long as the memory has not been reused: freed handles that the
// user held go to a bounded quarantine first (retire_handle).
enum class HandleType { context, image, call };
constexpr uint64_t kTagContext = 0x495054436F6E7478ull;  // "IPTContx"
constexpr uint64_t kTagImage = 0x49505449496D6167ull;    // "IPTIImag"
constexpr uint64_t kTagCall = 0x495054436143616Cull;     // "IPTCaCal"
constexpr uint64_t kFreedMask = 0xDEADDEADDEADDEADull;   // live tag ^ mask: freed
constexpr uint64_t live_tag(HandleType t) {
    return t == HandleType::context ? kTagContext : t == HandleType::image ? kTagImage : kTagCall;
}

// IPT_OK for a live handle of type `want`; IPT_ERR_INVALID_ARGUMENT for NULL;
// IPT_ERR_MISUSE otherwise. Messages name the function and the parameter.
ipt_status check_handle(const void* handle, HandleType want, const char* fn, const char* param);
// A freed handle's memory: the destructor has run; the freed tag is written
// and the memory kept from reuse until newer ones push it out.
void quarantine_shell(void* shell, uint64_t freed_tag);

template <class T>
void retire_handle(T* handle, HandleType type) {
    handle->~T();
    quarantine_shell(handle, live_tag(type) ^ kFreedMask);
}

// Images and calls hold a reference to their context: a context destroyed
// while they live stays (as a zombie: its handle reads freed) until the last
// of them is freed, so that their device memory is returned to a loaded plugin.
void context_ref(ipt_context* ctx);
void context_unref(ipt_context* ctx);
// Whether a handle is live, without setting an error.
bool handle_is(const void* handle, HandleType type);

}  // namespace ipt::reg

struct ipt_context {
    ipt_context();
    ~ipt_context();
    uint64_t tag = ipt::reg::kTagContext;  // first member: see HandleType
    std::atomic<uint64_t> refs{1};          // the user's, plus one per image and call
    mutable std::shared_mutex mutex;  // loading takes it exclusively, calls shared
    std::deque<std::unique_ptr<ipt::reg::Plugin>> plugins;
    std::deque<ipt::reg::Report> reports;
    std::deque<ipt::reg::Device> devices;  // index == id
    std::vector<ipt::reg::Impl> impls;
    std::vector<const ipt_op_schema*> ops;
    std::map<std::string, const ipt_op_schema*> ops_by_name;
    std::atomic<uint32_t> pinned_device{IPT_DEVICE_ANY};
    std::atomic<uint32_t> fallback{IPT_FALLBACK_ERROR};
    std::atomic<uint32_t> selection{IPT_SELECT_AUTO};
    std::unique_ptr<ipt::reg::TuningCache> tuning;
    bool poison_outputs = false;
    unsigned char poison_byte = 0xA5;
    // Big host images are page-locked through this table's host_register:
    // the first plugin loaded with devices and the slot, unless
    // IPT_PINNED_HOST=0 (pin_host false). Null: host images stay pageable.
    bool pin_host = true;
    std::atomic<const ipt_plugin_table*> host_pinner{nullptr};
};

struct ipt_image {
    uint64_t tag = ipt::reg::kTagImage;  // first member: see HandleType
    // Expires when the image is freed: a call holding it as an input knows.
    std::shared_ptr<const void> alive;
    ipt_context* ctx = nullptr;
    const ipt::reg::Device* device = nullptr;
    ipt_tensor tensor{};   // descriptor handed to plugins
    uint64_t bytes = 0;
    void* host_block = nullptr;  // host device only
    // Set while host_block is page-locked: what undoes it before the block is freed.
    void (*host_unregister)(void*) = nullptr;
    // Wraps the caller's memory (ipt_image_wrap_host, ipt_image_wrap_device):
    // never written, never freed.
    bool caller_memory = false;
};

namespace ipt::reg {

// ---- images (images.cpp) ----------------------------------------------------------
// Who asks for an image, for messages: a function, and for a plugin's
// output the output and the operator.
struct ImageRequest {
    const char* fn = nullptr;
    const char* output = nullptr;
    const char* op = nullptr;
    std::string prefix() const;  // "fn: " or "fn: output 'B' of op: ", "" without fn
};
// Checks an image's dimensions against IPT_IMAGE_MAX_DIM and
// IPT_IMAGE_MAX_BYTES; the message names the parameter (rows, cols, channels).
ipt_status check_dims(int32_t dtype, int64_t rows, int64_t cols, int64_t channels, uint64_t* bytes,
                      const ImageRequest& who = {});
// Frees an image: its memory at once, its handle into quarantine when the
// user held it (`from_user`), or at once.
void release_image(ipt_image* image, bool from_user = false);
struct ImageDeleter {
    void operator()(ipt_image* p) const { release_image(p); }
};
using ImagePtr = std::unique_ptr<ipt_image, ImageDeleter>;
// Allocates an image on a device; on failure returns nullptr after fail().
ImagePtr allocate_image(ipt_context* ctx, const Device& dev, int32_t dtype, int64_t rows, int64_t cols,
                        int64_t channels, ipt_status* status, const ImageRequest& who = {});
// Waits for the work queued on a device; its failure becomes the error.
ipt_status sync_device(const Device& dev);
ipt_status copy_bytes_to_host(const ipt_image* image, void* dst);   // tight copy
ipt_status copy_bytes_from_host(ipt_image* image, const void* src); // tight copy
ipt_status fill_poison(ipt_image* image, unsigned char byte);
// Host images of this many bytes and more are page-locked when the context
// has a pinner: below it a copy costs about what registering it would.
inline constexpr uint64_t kPinHostMinBytes = uint64_t{1} << 20;
// Whether a host image's memory is page-locked (its copies to and from a GPU
// run at the pinned rate).
inline bool host_image_pinned(const ipt_image* image) { return image->host_unregister != nullptr; }
// A copy of `src` on `dev` (through host memory when needed).
ImagePtr copy_image(ipt_context* ctx, const ipt_image* src, const Device& dev, ipt_status* status);

// ---- loading (loader.cpp) -----------------------------------------------------------
ipt_status load_plugin_locked(ipt_context* ctx, const std::string& path, const std::string& source);
void discover_plugins(ipt_context* ctx);
const ipt_host_table* host_table();
void unload_all(ipt_context* ctx);
// Checks a schema a plugin hands over (schema number `index` of its table)
// before anything reads it as an operator: IPT_OK, or the failure recorded.
ipt_status check_schema(const ipt_op_schema* s, uint32_t index);

// The schema of an operator; built-in ones may be named without "ipt.".
const ipt_op_schema* find_op_locked(const ipt_context* ctx, const char* name);

// ---- parameters (params.cpp) ---------------------------------------------------------
// A parameter value as set by the caller (before defaults).
struct ParamValue {
    bool set = false;
    const ipt_image* image = nullptr;
    int64_t i = 0;
    double f = 0;
    std::vector<double> floats;
    std::string str;
};

// Parses text into a value for a parameter of the schema (INT, FLOAT, FLOATS, ENUM).
ipt_status parse_param_text(const ipt_op_schema& op, const ipt_param_schema& p, const char* text,
                            ParamValue* out);
// Checks every rule of the schema and fills in defaults. `values` has one
// entry per parameter; on success they are complete.
ipt_status validate_call(const ipt_op_schema& op, std::vector<ParamValue>& values,
                         ipt_context* ctx);
int param_index(const ipt_op_schema& op, const char* name);
std::string enum_choices(const char* values); // "a, b or c"

}  // namespace ipt::reg
