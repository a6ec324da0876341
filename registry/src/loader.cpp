// SPDX-License-Identifier: Apache-2.0
// Plugin loading with Boost.DLL: discovery, version negotiation, checks of
// every table a plugin hands over, and the load report.
#include <boost/dll/runtime_symbol_info.hpp>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <set>
#include <thread>

#include "internal.hpp"
#include "library_file.hpp"
#include "tuning.hpp"

namespace fs = std::filesystem;

namespace ipt::reg {

// Defined in call.cpp: the host-table callbacks that need a call's state.
ipt_status host_alloc_output(void* host_call, uint32_t param_index, int32_t dtype, int64_t rows,
                             int64_t cols, int64_t channels, const ipt_tensor** out);
ipt_status host_native_handle(void* host_call, int32_t kind, const ipt_tensor* tensor, void** out);

void host_log(int32_t level, const char* plugin, const char* message) {
    static const int threshold = [] {
        const char* e = std::getenv("IPT_LOG_LEVEL");
        return e ? std::atoi(e) : 2;  // warnings and errors
    }();
    if (level < threshold) return;
    static const char* names[] = {"debug", "info", "warning", "error"};
    std::fprintf(stderr, "openipt[%s] %s: %s\n", plugin ? plugin : "?",
                 names[std::clamp(level, 0, 3)], message ? message : "");
}

namespace {

void host_set_error(const char* message) { set_plugin_error(message); }

// More worker threads than this gain nothing on any host and can exhaust the
// process's thread or memory limits.
constexpr long kMaxCpuThreads = 1024;

int32_t host_cpu_threads() {
    static const int32_t n = [] {
        const unsigned hc = std::thread::hardware_concurrency();
        const int32_t cores = static_cast<int32_t>(hc ? hc : 1);
        const char* e = std::getenv("IPT_NUM_THREADS");
        if (!e || !*e) return cores;
        char* end = nullptr;
        errno = 0;
        const long v = std::strtol(e, &end, 10);
        if (*end != '\0' || v < 1) {
            host_log(2, "openipt", (std::string("IPT_NUM_THREADS='") + e +
                                    "' is not a whole number of at least 1; using " + std::to_string(cores) +
                                    " (the cores)").c_str());
            return cores;
        }
        if (errno == ERANGE || v > kMaxCpuThreads) {
            host_log(2, "openipt", (std::string("IPT_NUM_THREADS=") + e + " is above " +
                                    std::to_string(kMaxCpuThreads) + "; using " + std::to_string(kMaxCpuThreads))
                                       .c_str());
            return static_cast<int32_t>(kMaxCpuThreads);
        }
        return static_cast<int32_t>(v);
    }();
    return n;
}

const ipt_host_table the_host_table = {
    {sizeof(ipt_host_table), IPT_ABI_VERSION, IPT_API_VERSION},
    host_log,
    host_set_error,
    host_alloc_output,
    host_native_handle,
    host_cpu_threads,
};

#define IPT_SLOT_END(type, field) IPT_SIZE_THROUGH(type, field)

// A copy of a plugin's schema in this library's layout: the fields the
// plugin's struct_size and param_stride cover, zero beyond them.
const ipt_op_schema* adopt_schema(Plugin& plugin, const ipt_op_schema& s) {
    ipt_op_schema copy{};
    std::memcpy(&copy, &s, std::min<size_t>(s.struct_size, sizeof copy));
    // The tiling and its rule are one unit (API version 3): a writer whose
    // struct ends before the rule declares neither, whatever lies there.
    if (s.struct_size < IPT_SIZE_THROUGH(ipt_op_schema, tiling_rule)) {
        copy.tiling = IPT_TILING_UNKNOWN;
        copy.tiling_rule = nullptr;
    }
    copy.struct_size = sizeof copy;
    auto& params = plugin.schema_params.emplace_back(s.param_count);
    const size_t bytes = std::min<size_t>(s.param_stride, sizeof(ipt_param_schema));
    for (uint32_t i = 0; i < s.param_count; ++i) std::memcpy(&params[i], ipt_op_param(&s, i), bytes);
    copy.param_stride = sizeof(ipt_param_schema);
    copy.params = params.data();
    return &plugin.schemas.emplace_back(copy);
}

// A bound that no operator's parameter list comes near; a count beyond it is
// a corrupt or hostile schema, not an operator.
constexpr uint32_t kMaxSchemaParams = 64;
// The most values a number list may hold (the parser's bound for a list
// without its own, params.cpp): a larger max_count would let a short text
// such as "0:1e9" expand into billions of values before it is counted.
constexpr uint32_t kMaxListValues = uint32_t(1) << 24;

// What makes a schema's parameters unusable by validation, or "": names
// unique, kinds known, enumerations with values, and every rule that refers
// to another parameter referring to one of the kind the rule reads.
std::string parameter_rule_problem(const ipt_op_schema& s) {
    for (uint32_t k = 0; k < s.param_count; ++k) {
        const ipt_param_schema& p = *ipt_op_param(&s, k);
        const std::string name = std::string("parameter '") + p.name + "'";
        for (uint32_t j = 0; j < k; ++j)
            if (std::strcmp(ipt_op_param(&s, j)->name, p.name) == 0) return name + " appears twice";
        if (p.kind < IPT_PARAM_INPUT || p.kind > IPT_PARAM_ENUM)
            return name + " has unknown kind " + std::to_string(p.kind);
        if (p.kind == IPT_PARAM_ENUM && (!p.values || !*p.values)) return name + " is an enumeration without values";
        if (p.kind == IPT_PARAM_FLOATS && p.max_count > kMaxListValues)
            return name + " allows " + std::to_string(p.max_count) + " values, more than the " +
                   std::to_string(kMaxListValues) + " a number list may have";
        const bool image = p.kind == IPT_PARAM_INPUT || p.kind == IPT_PARAM_OUTPUT;
        const uint32_t image_rules = IPT_P_SAME_SIZE | IPT_P_SAME_DTYPE | IPT_P_LUT;
        if ((p.flags & image_rules) && !image) return name + " has an image rule (same size, class or LUT) but is no image";
        if ((p.flags & IPT_P_ORDER_OF) && p.kind != IPT_PARAM_INT) return name + " has ORDER_OF but is no integer";
        if (p.flags & (image_rules | IPT_P_ORDER_OF)) {
            const int ri = param_index(s, p.ref);
            const ipt_param_schema* r = ri < 0 ? nullptr : ipt_op_param(&s, static_cast<uint32_t>(ri));
            if (!r) return name + " refers to " + (p.ref ? std::string("unknown parameter '") + p.ref + "'" : "no parameter");
            if (r->kind != IPT_PARAM_INPUT)
                return name + " refers to '" + p.ref + "', which is not an input image";
        }
    }
    return "";
}

}  // namespace

// Checks that a schema a plugin hands over can be read: sizes (IPT_ERR_ABI)
// first, then contents (IPT_ERR_PLUGIN).
ipt_status check_schema(const ipt_op_schema* s, uint32_t i) {
    const std::string which = "schema " + std::to_string(i);
    if (!s) return fail(IPT_ERR_PLUGIN, which + " is NULL");
    if (s->struct_size < IPT_OP_SCHEMA_MIN_SIZE)
        return fail(IPT_ERR_ABI, which + " has struct_size " + std::to_string(s->struct_size) +
                                     ", API version 1 needs at least " + std::to_string(IPT_OP_SCHEMA_MIN_SIZE));
    if (!s->name || !s->params) return fail(IPT_ERR_PLUGIN, which + " is incomplete");
    if (s->param_count > 0 &&
        (s->param_stride < IPT_PARAM_SCHEMA_MIN_SIZE || s->param_stride % alignof(ipt_param_schema) != 0))
        return fail(IPT_ERR_ABI, which + " ('" + s->name + "') has param_stride " + std::to_string(s->param_stride) +
                                     ", API version 1 needs a multiple of " +
                                     std::to_string(alignof(ipt_param_schema)) + " of at least " +
                                     std::to_string(IPT_PARAM_SCHEMA_MIN_SIZE));
    if (s->param_count > kMaxSchemaParams)
        return fail(IPT_ERR_PLUGIN, which + " ('" + s->name + "') declares " + std::to_string(s->param_count) +
                                        " parameters, more than the " + std::to_string(kMaxSchemaParams) +
                                        " an operator may have");
    for (uint32_t k = 0; k < s->param_count; ++k)
        if (!ipt_op_param(s, k)->name || !*ipt_op_param(s, k)->name)
            return fail(IPT_ERR_PLUGIN, which + " ('" + s->name + "') has a parameter without a name");
    const std::string rule = parameter_rule_problem(*s);
    if (!rule.empty()) return fail(IPT_ERR_PLUGIN, which + " ('" + s->name + "'): " + rule);
    return IPT_OK;
}

namespace {

std::string canonical_path(const std::string& path) {
    std::error_code ec;
    fs::path p = fs::weakly_canonical(fs::path(path), ec);
    return ec ? path : p.string();
}

// Checks a returned table and binds its devices and implementations. On
// failure nothing of the plugin is visible in the context.
ipt_status adopt_table(ipt_context* ctx, Plugin& plugin, Report& report) {
    const ipt_plugin_table* t = plugin.table;
    report.abi_seen = t->header.abi_version;
    report.api_seen = t->header.api_version;
    if (t->header.abi_version != IPT_ABI_VERSION)
        return fail(IPT_ERR_ABI, "plugin speaks ABI version " + std::to_string(t->header.abi_version) +
                                     ", this host speaks " + std::to_string(IPT_ABI_VERSION));
    // Every slot of API version 1 must be there (optional ones may be NULL).
    if (t->header.struct_size < IPT_PLUGIN_TABLE_MIN_SIZE)
        return fail(IPT_ERR_ABI, "plugin table is " + std::to_string(t->header.struct_size) +
                                     " bytes, API version 1 needs at least " +
                                     std::to_string(IPT_PLUGIN_TABLE_MIN_SIZE));
    if (!t->name || !*t->name) return fail(IPT_ERR_PLUGIN, "plugin table has no name");
    report.name = t->name;
    report.vendor = t->vendor ? t->vendor : "";
    report.version = t->version ? t->version : "";
    report.device_note = t->device_note ? t->device_note : "";
    if (t->device_count > 0) {
        if (!t->devices) return fail(IPT_ERR_PLUGIN, "plugin reports devices but the device list is NULL");
        if (!t->mem_alloc || !t->mem_free || !t->mem_upload || !t->mem_download || !t->sync)
            return fail(IPT_ERR_PLUGIN, "plugin owns devices but lacks memory functions "
                                        "(mem_alloc, mem_free, mem_upload, mem_download, sync)");
        for (uint32_t i = 0; i < t->device_count; ++i) {
            if (!t->devices[i]) return fail(IPT_ERR_PLUGIN, "device " + std::to_string(i) + " description is NULL");
            if (t->devices[i]->struct_size < IPT_DEVICE_DESC_MIN_SIZE)
                return fail(IPT_ERR_ABI, "device " + std::to_string(i) + " description has struct_size " +
                                             std::to_string(t->devices[i]->struct_size) +
                                             ", API version 1 needs at least " +
                                             std::to_string(IPT_DEVICE_DESC_MIN_SIZE));
        }
    }
    if (t->impl_count > 0 && !t->impls) return fail(IPT_ERR_PLUGIN, "plugin reports implementations but the list is NULL");
    if (t->schema_count > 0 && !t->schemas) return fail(IPT_ERR_PLUGIN, "plugin reports schemas but the list is NULL");

    // Operators the plugin introduces, checked before anything is copied.
    for (uint32_t i = 0; i < t->schema_count; ++i)
        if (ipt_status s = check_schema(t->schemas[i], i); s != IPT_OK) return s;
    std::map<std::string, const ipt_op_schema*> new_ops;
    for (uint32_t i = 0; i < t->schema_count; ++i) {
        const ipt_op_schema* s = t->schemas[i];
        if (!std::strchr(s->name, '.'))
            return fail(IPT_ERR_PLUGIN, std::string("operator '") + s->name + "' is not namespaced (e.g. 'acme.facet')");
        if (ctx->ops_by_name.count(s->name) || new_ops.count(s->name))
            return fail(IPT_ERR_PLUGIN, std::string("plugin introduces operator '") + s->name + "', which already exists");
        new_ops[s->name] = adopt_schema(plugin, *s);
    }

    // Implementations: each must name a known operator, once per (variant, device kind).
    std::set<std::string> seen;
    std::vector<Impl> templates;
    std::vector<std::string> kinds;
    for (uint32_t i = 0; i < t->impl_count; ++i) {
        if (!t->impls[i]) return fail(IPT_ERR_PLUGIN, "implementation " + std::to_string(i) + " is NULL");
        const ipt_impl_desc& d = *t->impls[i];
        if (d.struct_size < IPT_IMPL_DESC_MIN_SIZE)
            return fail(IPT_ERR_ABI, "implementation " + std::to_string(i) + " has struct_size " +
                                         std::to_string(d.struct_size) + ", API version 1 needs at least " +
                                         std::to_string(IPT_IMPL_DESC_MIN_SIZE));
        if (!d.op || !d.run || !d.device_kind)
            return fail(IPT_ERR_PLUGIN, "implementation " + std::to_string(i) + " is incomplete");
        const std::string variant = d.variant ? d.variant : "";
        const std::string key = std::string(d.op) + "|" + variant + "|" + d.device_kind;
        if (!seen.insert(key).second)
            return fail(IPT_ERR_PLUGIN, std::string("plugin registers operator '") + d.op + "' (variant '" + variant +
                                            "', device kind '" + d.device_kind + "') twice");
        const ipt_op_schema* schema = nullptr;
        if (auto it = ctx->ops_by_name.find(d.op); it != ctx->ops_by_name.end()) schema = it->second;
        else if (auto jt = new_ops.find(d.op); jt != new_ops.end()) schema = jt->second;
        if (!schema) return fail(IPT_ERR_PLUGIN, std::string("plugin implements unknown operator '") + d.op + "'");
        Impl impl;
        impl.schema = schema;
        impl.variant = variant;
        impl.plugin = &plugin;
        impl.priority = d.priority;
        impl.run = d.run;
        impl.user = d.user;
        templates.push_back(impl);
        kinds.push_back(d.device_kind);
    }

    // Everything checks out: publish devices, operators, implementations.
    for (uint32_t i = 0; i < t->device_count; ++i) {
        const ipt_device_desc& dd = *t->devices[i];
        Device dev;
        dev.id = static_cast<uint32_t>(ctx->devices.size());
        dev.name = dd.name ? dd.name : "";
        dev.kind = dd.kind ? dd.kind : "";
        dev.vendor = dd.vendor ? dd.vendor : "";
        dev.identity = dd.identity ? dd.identity : "";
        dev.plugin_name = plugin.name;
        dev.memory_bytes = dd.memory_bytes;
        dev.compute_units = dd.compute_units;
        dev.subgroup_size = dd.subgroup_size;
        dev.owner = &plugin;
        dev.index_in_plugin = i;
        ctx->devices.push_back(dev);
        plugin.device_ids.push_back(dev.id);
    }
    for (auto& [name, s] : new_ops) {
        ctx->ops.push_back(s);
        ctx->ops_by_name[name] = s;
    }
    plugin.impl_templates = std::move(templates);
    plugin.impl_kinds = std::move(kinds);
    report.device_count = t->device_count;
    return IPT_OK;
}

// Binds every plugin's implementations to every device of their kind, so an
// operator plugin loaded before the plugin that owns its devices still binds.
void rebind_impls(ipt_context* ctx) {
    ctx->impls.clear();
    for (const auto& p : ctx->plugins)
        for (size_t i = 0; i < p->impl_templates.size(); ++i)
            for (const Device& dev : ctx->devices)
                if (dev.kind == p->impl_kinds[i]) {
                    Impl impl = p->impl_templates[i];
                    impl.device_id = dev.id;
                    impl.identity = candidate_identity(impl, dev);
                    ctx->impls.push_back(impl);
                }
}

}  // namespace

const ipt_host_table* host_table() { return &the_host_table; }

ipt_status load_plugin_locked(ipt_context* ctx, const std::string& path, const std::string& source) {
    Report report;
    report.path = path;
    report.source = source;
    const std::string canonical = canonical_path(path);

    for (const auto& p : ctx->plugins)
        if (canonical_path(p->path) == canonical) {
            report.outcome = IPT_LOAD_DUPLICATE;
            report.error = "already loaded as plugin '" + p->name + "'";
            report.name = p->name;
            ctx->reports.push_back(report);
            return IPT_OK;
        }

    auto finish_failed = [&](ipt_status s, const std::string& why) {
        report.outcome = IPT_LOAD_FAILED;
        report.error = why;
        ctx->reports.push_back(report);
        return fail(s, "plugin " + path + ": " + why);
    };

    // A file dlopen would die or block on (truncated, a FIFO, not ELF) is
    // refused before it gets there.
    if (std::optional<std::string> problem = library_file_problem(path))
        return finish_failed(IPT_ERR_PLUGIN, "cannot load shared library: refused before loading: " + *problem);

    auto plugin = std::make_unique<Plugin>();
    plugin->path = path;
    try {
        plugin->library.load(fs::path(path), boost::dll::load_mode::rtld_lazy | boost::dll::load_mode::rtld_local);
    } catch (const std::exception& e) {
        return finish_failed(IPT_ERR_PLUGIN, std::string("cannot load shared library: ") + e.what());
    }
    if (!plugin->library.has(IPT_PLUGIN_ENTRY_SYMBOL))
        return finish_failed(IPT_ERR_PLUGIN, "no exported symbol '" IPT_PLUGIN_ENTRY_SYMBOL "'");

    auto& entry = plugin->library.get<const ipt_plugin_table*(const ipt_host_table*, const char**)>(
        IPT_PLUGIN_ENTRY_SYMBOL);
    const char* reason = nullptr;
    try {
        set_plugin_error(nullptr);
        plugin->table = entry(&the_host_table, &reason);
    } catch (const std::exception& e) {
        return finish_failed(IPT_ERR_PLUGIN, std::string("entry threw a C++ exception: ") + e.what());
    } catch (...) {
        return finish_failed(IPT_ERR_PLUGIN, "entry threw a C++ exception of unknown type");
    }
    if (!plugin->table)
        return finish_failed(IPT_ERR_PLUGIN, std::string("entry returned no table: ") +
                                                 (reason && *reason ? reason : "(no reason given)"));

    // Unique name in the context: a second copy of a plugin gets "#2".
    std::string name = plugin->table->name ? plugin->table->name : "";
    std::string unique = name;
    for (int k = 2;; ++k) {
        bool taken = false;
        for (const auto& p : ctx->plugins) taken |= p->name == unique;
        if (!taken) break;
        unique = name + "#" + std::to_string(k);
    }
    plugin->name = unique;

    ipt_status s = adopt_table(ctx, *plugin, report);
    if (s != IPT_OK) {
        std::string why = ipt_last_error();
        // Keep the library mapped: the plugin may have started work we cannot see.
        if (plugin->table->header.abi_version == IPT_ABI_VERSION &&
            plugin->table->header.struct_size >= IPT_SLOT_END(ipt_plugin_table, shutdown) && plugin->table->shutdown) {
            try {
                plugin->table->shutdown();
            } catch (...) {
            }
        }
        static std::mutex rejected_mutex;
        static auto* rejected = new std::deque<boost::dll::shared_library>();  // never unloaded
        {
            std::lock_guard lock(rejected_mutex);
            rejected->push_back(plugin->library);
        }
        return finish_failed(s, why);
    }
    report.name = unique;
    report.outcome = IPT_LOAD_LOADED;
    Plugin* loaded = plugin.get();
    if (ctx->pin_host && !ctx->host_pinner.load() && !loaded->device_ids.empty() &&
        loaded->has_slot(IPT_SLOT_END(ipt_plugin_table, host_unregister)) && loaded->table->host_register &&
        loaded->table->host_unregister)
        ctx->host_pinner = loaded->table;
    ctx->plugins.push_back(std::move(plugin));
    rebind_impls(ctx);
    report.impl_count = static_cast<uint32_t>(
        std::count_if(ctx->impls.begin(), ctx->impls.end(), [&](const Impl& i) { return i.plugin == loaded; }));
    ctx->reports.push_back(report);
    return IPT_OK;
}

void discover_plugins(ipt_context* ctx) {
    auto scan = [&](const fs::path& entry, const std::string& source) {
        std::error_code ec;
        if (fs::is_directory(entry, ec)) {
            std::vector<fs::path> files;
            for (const auto& f : fs::directory_iterator(entry, ec)) {
                const std::string n = f.path().filename().string();
                if (n.rfind("libipt_", 0) == 0 && f.path().extension() == ".so") files.push_back(f.path());
            }
            std::sort(files.begin(), files.end());  // a stable load order gives stable device ids
            for (const auto& f : files) load_plugin_locked(ctx, f.string(), source);
        } else if (!entry.empty()) {
            load_plugin_locked(ctx, entry.string(), source);
        }
    };
    if (const char* env = std::getenv("IPT_PLUGIN_PATH")) {
        std::string list = env;
        size_t start = 0;
        while (start <= list.size()) {
            size_t end = list.find(':', start);
            if (end == std::string::npos) end = list.size();
            if (end > start) scan(fs::path(list.substr(start, end - start)), "IPT_PLUGIN_PATH");
            start = end + 1;
        }
    }
    try {
        fs::path self = boost::dll::this_line_location();
        scan(self.parent_path(), "default");
    } catch (const std::exception&) {
        // Without our own location there is no default folder; the report stays as is.
    }
    clear_error();  // failures are in the report, not the context's creation status
}

void unload_all(ipt_context* ctx) {
    for (auto& p : ctx->plugins) {
        if (p->has_slot(IPT_SLOT_END(ipt_plugin_table, shutdown)) && p->table->shutdown) {
            try {
                p->table->shutdown();
            } catch (...) {
            }
        }
    }
    // The libraries stay mapped: a plugin's worker threads (OpenMP's, a
    // driver's) may outlive shutdown(), and unmapping code they still run
    // crashes the process. The loader's reference is kept until exit.
    static std::mutex graveyard_mutex;
    static std::deque<boost::dll::shared_library>* graveyard = new std::deque<boost::dll::shared_library>();
    {
        std::lock_guard lock(graveyard_mutex);
        for (auto& p : ctx->plugins) graveyard->push_back(p->library);
    }
    ctx->plugins.clear();
}

}  // namespace ipt::reg
