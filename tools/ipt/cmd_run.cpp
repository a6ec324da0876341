// SPDX-License-Identifier: Apache-2.0
// `ipt run OP --in NAME=FILE ... --out NAME=FILE ... --param NAME=VALUE ...`:
// one operator call on image files, with the dispatch decision on request.
#include <iostream>
#include <memory>
#include <set>

#include "command.hpp"
#include "image_io.hpp"
#include "text.hpp"

namespace ipt::cli {
namespace {

const char* cost_source_name(const ipt_candidate_info& c) {
    // Not measured but priced: a prior (an earlier run, or a measurement of another size scaled).
    if (c.source == IPT_COST_STATIC && c.run_ms >= 0) return "estimated";
    switch (c.source) {
    case IPT_COST_MEASURED: return "measured now";
    case IPT_COST_CACHED: return "tuning cache";
    case IPT_COST_DECLINED: return "declined";
    case IPT_COST_FAILED: return "failed";
    default: return "static";
    }
}

// Every candidate of the last dispatch, ranked, with its cost.
void print_candidates(std::ostream& out, const ipt::Context& ctx) {
    Table t({"", "IMPLEMENTATION", "DEVICE", "RUN MS", "TRANSFER MS", "COST MS", "FROM", "NOTE"});
    for (const auto& c : ctx.last_candidates()) {
        const std::string name = std::string(c.plugin) + (*c.variant ? std::string(":") + c.variant : "");
        auto ms = [](double v) { return v < 0 ? std::string("-") : format_number(v); };
        t.add_row({c.chosen ? "*" : "", name, std::to_string(c.device_id), ms(c.run_ms), ms(c.transfer_ms), ms(c.cost_ms),
                   cost_source_name(c), c.note});
    }
    if (!t.empty()) {
        out << "  ranked candidates (* ran):\n";
        t.print(out, "    ");
    }
}

nlohmann::json candidates_json(const ipt::Context& ctx) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& c : ctx.last_candidates())
        a.push_back({{"plugin", c.plugin}, {"variant", c.variant}, {"device_id", c.device_id}, {"run_ms", c.run_ms},
                     {"transfer_ms", c.transfer_ms}, {"cost_ms", c.cost_ms}, {"source", cost_source_name(c)},
                     {"chosen", c.chosen != 0}, {"note", c.note}});
    return a;
}


struct RunOptions {
    std::string op;
    std::vector<std::string> inputs;
    std::vector<std::string> outputs;
    std::vector<std::string> params;
    std::string device;
    std::string variant;
    CLI::Option* variant_option = nullptr; // "" is a valid variant, so track presence
    bool explain = false;
    bool json = false;
    ContextOptions context;
};

// Outputs at most this large are printed, so a scalar result (mean2) needs no file.
constexpr std::size_t kPrintLimit = 16;

std::vector<std::string> names_of(const ipt_op_schema& op, bool (*wanted)(const ipt_param_schema&)) {
    std::vector<std::string> names;
    for (uint32_t i = 0; i < op.param_count; ++i)
        if (wanted(*ipt_op_param(&op, i))) names.emplace_back(ipt_op_param(&op, i)->name);
    return names;
}
bool is_input(const ipt_param_schema& p) { return p.kind == IPT_PARAM_INPUT; }
bool is_output(const ipt_param_schema& p) { return p.kind == IPT_PARAM_OUTPUT; }
bool is_value(const ipt_param_schema& p) { return !is_input(p) && !is_output(p); }

const ipt_param_schema* find_param(const ipt_op_schema& op, const std::string& name) {
    for (uint32_t i = 0; i < op.param_count; ++i)
        if (name == ipt_op_param(&op, i)->name) return ipt_op_param(&op, i);
    return nullptr;
}

