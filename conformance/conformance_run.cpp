// SPDX-License-Identifier: Apache-2.0
#include "conformance_run.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <set>

namespace ipt::conformance {

std::string Target::describe() const {
    std::string s = plugin.empty() ? "any" : plugin;
    if (pin_variant && !variant.empty()) s += ":" + variant;
    return s;
}

NamedImages generate_inputs(const CaseSpec& c, const std::string& op, uint64_t seed) {
    NamedImages in;
    const std::string label = c.label();
    for (const Arg& a : c.args) {
        if (a.kind != Arg::Kind::Image) continue;
        Rng rng(mix_seed(seed, op + "|" + label + "|" + a.name));
        in.set(a.name, generate(a.image, rng));
    }
    return in;
}

namespace {

const ipt_param_schema* param_of(const ipt_op_schema& s, const std::string& name) {
    for (uint32_t i = 0; i < s.param_count; ++i)
        if (name == ipt_op_param(&s, i)->name) return ipt_op_param(&s, i);
    return nullptr;
}

// Everything between create and run; the first failing step's status.
ipt_status prepare(ipt_call* call, ipt::Context& ctx, const Target& t, const ipt_op_schema& schema, const CaseSpec& c,
                   const NamedImages& inputs, std::vector<ipt::Image>& keep) {
    for (const Arg& a : c.args) {
        ipt_status s = IPT_OK;
        switch (a.kind) {
        case Arg::Kind::Image: {
            const HostImage* h = inputs.find(a.name);
            const ipt_param_schema* p = param_of(schema, a.name);
            const uint32_t where = p && (p->flags & IPT_P_HOST) ? IPT_DEVICE_HOST : t.device;
            ipt_image* img = nullptr;
            s = ipt_image_create(ctx.get(), where, h->dtype, h->rows, h->cols, h->channels, &img);
            if (s != IPT_OK) return s;
            keep.emplace_back(img);
            if (h->numel() > 0) s = ipt_image_upload(img, h->bytes.data(), 0);
            if (s == IPT_OK) s = ipt_call_set_image(call, a.name.c_str(), img);
            break;
        }
        case Arg::Kind::Int: s = ipt_call_set_int(call, a.name.c_str(), a.i); break;
        case Arg::Kind::Float: s = ipt_call_set_float(call, a.name.c_str(), a.f); break;
        case Arg::Kind::Floats: s = ipt_call_set_floats(call, a.name.c_str(), a.floats.data(), a.floats.size()); break;
        case Arg::Kind::Text: s = ipt_call_set_string(call, a.name.c_str(), a.text.c_str()); break;
        }
        if (s != IPT_OK) return s;
    }
    for (uint32_t i = 0; i < schema.param_count; ++i) {
        const ipt_param_schema& p = *ipt_op_param(&schema, i);
        if (p.kind != IPT_PARAM_OUTPUT || !(p.flags & IPT_P_OPTIONAL)) continue;
        const bool want = c.want_all_optional || std::find(c.want.begin(), c.want.end(), p.name) != c.want.end();
        if (want)
            if (ipt_status s = ipt_call_want_output(call, p.name); s != IPT_OK) return s;
    }
    if (ipt_status s = ipt_call_set_device(call, t.device); s != IPT_OK) return s;
    if (!t.plugin.empty())
        if (ipt_status s = ipt_call_set_plugin(call, t.plugin.c_str()); s != IPT_OK) return s;
    if (t.pin_variant)
        if (ipt_status s = ipt_call_set_variant(call, t.variant.c_str()); s != IPT_OK) return s;
    return IPT_OK;
}

}  // namespace

RunResult run_case(const Target& t, const ipt_op_schema& schema, const CaseSpec& c, const NamedImages& inputs,
                   int repeats) {
    RunResult res;
    ipt::Context& ctx = *t.ctx;
    ipt_call* raw = nullptr;
    res.status = ipt_call_create(ctx.get(), schema.name, &raw);
    if (res.status != IPT_OK) {
        res.error = ipt_last_error();
        return res;
    }
    std::unique_ptr<ipt_call, void (*)(ipt_call*)> call(raw, ipt_call_free);
    std::vector<ipt::Image> keep;  // inputs live until the call is done
    res.status = prepare(call.get(), ctx, t, schema, c, inputs, keep);
    for (int k = 0; res.status == IPT_OK && k < std::max(1, repeats); ++k) {
        const auto t0 = std::chrono::steady_clock::now();
        res.status = ipt_call_run(call.get());
        if (res.status == IPT_OK) res.status = ipt_sync(ctx.get(), t.device);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        res.ms = k == 0 ? ms : std::min(res.ms, ms);
    }
    if (res.status != IPT_OK) {
        res.error = ipt_last_error();
        return res;
    }
    ipt_dispatch_info d{};
    d.struct_size = sizeof d;
    if (ipt_last_dispatch(ctx.get(), &d) == IPT_OK) {
        res.ran_on = d.device_id;
        res.ran_plugin = d.plugin ? d.plugin : "";
        res.ran_variant = d.variant ? d.variant : "";
    }
    for (uint32_t i = 0; i < schema.param_count; ++i) {
        const ipt_param_schema& p = *ipt_op_param(&schema, i);
        if (p.kind != IPT_PARAM_OUTPUT) continue;
        if (p.flags & IPT_P_OPTIONAL) {
            const bool want = c.want_all_optional || std::find(c.want.begin(), c.want.end(), p.name) != c.want.end();
            if (!want) continue;
        }
        ipt_image* out = nullptr;
        ipt_status s = ipt_call_take_output(call.get(), p.name, &out);
        if (s != IPT_OK) {
            res.status = s;
            res.error = std::string("output ") + p.name + ": " + ipt_last_error();
            return res;
        }
        ipt::Image img(out);
        ipt_image_info info{};
        info.struct_size = sizeof info;
        s = ipt_image_get_info(out, &info);
        HostImage h;
        if (s == IPT_OK) {
            h = HostImage::make(static_cast<ipt_dtype>(info.dtype), info.rows, info.cols, info.channels);
            if (h.numel() > 0) s = ipt_image_download(out, h.bytes.data(), 0);
        }
        if (s != IPT_OK) {
            res.status = s;
            res.error = std::string("output ") + p.name + ": " + ipt_last_error();
            return res;
        }
        res.outputs.set(p.name, std::move(h));
    }
    return res;
}

std::string describe_report(const ipt_plugin_report& r) {
    auto str = [](const char* s) { return std::string(s ? s : ""); };
    const char* outcome = r.outcome == IPT_LOAD_LOADED ? "loaded" : r.outcome == IPT_LOAD_FAILED ? "failed" : "duplicate";
    std::string s = str(r.path) + " (" + str(r.source) + "): " + outcome;
    if (r.name && *r.name) s += ", plugin " + str(r.name) + " " + str(r.version);
    if (r.abi_version_seen)
        s += ", ABI " + std::to_string(r.abi_version_seen) + " API " + std::to_string(r.api_version_seen);
    if (r.outcome == IPT_LOAD_LOADED) {
        s += ", " + std::to_string(r.device_count) + " device(s), " + std::to_string(r.impl_count) + " implementation(s)";
        if (r.device_count == 0 && r.device_note && *r.device_note) s += " (" + str(r.device_note) + ")";
    }
    if (r.error && *r.error) s += ": " + str(r.error);
    return s;
}

std::vector<Target> targets_on(ipt::Context& ctx, const std::string& op, uint32_t device) {
    std::vector<Target> out;
    std::set<std::pair<std::string, std::string>> seen;
    for (const ipt_impl_info& i : ctx.impls(op.c_str())) {
        if (i.device_id != device) continue;
        const std::string plugin = i.plugin ? i.plugin : "", variant = i.variant ? i.variant : "";
        if (!seen.insert({plugin, variant}).second) continue;
        Target t;
        t.ctx = &ctx;
        t.device = device;
        t.plugin = plugin;
        t.variant = variant;
        t.pin_variant = true;
        out.push_back(t);
    }
    return out;
}

bool Reference::target_for(const std::string& op, Target& out, std::string& why) const {
    if (!ipt_op_find(ctx->get(), op.c_str())) {
        why = "the reference does not know " + op;
        return false;
    }
    std::vector<Target> on_host = targets_on(*ctx, op, IPT_DEVICE_HOST);
    on_host.erase(std::remove_if(on_host.begin(), on_host.end(), [&](const Target& t) { return t.plugin != plugin; }),
                  on_host.end());
    if (on_host.empty()) {
        why = "no reference implementation (plugin " + plugin + " has no " + op + ")";
        return false;
    }
    // The plain implementation is the reference; variants are candidates.
    auto plain = std::find_if(on_host.begin(), on_host.end(), [](const Target& t) { return t.variant.empty(); });
    out = plain != on_host.end() ? *plain : on_host.front();
    return true;
}

std::string builtin_reference_path() {
    // The loader's default folder is the one holding libipt; the CPU plugin
    // built and installed with it is libipt_cpu.so there.
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void*>(&ipt_context_create), &info) || !info.dli_fname) return "";
    std::error_code ec;
    std::filesystem::path lib = std::filesystem::canonical(info.dli_fname, ec);
    if (ec) lib = info.dli_fname;
    return (lib.parent_path() / "libipt_cpu.so").string();
}

