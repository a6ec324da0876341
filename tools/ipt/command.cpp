// SPDX-License-Identifier: Apache-2.0
#include "command.hpp"

#include <algorithm>
#include <cctype>

#include "text.hpp"

namespace ipt::cli {

namespace {
// A function-local static: registrations run from other files' static
// initialisers, whose order relative to this file is unspecified.
std::vector<CommandSpec>& command_list() {
    static std::vector<CommandSpec> commands;
    return commands;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string_view short_name(std::string_view op) {
    const auto dot = op.find('.');
    return dot == std::string_view::npos ? op : op.substr(dot + 1);
}

std::string_view outcome_name(int32_t outcome) {
    switch (outcome) {
    case IPT_LOAD_LOADED: return "loaded";
    case IPT_LOAD_FAILED: return "failed";
    case IPT_LOAD_DUPLICATE: return "duplicate";
    default: return "?";
    }
}
} // namespace

bool register_command(const CommandSpec& spec) {
    command_list().push_back(spec);
    return true;
}

std::vector<CommandSpec> registered_commands() {
    std::vector<CommandSpec> commands = command_list();
    std::sort(commands.begin(), commands.end(),
              [](const CommandSpec& a, const CommandSpec& b) { return std::string_view(a.name) < b.name; });
    return commands;
}

void add_context_options(CLI::App& sub, ContextOptions& options) {
    sub.add_option("--plugin", options.plugins, "Load this plugin file too (repeatable)")->allow_extra_args(false);
    sub.add_flag("--no-discovery", options.no_discovery,
                 "Do not load plugins from IPT_PLUGIN_PATH or the folder next to libipt");
}

std::string load_outcome_name(int32_t outcome) { return std::string(outcome_name(outcome)); }

std::string describe_load_report(const ipt_plugin_report& r) {
    std::string text = std::string(r.path ? r.path : "?") + " (" + (r.source ? r.source : "?") + "): " +
                       std::string(outcome_name(r.outcome));
    if (r.name && *r.name) text += ", plugin " + std::string(r.name) + " " + (r.version ? r.version : "");
    if (r.abi_version_seen)
        text += ", ABI " + std::to_string(r.abi_version_seen) + " API " + std::to_string(r.api_version_seen);
    if (r.outcome == IPT_LOAD_LOADED) {
        text += ", " + std::to_string(r.device_count) + " device(s)";
        if (r.device_count == 0 && r.device_note && *r.device_note) text += " (" + std::string(r.device_note) + ")";
    }
    if (r.error && *r.error) text += ": " + std::string(r.error);
    return text;
}

ipt::Context open_context(const ContextOptions& options) {
    ipt::Context ctx(options.no_discovery ? IPT_CONTEXT_NO_DISCOVERY : 0u);
    for (const std::string& path : options.plugins) {
        const uint32_t before = ipt_plugin_report_count(ctx.get());
        if (ipt_load_plugin(ctx.get(), path.c_str()) != IPT_OK) {
            std::string message = ipt_last_error();
            const uint32_t after = ipt_plugin_report_count(ctx.get());
            if (after > before) {
                // The report entry says more than the status: path, versions, loader text.
                ipt_plugin_report report{};
                report.struct_size = sizeof report;
                if (ipt_plugin_report_get(ctx.get(), after - 1, &report) == IPT_OK)
                    message = describe_load_report(report);
            }
            throw UsageError("cannot load plugin " + path + ": " + message);
        }
    }
    return ctx;
}

uint32_t resolve_device(const ipt::Context& ctx, const std::string& text) {
    const auto devices = ctx.devices();
    const bool numeric = !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) {
        return std::isdigit(c);
    });
    for (const auto& d : devices) {
        if (numeric ? std::to_string(d.id) == text : (d.kind && text == d.kind)) return d.id;
    }
    for (const auto& d : devices)
        if (d.name && text == d.name) return d.id;
    std::vector<std::string> known;
    for (const auto& d : devices)
        known.push_back(std::to_string(d.id) + " " + (d.name ? d.name : "?") + " (" + (d.kind ? d.kind : "?") + ")");
    throw UsageError("unknown device '" + text + "'; devices: " + join(known, ", "));
}

std::string resolve_op(const ipt::Context& ctx, const std::string& name) {
    // The schema's own name is returned: the registry may also accept short forms.
    if (const ipt_op_schema* op = ipt_op_find(ctx.get(), name.c_str())) return op->name;
    if (name.find('.') == std::string::npos) {
        const std::string builtin = "ipt." + name;
        if (const ipt_op_schema* op = ipt_op_find(ctx.get(), builtin.c_str())) return op->name;
    }
    std::vector<std::string> close;
    for (const ipt_op_schema* op : ctx.ops())
        if (op && edit_distance(short_name(name), short_name(op->name)) <= 2) close.emplace_back(op->name);
    std::string message = "unknown operator '" + name + "'";
    if (!close.empty()) message += "; did you mean " + join(close, " or ") + "?";
    throw UsageError(message + " (`ipt info` lists the operators)");
}

} // namespace ipt::cli