// Parses NAME=VALUE arguments of one option and checks each name against the
// schema, so that a typo or a misplaced name gets a message saying where it belongs.
std::vector<Assignment> parse_named(const std::vector<std::string>& args, const ipt_op_schema& op,
                                    std::string_view option, std::string_view value_word,
                                    bool (*belongs)(const ipt_param_schema&), std::string_view role) {
    std::vector<Assignment> out;
    std::set<std::string> seen;
    for (const std::string& arg : args) {
        Assignment a = parse_assignment(arg, option, value_word);
        const ipt_param_schema* p = find_param(op, a.name);
        if (!p || !belongs(*p)) {
            std::string message = std::string(op.name) + " has no " + std::string(role) + " '" + a.name + "'";
            if (p && is_input(*p)) message += "; '" + a.name + "' is an input image: give it with --in " + a.name + "=FILE";
            else if (p && is_output(*p)) message += "; '" + a.name + "' is an output: name its file with --out " + a.name + "=FILE";
            else if (p) message += "; '" + a.name + "' is a parameter: give it with --param " + a.name + "=VALUE";
            const auto valid = names_of(op, belongs);
            message += valid.empty() ? " (it has none)" : " (its " + std::string(role) + "s: " + join(valid, ", ") + ")";
            throw UsageError(message);
        }
        if (!seen.insert(a.name).second) throw UsageError(std::string(option) + " " + a.name + " is given twice");
        out.push_back(std::move(a));
    }
    return out;
}

// Every required input and every parameter without a default must be given;
// the library would refuse the call, but this is the command line's mistake.
void check_required(const ipt_op_schema& op, const std::vector<Assignment>& inputs,
                    const std::vector<Assignment>& params) {
    std::vector<std::string> missing;
    auto given = [](const std::vector<Assignment>& list, const char* name) {
        for (const auto& a : list)
            if (a.name == name) return true;
        return false;
    };
    // A parameter of an alternative group ("Scale|OutputSize") is needed only
    // when its group is the one given; the library checks that exactly one is.
    auto in_alternatives = [&](const char* name) {
        if (!op.alternatives) return false;
        const std::string groups = std::string("|") + op.alternatives + "|";
        for (const char sep : {'|', ','})
            for (const char end : {'|', ','})
                if (groups.find(sep + std::string(name) + end) != std::string::npos) return true;
        return false;
    };
    for (uint32_t i = 0; i < op.param_count; ++i) {
        const ipt_param_schema& p = *ipt_op_param(&op, i);
        if ((p.flags & IPT_P_OPTIONAL) || in_alternatives(p.name)) continue;
        if (is_input(p) && !given(inputs, p.name)) missing.push_back("--in " + std::string(p.name) + "=FILE");
        if (is_value(p) && !p.default_text && !given(params, p.name))
            missing.push_back("--param " + std::string(p.name) + "=VALUE");
    }
    if (!missing.empty())
        throw UsageError(std::string(op.name) + " needs " + join(missing, ", ") + " (`ipt info --op " + op.name +
                         "` lists its parameters)");
}

nlohmann::json image_json(const std::string& name, const HostImage& image, const std::string& file) {
    nlohmann::json j{{"name", name},
                     {"file", file.empty() ? nlohmann::json(nullptr) : nlohmann::json(file)},
                     {"dtype", dtype_name(image.dtype)},
                     {"rows", image.rows},
                     {"cols", image.cols},
                     {"channels", image.channels}};
    return j;
}

// Small outputs as MATLAB writes matrices: "[3 5 7 4]", rows separated by ';'.
std::string matrix_text(const HostImage& image) {
    // An empty output is named by its size; its loops would run over the
    // other dimension, which may be huge, for nothing.
    if (image.numel() == 0)
        return "[] (" + std::to_string(image.rows) + "x" + std::to_string(image.cols) +
               (image.channels == 1 ? std::string() : "x" + std::to_string(image.channels)) + ")";
    std::string text;
    for (int64_t k = 0; k < image.channels; ++k) {
        if (k) text += ", ";
        text += "[";
        for (int64_t r = 0; r < image.rows; ++r) {
            if (r) text += "; ";
            for (int64_t c = 0; c < image.cols; ++c) {
                if (c) text += " ";
                text += format_number(value_at(image, static_cast<std::size_t>((k * image.rows + r) * image.cols + c)));
            }
        }
        text += "]";
    }
    return text;
}