std::unique_ptr<Reference> open_reference(const std::string& path_in, std::string& error) {
    // By its file, never by a plugin's name: a plugin calling itself "cpu" on
    // IPT_PLUGIN_PATH must not become the reference it is measured against.
    std::string path = path_in.empty() ? builtin_reference_path() : path_in;
    if (path.empty()) {
        error = "cannot locate libipt to find its CPU plugin (libipt_cpu.so); give the file with --reference PATH";
        return nullptr;
    }
    auto ref = std::make_unique<Reference>();
    ref->ctx = std::make_unique<ipt::Context>(IPT_CONTEXT_NO_DISCOVERY);
    ref->path = path;
    if (ipt_load_plugin(ref->ctx->get(), path.c_str()) != IPT_OK) {
        error = std::string("cannot load the reference plugin: ") + ipt_last_error();
        const auto reports = ref->ctx->plugin_reports();
        if (!reports.empty()) error += "\n  load report: " + describe_report(reports.back());
        return nullptr;
    }
    for (const ipt_plugin_report& r : ref->ctx->plugin_reports())
        if (r.outcome == IPT_LOAD_LOADED) {
            ref->plugin = r.name ? r.name : "";
            ref->version = r.version ? r.version : "";
        }
    if (path_in.empty() && ref->plugin != "cpu") {
        error = "the reference " + path + " is plugin '" + ref->plugin + "', not OpenIPT's CPU plugin 'cpu'";
        return nullptr;
    }
    return ref;
}

}  // namespace ipt::conformance
