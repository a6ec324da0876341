// SPDX-License-Identifier: Apache-2.0
// Contexts: the host device, plugin discovery, and the read-only queries
// (load report, devices, operators, implementations).
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <thread>

#include "internal.hpp"
#include "tuning.hpp"

using namespace ipt::reg;

namespace {

std::string cpu_model_name() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0) {
            auto pos = line.find(':');
            if (pos != std::string::npos) {
                std::string n = line.substr(pos + 1);
                while (!n.empty() && n.front() == ' ') n.erase(0, 1);
                return n;
            }
        }
    return "host CPU";
}

Device make_host_device() {
    Device d;
    d.id = IPT_DEVICE_HOST;
    d.name = cpu_model_name();
    d.kind = IPT_KIND_HOST;
    d.vendor = "";
    d.plugin_name = "openipt";
    d.identity = "host:" + d.name;
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    d.memory_bytes = pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
    d.compute_units = std::thread::hardware_concurrency();
    d.subgroup_size = 0;
    return d;
}

// Copies `filled` into a caller's struct, up to the caller's struct_size.
template <class T>
ipt_status copy_out(T* out, T filled, const char* fn) {
    if (!out) return fail(IPT_ERR_INVALID_ARGUMENT, std::string(fn) + ": out is NULL");
    if (out->struct_size < sizeof(uint32_t)) return fail(IPT_ERR_ABI, std::string(fn) + ": out->struct_size is not set");
    filled.struct_size = out->struct_size;
    std::memcpy(out, &filled, std::min<size_t>(out->struct_size, sizeof(T)));
    return IPT_OK;
}

// IPT_DEVICE: a numeric id, a kind ("cuda"), or kind:n (the n-th device of that kind).
uint32_t device_from_env(const ipt_context* ctx) {
    const char* e = std::getenv("IPT_DEVICE");
    if (!e || !*e) return IPT_DEVICE_ANY;
    std::string s = e;
    char* end = nullptr;
    long v = std::strtol(s.c_str(), &end, 10);
    if (end && *end == '\0' && v >= 0 && static_cast<size_t>(v) < ctx->devices.size()) return static_cast<uint32_t>(v);
    std::string kind = s;
    long nth = 0;
    if (auto colon = s.find(':'); colon != std::string::npos) {
        kind = s.substr(0, colon);
        nth = std::strtol(s.c_str() + colon + 1, nullptr, 10);
    }
    for (const Device& d : ctx->devices)
        if (d.kind == kind && nth-- == 0) return d.id;
    std::fprintf(stderr, "openipt: IPT_DEVICE='%s' names no device; not pinning\n", e);
    return IPT_DEVICE_ANY;
}

// For the queries that return a value instead of a status: a handle that is
// not a live context gives the empty answer, with the reason as the error.
bool usable(const ipt_context* ctx, const char* fn) {
    return check_handle(ctx, HandleType::context, fn, "ctx") == IPT_OK;
}

}  // namespace

ipt_context::ipt_context() : tuning(std::make_unique<ipt::reg::TuningCache>()) {}
ipt_context::~ipt_context() = default;

namespace ipt::reg {

// "conv2" finds "ipt.conv2": built-in operators may be named without namespace.
const ipt_op_schema* find_op_locked(const ipt_context* ctx, const char* name) {
    if (!name) return nullptr;
    auto it = ctx->ops_by_name.find(name);
    if (it == ctx->ops_by_name.end() && !std::strchr(name, '.')) it = ctx->ops_by_name.find(std::string("ipt.") + name);
    return it == ctx->ops_by_name.end() ? nullptr : it->second;
}

}  // namespace ipt::reg