std::string device_text(const ipt::Context& ctx, uint32_t id) {
    for (const auto& d : ctx.devices())
        if (d.id == id) return std::to_string(id) + " " + (d.name ? d.name : "?") + " (" + (d.kind ? d.kind : "?") + ")";
    return std::to_string(id);
}

int run(const RunOptions& opt) {
    ipt::Context ctx = open_context(opt.context);
    const std::string op_name = resolve_op(ctx, opt.op);
    const ipt_op_schema& op = *ipt_op_find(ctx.get(), op_name.c_str());

    const auto inputs = parse_named(opt.inputs, op, "--in", "FILE", is_input, "input");
    const auto outputs = parse_named(opt.outputs, op, "--out", "FILE", is_output, "output");
    const auto params = parse_named(opt.params, op, "--param", "VALUE", is_value, "parameter");
    check_required(op, inputs, params);
    // Unknown extensions and two outputs to one file fail before any work is done.
    OutputFiles files;
    std::vector<OutputSpec> output_specs;
    for (const auto& o : outputs) {
        output_specs.push_back(parse_output_spec(o.value));
        files.declare("--out " + o.name, output_specs.back().path);
    }
    std::vector<InputSpec> input_specs;
    for (const auto& in : inputs) input_specs.push_back(parse_input_spec(in.value));

    ipt::Call call(ctx, op_name);
    // Values are parsed as they are set: a value the operator refuses is the
    // command line's mistake, like an unknown name.
    nlohmann::json params_json = nlohmann::json::object();
    for (const auto& p : params) {
        try {
            call.text(p.name.c_str(), p.value);
        } catch (const ipt::Error& e) {
            throw UsageError("--param " + p.name + "=" + p.value + ": " + e.what());
        }
        params_json[p.name] = p.value;
    }
    std::vector<ipt::Image> input_images; // alive until the call has run
    nlohmann::json inputs_json = nlohmann::json::array();
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const auto& in = inputs[i];
        const HostImage host = read_image(input_specs[i].path, input_specs[i].options);
        input_images.push_back(upload(ctx, host));
        call.image(in.name.c_str(), input_images.back());
        inputs_json.push_back(image_json(in.name, host, input_specs[i].path));
    }
    if (!opt.device.empty()) call.device(resolve_device(ctx, opt.device));
    if (opt.variant_option && opt.variant_option->count()) call.variant(opt.variant);
    std::set<std::string> wanted;
    for (const auto& o : outputs) {
        wanted.insert(o.name);
        if (find_param(op, o.name)->flags & IPT_P_OPTIONAL) call.want(o.name.c_str());
    }

    call.run();
    const ipt_dispatch_info dispatch = ctx.last_dispatch();

    // Required outputs always exist; optional ones only when asked for.
    nlohmann::json outputs_json = nlohmann::json::array();
    std::vector<std::string> lines;
    for (uint32_t i = 0; i < op.param_count; ++i) {
        const ipt_param_schema& p = *ipt_op_param(&op, i);
        if (!is_output(p) || ((p.flags & IPT_P_OPTIONAL) && !wanted.count(p.name))) continue;
        const HostImage host = download(call.take(p.name));
        std::string file;
        WriteOptions write_options;
        for (std::size_t o = 0; o < outputs.size(); ++o)
            if (outputs[o].name == p.name) {
                file = output_specs[o].path;
                write_options = output_specs[o].options;
            }
        if (!file.empty()) files.write(file, host, write_options); // renamed into place once all are written
        nlohmann::json j = image_json(p.name, host, file);
        std::string line = std::string(p.name) + ": " + describe(host);
        if (!file.empty()) line += " -> " + file;
        if (host.numel() <= kPrintLimit) {
            std::vector<double> values;
            for (std::size_t v = 0; v < host.numel(); ++v) values.push_back(value_at(host, v));
            j["values"] = values; // planar order
            line += " = " + matrix_text(host);
        }
        if (file.empty()) line += " (not saved; --out " + std::string(p.name) + "=FILE saves it)";
        outputs_json.push_back(j);
        lines.push_back(line);
    }

    files.commit();

    const std::string variant = dispatch.variant ? dispatch.variant : "";
    if (opt.json) {
        print_json(std::cout, {{"op", op_name},
                               {"inputs", inputs_json},
                               {"params", params_json},
                               {"outputs", outputs_json},
                               {"dispatch",
                                {{"plugin", dispatch.plugin ? dispatch.plugin : ""},
                                 {"variant", variant},
                                 {"device_id", dispatch.device_id},
                                 {"device", device_text(ctx, dispatch.device_id)},
                                 {"reason", dispatch.reason ? dispatch.reason : ""},
                                 {"candidates", dispatch.candidates},
                                 {"declined", dispatch.declined},
                                 {"run_ms", dispatch.run_ms},
                                 {"transfer_ms", dispatch.transfer_ms},
                                 {"ranked", candidates_json(ctx)}}}});
        return kExitOk;
    }
    for (const auto& line : lines) std::cout << line << '\n';
    if (opt.explain) {
        std::cout << "\n" << op_name << " ran " << (dispatch.plugin ? dispatch.plugin : "?") << "'s "
                  << (variant.empty() ? std::string("plain implementation") : "variant '" + variant + "'")
                  << " on device " << device_text(ctx, dispatch.device_id) << "\n"
                  << "  why:        " << (dispatch.reason ? dispatch.reason : "") << "\n"
                  << "  candidates: " << dispatch.candidates << " considered, " << dispatch.declined
                  << " declined\n"
                  << "  time:       " << format_number(dispatch.run_ms) << " ms run, "
                  << format_number(dispatch.transfer_ms) << " ms moving inputs\n";
        print_candidates(std::cout, ctx);
    }
    return kExitOk;
}

