// SPDX-License-Identifier: Apache-2.0
// `ipt info`: what this machine offers — plugins and every load attempt,
// devices, operators with their implementations and parameter schemas.
#include <iostream>
#include <map>
#include <memory>
#include <set>

#include "command.hpp"
#include "text.hpp"

namespace ipt::cli {
namespace {

struct InfoOptions {
    bool json = false;
    std::string op; // only this operator's schema
    ContextOptions context;
};

std::string str(const char* s) { return s ? s : ""; }

std::string_view compare_name(int32_t kind) {
    switch (kind) {
    case IPT_CMP_EXACT: return "exact";
    case IPT_CMP_RANGE_EPS: return "range_eps";
    case IPT_CMP_CONV: return "conv";
    case IPT_CMP_BWDIST: return "bwdist";
    default: return "?";
    }
}

bool is_number_kind(int32_t kind) {
    return kind == IPT_PARAM_INT || kind == IPT_PARAM_FLOAT || kind == IPT_PARAM_FLOATS;
}

// Bounds as text; IPT_UNBOUNDED reads as no bound.
std::string range_text(const ipt_param_schema& p) {
    if (!is_number_kind(p.kind)) return "";
    const bool low = p.min_value > -IPT_UNBOUNDED, high = p.max_value < IPT_UNBOUNDED;
    if (!low && !high) return "";
    return "[" + (low ? format_number(p.min_value) : std::string("-inf")) + ", " +
           (high ? format_number(p.max_value) : std::string("inf")) + "]";
}

// Everything gathered once, for the text and the JSON views.
struct Snapshot {
    std::vector<ipt_plugin_report> reports;
    std::vector<ipt_device_info> devices;
    std::vector<const ipt_op_schema*> ops;
    std::vector<ipt_impl_info> impls;
};

Snapshot take_snapshot(const ipt::Context& ctx) {
    Snapshot s{ctx.plugin_reports(), ctx.devices(), ctx.ops(), ctx.impls(nullptr)};
    std::erase(s.ops, nullptr);
    return s;
}

// Operators a loaded plugin implements, in catalogue order, without repeats.
std::vector<std::string> ops_of_plugin(const Snapshot& s, const std::string& plugin) {
    std::set<std::string> seen;
    for (const auto& impl : s.impls)
        if (str(impl.plugin) == plugin) seen.insert(str(impl.op));
    std::vector<std::string> out;
    for (const auto* op : s.ops)
        if (seen.erase(op->name)) out.emplace_back(op->name);
    out.insert(out.end(), seen.begin(), seen.end()); // ops missing from the schema list, if any
    return out;
}

// Devices a loaded plugin's implementations run on: its own devices and, for
// host plugins such as cpu, the host device it does not own.
std::vector<uint32_t> devices_of_plugin(const Snapshot& s, const std::string& plugin) {
    std::set<uint32_t> ids;
    for (const auto& d : s.devices)
        if (str(d.plugin) == plugin) ids.insert(d.id);
    for (const auto& impl : s.impls)
        if (str(impl.plugin) == plugin) ids.insert(impl.device_id);
    return {ids.begin(), ids.end()};
}

const ipt_device_info* find_device(const Snapshot& s, uint32_t id) {
    for (const auto& d : s.devices)
        if (d.id == id) return &d;
    return nullptr;
}

std::string device_label(const Snapshot& s, uint32_t id) {
    for (const auto& d : s.devices)
        if (d.id == id) return std::to_string(id) + " (" + str(d.kind) + ")";
    return std::to_string(id);
}

// ---- JSON ---------------------------------------------------------------------

nlohmann::json param_json(const ipt_param_schema& p) {
    nlohmann::json j{{"name", str(p.name)}, {"kind", param_kind_name(p.kind)}, {"flags", flag_words(p)},
                     {"doc", str(p.doc)}};
    if (p.kind == IPT_PARAM_INPUT || p.kind == IPT_PARAM_OUTPUT) {
        std::vector<std::string> dtypes;
        for (int d = 1; d < IPT_DTYPE_COUNT; ++d)
            if (p.dtypes & IPT_DT(d)) dtypes.emplace_back(dtype_name(static_cast<ipt_dtype>(d)));
        j["dtypes"] = dtypes;
    }
    j["default"] = p.default_text ? nlohmann::json(p.default_text) : nlohmann::json(nullptr);
    if (p.values) j["values"] = p.values;
    if (is_number_kind(p.kind)) {
        j["min"] = p.min_value > -IPT_UNBOUNDED ? nlohmann::json(p.min_value) : nlohmann::json(nullptr);
        j["max"] = p.max_value < IPT_UNBOUNDED ? nlohmann::json(p.max_value) : nlohmann::json(nullptr);
    }
    if (p.kind == IPT_PARAM_FLOATS) {
        j["min_count"] = p.min_count;
        j["max_count"] = p.max_count;
    }
    if (p.ref) j["ref"] = p.ref;
    return j;
}

// The schema's tiling (API version 3), "unknown" where its writer predates it.
const char* tiling_name(const ipt_op_schema& op) {
    if (op.struct_size < IPT_SIZE_THROUGH(ipt_op_schema, tiling_rule)) return "unknown";
    switch (op.tiling) {
    case IPT_TILING_POINTWISE: return "pointwise";
    case IPT_TILING_WINDOW: return "window";
    case IPT_TILING_REDUCE: return "reduce";
    case IPT_TILING_WHOLE: return "whole";
    default: return "unknown";
    }
}
const char* tiling_rule(const ipt_op_schema& op) {
    return op.struct_size >= IPT_SIZE_THROUGH(ipt_op_schema, tiling_rule) ? op.tiling_rule : nullptr;
}

nlohmann::json op_json(const Snapshot& s, const ipt_op_schema& op) {
    nlohmann::json params = nlohmann::json::array();
    for (uint32_t i = 0; i < op.param_count; ++i) params.push_back(param_json(*ipt_op_param(&op, i)));
    nlohmann::json impls = nlohmann::json::array();
    for (const auto& impl : s.impls)
        if (str(impl.op) == op.name)
            impls.push_back({{"plugin", str(impl.plugin)}, {"device_id", impl.device_id},
                             {"variant", str(impl.variant)}, {"priority", impl.priority}});
    return {{"name", op.name},
            {"matlab", str(op.matlab)},
            {"summary", str(op.summary)},
            {"alternatives", op.alternatives ? nlohmann::json(op.alternatives) : nlohmann::json(nullptr)},
            {"compare", {{"kind", compare_name(op.compare)}, {"tolerance", op.tolerance}, {"doc", str(op.compare_doc)}}},
            {"tiling", {{"kind", tiling_name(op)},
                        {"rule", tiling_rule(op) ? nlohmann::json(tiling_rule(op)) : nlohmann::json(nullptr)}}},
            {"params", params},
            {"implementations", impls}};
}

nlohmann::json device_json(const ipt_device_info& d) {
    return {{"id", d.id},
            {"name", str(d.name)},
            {"kind", str(d.kind)},
            {"vendor", str(d.vendor)},
            {"plugin", str(d.plugin)},
            {"identity", str(d.identity)},
            {"memory_bytes", d.memory_bytes},
            {"compute_units", d.compute_units},
            {"subgroup_size", d.subgroup_size}};
}

nlohmann::json info_json(const Snapshot& s, const std::vector<const ipt_op_schema*>& shown_ops) {
    // plugins[] has one entry per load attempt; ops and devices are listed on
    // the attempt that loaded, so a duplicate does not count them twice.
    // devices[] are those the plugin's implementations run on ("owned": its own).
    nlohmann::json plugins = nlohmann::json::array();
    for (const auto& r : s.reports) {
        const bool loaded = r.outcome == IPT_LOAD_LOADED;
        nlohmann::json devices = nlohmann::json::array();
        if (loaded)
            for (uint32_t id : devices_of_plugin(s, str(r.name)))
                if (const ipt_device_info* d = find_device(s, id))
                    devices.push_back({{"id", d->id}, {"name", str(d->name)}, {"kind", str(d->kind)},
                                       {"owned", str(d->plugin) == str(r.name)}});
        plugins.push_back({{"name", str(r.name)},
                           {"vendor", str(r.vendor)},
                           {"version", str(r.version)},
                           {"path", str(r.path)},
                           {"source", str(r.source)},
                           {"status", load_outcome_name(r.outcome)},
                           {"error", str(r.error)},
                           {"abi_version", r.abi_version_seen},
                           {"api_version", r.api_version_seen},
                           {"device_count", r.device_count},
                           {"device_note", str(r.device_note)},
                           {"impl_count", r.impl_count},
                           {"ops", loaded ? ops_of_plugin(s, str(r.name)) : std::vector<std::string>{}},
                           {"devices", devices}});
    }
    nlohmann::json devices = nlohmann::json::array();
    for (const auto& d : s.devices) devices.push_back(device_json(d));
    nlohmann::json ops = nlohmann::json::array();
    for (const auto* op : shown_ops) ops.push_back(op_json(s, *op));
    return {{"abi_version", ipt_version_abi()},
            {"api_version", ipt_version_api()},
            {"plugins", plugins},
            {"devices", devices},
            {"ops", ops}};
}

// ---- text -----------------------------------------------------------------------

void print_plugins(std::ostream& out, const Snapshot& s) {
    out << "Plugins\n";
    Table table({"NAME", "VERSION", "VENDOR", "STATUS", "ABI/API", "OWN DEVICES", "RUNS ON", "OPS", "PATH"});
    for (const auto& r : s.reports) {
        if (r.outcome != IPT_LOAD_LOADED) continue;
        std::string devices = std::to_string(r.device_count);
        if (r.device_count == 0 && r.device_note && *r.device_note) devices += " (" + str(r.device_note) + ")";
        std::vector<std::string> ids;
        for (uint32_t id : devices_of_plugin(s, str(r.name))) ids.push_back(std::to_string(id));
        const std::string runs_on = ids.empty() ? "-" : join(ids, ",");
        table.add_row({str(r.name), str(r.version), str(r.vendor), "loaded",
                       std::to_string(r.abi_version_seen) + "/" + std::to_string(r.api_version_seen), devices,
                       runs_on, std::to_string(ops_of_plugin(s, str(r.name)).size()), str(r.path)});
    }
    if (table.empty()) out << "  (none loaded)\n";
    else table.print(out, "  ");

    out << "\nLoad report (every attempt)\n";
    if (s.reports.empty()) {
        out << "  (no plugin was tried: set IPT_PLUGIN_PATH or pass --plugin)\n";
        return;
    }
    Table attempts({"#", "STATUS", "SOURCE", "PLUGIN", "ABI/API SEEN", "PATH", "ERROR"});
    for (std::size_t i = 0; i < s.reports.size(); ++i) {
        const auto& r = s.reports[i];
        attempts.add_row({std::to_string(i), load_outcome_name(r.outcome), str(r.source), str(r.name),
                          r.abi_version_seen ? std::to_string(r.abi_version_seen) + "/" +
                                                   std::to_string(r.api_version_seen)
                                             : "-",
                          str(r.path), str(r.error)});
    }
    attempts.print(out, "  ");
}

void print_devices(std::ostream& out, const Snapshot& s) {
    out << "\nDevices\n";
    Table table({"ID", "NAME", "KIND", "VENDOR", "MEMORY", "UNITS", "SUBGROUP", "PLUGIN"});
    for (const auto& d : s.devices)
        table.add_row({std::to_string(d.id), str(d.name), str(d.kind), str(d.vendor),
                       d.memory_bytes ? format_bytes(d.memory_bytes) : "-",
                       d.compute_units ? std::to_string(d.compute_units) : "-",
                       d.subgroup_size ? std::to_string(d.subgroup_size) : "-", str(d.plugin)});
    table.print(out, "  ");
}

void print_op(std::ostream& out, const Snapshot& s, const ipt_op_schema& op) {
    out << "\n" << op.name << " - " << str(op.summary);
    if (op.matlab && *op.matlab) out << " (MATLAB " << op.matlab << ")";
    out << "\n";
    std::vector<std::string> impls;
    for (const auto& impl : s.impls) {
        if (str(impl.op) != op.name) continue;
        std::string text = str(impl.plugin) + " on device " + device_label(s, impl.device_id);
        if (impl.variant && *impl.variant) text += " variant " + str(impl.variant);
        impls.push_back(text + " priority " + std::to_string(impl.priority));
    }
    out << "  implementations: " << (impls.empty() ? "none" : join(impls, "; ")) << "\n";
    if (op.alternatives) out << "  give exactly one of: " << op.alternatives << "\n";
    out << "  compared: " << compare_name(op.compare) << " - " << str(op.compare_doc) << "\n";
    out << "  tiling: " << tiling_name(op) << (tiling_rule(op) ? std::string(" - ") + tiling_rule(op) : "") << "\n";
    Table table({"PARAM", "KIND", "CLASSES / VALUES", "DEFAULT", "RANGE", "FLAGS", "DOC"});
    for (uint32_t i = 0; i < op.param_count; ++i) {
        const auto& p = *ipt_op_param(&op, i);
        const std::string values = (p.kind == IPT_PARAM_INPUT || p.kind == IPT_PARAM_OUTPUT)
                                       ? dtypes_in_words(p.dtypes)
                                       : str(p.values);
        table.add_row({str(p.name), std::string(param_kind_name(p.kind)), values,
                       p.default_text ? p.default_text : "-", range_text(p), join(flag_words(p), ", "),
                       str(p.doc)});
    }
    table.print(out, "    ");
}

Action setup(CLI::App& sub) {
    auto opt = std::make_shared<InfoOptions>();
    sub.add_flag("--json", opt->json, "Machine-readable output");
    sub.add_option("--op", opt->op, "Show only this operator (e.g. conv2 or ipt.conv2)");
    add_context_options(sub, opt->context);
    return [opt] {
        ipt::Context ctx = open_context(opt->context);
        const Snapshot s = take_snapshot(ctx);
        std::vector<const ipt_op_schema*> shown = s.ops;
        if (!opt->op.empty()) shown = {ipt_op_find(ctx.get(), resolve_op(ctx, opt->op).c_str())};

        if (opt->json) {
            print_json(std::cout, info_json(s, shown));
            return kExitOk;
        }
        std::cout << "OpenIPT (ABI " << ipt_version_abi() << ", API " << ipt_version_api() << ")\n\n";
        print_plugins(std::cout, s);
        print_devices(std::cout, s);
        std::cout << "\nOperators (" << shown.size() << ")\n";
        for (const auto* op : shown) print_op(std::cout, s, *op);
        return kExitOk;
    };
}

IPT_CLI_COMMAND("info", "Plugins, load report, devices, operators and their parameters", setup);

} // namespace
} // namespace ipt::cli