extern "C" {

IPT_API ipt_status ipt_context_create(uint32_t flags, ipt_context** out) {
    return guard([&] {
        if (!out) return fail(IPT_ERR_INVALID_ARGUMENT, "ipt_context_create: out is NULL");
        if (flags & ~IPT_CONTEXT_NO_DISCOVERY)
            return fail(IPT_ERR_INVALID_ARGUMENT, "ipt_context_create: unknown flags " + std::to_string(flags));
        auto ctx = std::make_unique<ipt_context>();
        ctx->devices.push_back(make_host_device());
        for (uint32_t i = 0; i < IPT_BUILTIN_OP_COUNT; ++i) {
            ctx->ops.push_back(&ipt_builtin_ops[i]);
            ctx->ops_by_name[ipt_builtin_ops[i].name] = &ipt_builtin_ops[i];
        }
        // IPT_POISON_OUTPUTS: "1" poisons with 0xA5; another number (0x5A, 90) is the byte to use.
        if (const char* poison = std::getenv("IPT_POISON_OUTPUTS"); poison && *poison && std::strcmp(poison, "0") != 0) {
            const long v = std::strtol(poison, nullptr, 0);
            ctx->poison_outputs = true;
            ctx->poison_byte = v > 1 && v < 256 ? static_cast<unsigned char>(v) : 0xA5;
        }
        // IPT_PINNED_HOST: "0" keeps host images pageable; "1" (the default)
        // page-locks big ones when a loaded plugin offers host_register.
        if (const char* pin = std::getenv("IPT_PINNED_HOST"); pin && *pin) {
            if (std::strcmp(pin, "0") == 0)
                ctx->pin_host = false;
            else if (std::strcmp(pin, "1") != 0)
                host_log(2, "openipt",
                         (std::string("IPT_PINNED_HOST='") + pin + "' is neither 0 nor 1; the default (1) is used")
                             .c_str());
        }
        if (!(flags & IPT_CONTEXT_NO_DISCOVERY)) {
            std::unique_lock lock(ctx->mutex);
            discover_plugins(ctx.get());
        }
        ctx->pinned_device = device_from_env(ctx.get());
        // IPT_SELECT=static: the static order; =measure: auto, measuring every
        // candidate on a miss instead of starting from priors.
        if (const char* sel = std::getenv("IPT_SELECT"); sel && std::strcmp(sel, "static") == 0)
            ctx->selection = IPT_SELECT_STATIC;
        else if (sel && std::strcmp(sel, "measure") == 0)
            ctx->tuning->measure_on_miss = true;
        ctx->tuning->open(TuningCache::default_path());
        *out = ctx.release();
        clear_error();
        return IPT_OK;
    });
}

IPT_API ipt_status ipt_load_plugin(ipt_context* ctx, const char* path) {
    return guard([&] {
        if (ipt_status s = check_handle(ctx, HandleType::context, "ipt_load_plugin", "ctx"); s != IPT_OK) return s;
        if (!path || !*path) return fail(IPT_ERR_INVALID_ARGUMENT, "ipt_load_plugin: path is NULL or empty");
        std::unique_lock lock(ctx->mutex);
        return load_plugin_locked(ctx, path, "explicit");
    });
}

IPT_API ipt_status ipt_set_device(ipt_context* ctx, uint32_t device_id) {
    return guard([&] {
        if (ipt_status s = check_handle(ctx, HandleType::context, "ipt_set_device", "ctx"); s != IPT_OK) return s;
        std::shared_lock lock(ctx->mutex);
        if (device_id != IPT_DEVICE_ANY && device_id >= ctx->devices.size())
            return fail(IPT_ERR_NOT_FOUND, "ipt_set_device: no device with id " + std::to_string(device_id));
        ctx->pinned_device = device_id;
        return IPT_OK;
    });
}

IPT_API ipt_status ipt_set_fallback(ipt_context* ctx, uint32_t policy) {
    return guard([&] {
        if (ipt_status s = check_handle(ctx, HandleType::context, "ipt_set_fallback", "ctx"); s != IPT_OK) return s;
        if (policy != IPT_FALLBACK_ERROR && policy != IPT_FALLBACK_ALLOW)
            return fail(IPT_ERR_INVALID_ARGUMENT, "ipt_set_fallback: policy must be IPT_FALLBACK_ERROR or IPT_FALLBACK_ALLOW");
        ctx->fallback = policy;
        return IPT_OK;
    });
}

IPT_API ipt_status ipt_set_selection(ipt_context* ctx, uint32_t policy) {
    return guard([&] {
        if (ipt_status s = check_handle(ctx, HandleType::context, "ipt_set_selection", "ctx"); s != IPT_OK) return s;
        if (policy != IPT_SELECT_AUTO && policy != IPT_SELECT_STATIC)
            return fail(IPT_ERR_INVALID_ARGUMENT, "ipt_set_selection: policy must be IPT_SELECT_AUTO or IPT_SELECT_STATIC");
        ctx->selection = policy;
        return IPT_OK;
    });
}

IPT_API ipt_status ipt_set_tuning_cache(ipt_context* ctx, const char* path) {
    return guard([&] {
        if (ipt_status s = check_handle(ctx, HandleType::context, "ipt_set_tuning_cache", "ctx"); s != IPT_OK) return s;
        ipt_status s = ctx->tuning->save();  // keep what was measured under the old path
        ctx->tuning->open(path ? path : "");
        return s;
    });
}

IPT_API const char* ipt_tuning_cache_path(const ipt_context* ctx) {
    return usable(ctx, "ipt_tuning_cache_path") ? ctx->tuning->path().c_str() : "";
}

IPT_API ipt_status ipt_tuning_cache_save(ipt_context* ctx) {
    return guard([&] {
        if (ipt_status s = check_handle(ctx, HandleType::context, "ipt_tuning_cache_save", "ctx"); s != IPT_OK) return s;
        return ctx->tuning->save();
    });
}

IPT_API ipt_status ipt_sync(ipt_context* ctx, uint32_t device_id) {
    return guard([&] {
        if (ipt_status s = check_handle(ctx, HandleType::context, "ipt_sync", "ctx"); s != IPT_OK) return s;
        std::shared_lock lock(ctx->mutex);
        if (device_id != IPT_DEVICE_ANY && device_id >= ctx->devices.size())
            return fail(IPT_ERR_NOT_FOUND, "ipt_sync: no device with id " + std::to_string(device_id));
        for (const Device& d : ctx->devices) {
            if (d.is_host() || (device_id != IPT_DEVICE_ANY && d.id != device_id)) continue;
            if (ipt_status s = sync_device(d); s != IPT_OK) return s;
        }
        return IPT_OK;
    });
}

IPT_API uint32_t ipt_plugin_report_count(const ipt_context* ctx) {
    if (!usable(ctx, "ipt_plugin_report_count")) return 0;
    std::shared_lock lock(ctx->mutex);
    return static_cast<uint32_t>(ctx->reports.size());
}

IPT_API ipt_status ipt_plugin_report_get(const ipt_context* ctx, uint32_t index, ipt_plugin_report* out) {
    return guard([&] {
        if (ipt_status s = check_handle(ctx, HandleType::context, "ipt_plugin_report_get", "ctx"); s != IPT_OK) return s;
        std::shared_lock lock(ctx->mutex);
        if (index >= ctx->reports.size())
            return fail(IPT_ERR_NOT_FOUND, "ipt_plugin_report_get: index " + std::to_string(index) + " is past the report (" +
                                               std::to_string(ctx->reports.size()) + " entries)");
        const Report& r = ctx->reports[index];
        ipt_plugin_report v{};
        v.path = r.path.c_str();
        v.source = r.source.c_str();
        v.outcome = r.outcome;
        v.error = r.error.c_str();
        v.name = r.name.c_str();
        v.vendor = r.vendor.c_str();
        v.version = r.version.c_str();
        v.abi_version_seen = r.abi_seen;
        v.api_version_seen = r.api_seen;
        v.device_count = r.device_count;
        v.device_note = r.device_note.c_str();
        v.impl_count = r.impl_count;
        return copy_out(out, v, "ipt_plugin_report_get");
    });
}

IPT_API uint32_t ipt_device_count(const ipt_context* ctx) {
    if (!usable(ctx, "ipt_device_count")) return 0;
    std::shared_lock lock(ctx->mutex);
    return static_cast<uint32_t>(ctx->devices.size());
}

IPT_API ipt_status ipt_device_get(const ipt_context* ctx, uint32_t id, ipt_device_info* out) {
    return guard([&] {
        if (ipt_status s = check_handle(ctx, HandleType::context, "ipt_device_get", "ctx"); s != IPT_OK) return s;
        std::shared_lock lock(ctx->mutex);
        if (id >= ctx->devices.size())
            return fail(IPT_ERR_NOT_FOUND, "ipt_device_get: no device with id " + std::to_string(id));
        const Device& d = ctx->devices[id];
        ipt_device_info v{};
        v.id = d.id;
        v.name = d.name.c_str();
        v.kind = d.kind.c_str();
        v.vendor = d.vendor.c_str();
        v.plugin = d.plugin_name.c_str();
        v.identity = d.identity.c_str();
        v.memory_bytes = d.memory_bytes;
        v.compute_units = d.compute_units;
        v.subgroup_size = d.subgroup_size;
        return copy_out(out, v, "ipt_device_get");
    });
}

IPT_API uint32_t ipt_op_count(const ipt_context* ctx) {
    if (!usable(ctx, "ipt_op_count")) return 0;
    std::shared_lock lock(ctx->mutex);
    return static_cast<uint32_t>(ctx->ops.size());
}

IPT_API const ipt_op_schema* ipt_op_get(const ipt_context* ctx, uint32_t index) {
    if (!usable(ctx, "ipt_op_get")) return nullptr;
    std::shared_lock lock(ctx->mutex);
    return index < ctx->ops.size() ? ctx->ops[index] : nullptr;
}

IPT_API const ipt_op_schema* ipt_op_find(const ipt_context* ctx, const char* name) {
    if (!usable(ctx, "ipt_op_find")) return nullptr;
    std::shared_lock lock(ctx->mutex);
    return find_op_locked(ctx, name);
}

namespace {
std::vector<const Impl*> impls_of(const ipt_context* ctx, const char* op) {
    std::vector<const Impl*> out;
    const ipt_op_schema* schema = op ? find_op_locked(ctx, op) : nullptr;
    for (const Impl& i : ctx->impls)
        if (!op || i.schema == schema) out.push_back(&i);
    return out;
}
}  // namespace

IPT_API uint32_t ipt_impl_count(const ipt_context* ctx, const char* op) {
    if (!usable(ctx, "ipt_impl_count")) return 0;
    std::shared_lock lock(ctx->mutex);
    return static_cast<uint32_t>(impls_of(ctx, op).size());
}

IPT_API ipt_status ipt_impl_get(const ipt_context* ctx, const char* op, uint32_t index, ipt_impl_info* out) {
    return guard([&] {
        if (ipt_status s = check_handle(ctx, HandleType::context, "ipt_impl_get", "ctx"); s != IPT_OK) return s;
        std::shared_lock lock(ctx->mutex);
        auto list = impls_of(ctx, op);
        if (index >= list.size())
            return fail(IPT_ERR_NOT_FOUND, "ipt_impl_get: index " + std::to_string(index) + " is past the " +
                                               std::to_string(list.size()) + " implementations");
        const Impl& i = *list[index];
        ipt_impl_info v{};
        v.op = i.schema->name;
        v.variant = i.variant.c_str();
        v.plugin = i.plugin->name.c_str();
        v.device_id = i.device_id;
        v.priority = i.priority;
        return copy_out(out, v, "ipt_impl_get");
    });
}

}  // extern "C"