Action setup(CLI::App& sub) {
    auto opt = std::make_shared<RunOptions>();
    sub.add_option("op", opt->op, "Operator, e.g. conv2 or ipt.conv2")->required();
    // One value per occurrence, so that "--in A=a.npy conv2" leaves the operator alone.
    sub.add_option("--in", opt->inputs,
                   "Input image NAME=FILE (.npy, .png, .tif, .jpg), FILE:noalpha or FILE:page=N (below); repeatable")
        ->allow_extra_args(false);
    sub.add_option("--out", opt->outputs,
                   "Output image NAME=FILE (.npy, .png, .tif, .jpg), FILE:quality=N (below); repeatable; all are "
                   "written or none")
        ->allow_extra_args(false);
    sub.add_option("--param", opt->params, "Parameter NAME=VALUE, e.g. shape=same or tol=\"[0.01 0.99]\"")->allow_extra_args(false);
    sub.add_option("--device", opt->device, "Run on this device: id, kind (cpu, cuda, vulkan) or name");
    opt->variant_option = sub.add_option("--variant", opt->variant, "Run only this variant (\"\" = plain)");
    sub.add_flag("--explain", opt->explain, "Print which implementation ran, where, why and how long");
    sub.add_flag("--json", opt->json, "Print a machine-readable summary");
    add_context_options(sub, opt->context);
    sub.footer(std::string("Input files:\n") + kInputSelectorsHelp + "Output files:\n" + kOutputSelectorsHelp +
               "Outputs are written to temporary files beside their destinations and renamed into place only\n"
               "when every output was written; on any failure no destination changes. Two outputs may not\n"
               "name the same file.\n\n" + kExitCodesHelp +
               "\nExample: ipt run conv2 --in A=a.npy --in B=k.npy --out C=c.npy --param shape=same --explain");
    return [opt] { return run(*opt); };
}

IPT_CLI_COMMAND("run", "Run one operator on image files", setup);

} // namespace
} // namespace ipt::cli
