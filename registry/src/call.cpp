// SPDX-License-Identifier: Apache-2.0
// Calls: parameters set by name, validation, trying implementations in the
// order the selection gives (selection/), moving inputs to the device of each,
// running it, and the dispatch record.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include "internal.hpp"
#include "output_plan.hpp"
#include "selection.hpp"
#include "tiling.hpp"

using namespace ipt::reg;

struct ipt_call {
    uint64_t tag = kTagCall;             // first member: see HandleType
    ipt_context* ctx = nullptr;
    const ipt_op_schema* schema = nullptr;
    std::vector<ParamValue> params;      // as set by the caller, one per schema parameter
    std::vector<bool> wanted;            // optional outputs asked for
    uint32_t device = IPT_DEVICE_ANY;
    bool has_variant = false;
    std::string variant;
    std::string plugin;
    std::vector<ImagePtr> outputs;       // of the last run, until taken
    // Per input parameter: expires when the image set there is freed.
    std::vector<std::weak_ptr<const void>> input_alive;
    OutputPlan planned;                  // of the current run, made on first need
    std::string tiling_reason;           // ipt_call_tiling's last reason
};

namespace {

// State of one attempt to run an implementation, reached through host_call.
struct HostCall {
    ipt_context* ctx = nullptr;
    const ipt_op_schema* schema = nullptr;
    const Device* device = nullptr;
    const Impl* impl = nullptr;
    const ipt_kernel_call* kernel_call = nullptr;
    OutputPlan* planned = nullptr;
    std::vector<ImagePtr> outputs;
    std::string mismatch;  // the first output refused for not matching the plan
};

struct DispatchRecord {
    std::vector<CandidateRecord> ranked;
    const ipt_context* ctx = nullptr;
    std::string op, plugin, variant;
    // The reason, written out only when asked for (ipt_last_dispatch):
    // formatting its numbers on every call cost more than the measured
    // selection's own bookkeeping.
    std::string reason_head, reason_tail;  // before and after the cost sentence
    bool by_cost = false;                   // the chosen candidate in `ranked` won on cost
    std::string reason;                     // "" until asked for
    uint32_t device_id = 0;
    double run_ms = 0, transfer_ms = 0;
    uint32_t candidates = 0, declined = 0;

    const std::string& reason_text() {
        if (reason.empty()) {
            reason = reason_head;
            if (by_cost)
                for (const CandidateRecord& c : ranked) {
                    if (!c.chosen) continue;
                    if (c.source == IPT_COST_STATIC && c.cost_ms < 0)
                        reason += "no cost known yet, static order";
                    else
                        reason += std::string(c.source == IPT_COST_STATIC ? "lowest estimated cost " : "lowest cost ") +
                                  std::to_string(c.cost_ms) + " ms (run " + std::to_string(c.run_ms) + " + transfers " +
                                  std::to_string(c.transfer_ms) + ") of " + std::to_string(candidates) + " candidates";
                }
            reason += reason_tail;
        }
        return reason;
    }
};
thread_local DispatchRecord last_dispatch_record;

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string device_label(const Device& d) { return d.kind + ":" + std::to_string(d.id); }

std::string param_names(const ipt_op_schema& op) {
    std::string s;
    for (uint32_t i = 0; i < op.param_count; ++i) s += (i ? ", " : "") + std::string(op.params[i].name);
    return s;
}

// Finds a settable parameter or reports why not.
ipt_status lookup(ipt_call* call, const char* name, const char* fn, int* index) {
    if (ipt_status s = check_handle(call, HandleType::call, fn, "call"); s != IPT_OK) return s;
    if (!name) return fail(IPT_ERR_INVALID_ARGUMENT, std::string(fn) + ": name is NULL");
    int i = param_index(*call->schema, name);
    if (i < 0)
        return fail(IPT_ERR_INVALID_ARGUMENT, std::string(call->schema->name) + " has no parameter '" + name +
                                                  "' (parameters: " + param_names(*call->schema) + ")");
    *index = i;
    return IPT_OK;
}

std::string kind_word(int32_t kind) {
    switch (kind) {
    case IPT_PARAM_INPUT: return "an input image";
    case IPT_PARAM_OUTPUT: return "an output";
    case IPT_PARAM_INT: return "an integer";
    case IPT_PARAM_FLOAT: return "a number";
    case IPT_PARAM_FLOATS: return "a list of numbers";
    case IPT_PARAM_ENUM: return "an option string";
    }
    return "unknown";
}

ipt_status wrong_kind(const ipt_call* call, int i, const char* what) {
    const ipt_param_schema& p = call->schema->params[i];
    return fail(IPT_ERR_INVALID_ARGUMENT, std::string(call->schema->name) + ": parameter '" + p.name + "' is " +
                                              kind_word(p.kind) + ", not " + what);
}

// Stores a number into an INT, FLOAT or FLOATS parameter.
ipt_status set_number(ipt_call* call, int i, double v, const char* fn) {
    const ipt_param_schema& p = call->schema->params[i];
    ParamValue pv;
    switch (p.kind) {
    case IPT_PARAM_INT:
        if (std::isnan(v))
            return fail(IPT_ERR_INVALID_ARGUMENT, std::string(call->schema->name) + ": parameter '" + p.name +
                                                      "' expects an integer, got NaN");
        if (!std::isfinite(v) || v != std::floor(v))
            return fail(IPT_ERR_INVALID_ARGUMENT, std::string(call->schema->name) + ": parameter '" + p.name +
                                                      "' expects an integer, got " + std::to_string(v));
        pv.i = static_cast<int64_t>(v);
        break;
    case IPT_PARAM_FLOAT: pv.f = v; break;
    case IPT_PARAM_FLOATS: pv.floats = {v}; break;
    default: return wrong_kind(call, i, fn);
    }
    pv.set = true;
    call->params[i] = std::move(pv);
    return IPT_OK;
}

}  // namespace

namespace ipt::reg {

ipt_status host_alloc_output(void* host_call, uint32_t param_index, int32_t dtype, int64_t rows, int64_t cols,
                             int64_t channels, const ipt_tensor** out) {
    try {
        auto* hc = static_cast<HostCall*>(host_call);
        if (!hc || !out) {
            set_plugin_error("alloc_output: host_call and out must not be NULL");
            return IPT_ERR_INVALID_ARGUMENT;
        }
        if (!hc->kernel_call) {
            set_plugin_error("alloc_output: the implementation has already returned");
            return IPT_ERR_INVALID_ARGUMENT;
        }
        const ipt_op_schema& op = *hc->schema;
        if (param_index >= op.param_count || op.params[param_index].kind != IPT_PARAM_OUTPUT) {
            set_plugin_error(("alloc_output: parameter " + std::to_string(param_index) + " of " + op.name +
                              " is not an output").c_str());
            return IPT_ERR_INVALID_ARGUMENT;
        }
        const ipt_param_schema& p = op.params[param_index];
        if (hc->outputs[param_index]) {
            set_plugin_error((std::string("alloc_output: output '") + p.name + "' allocated twice").c_str());
            return IPT_ERR_INVALID_ARGUMENT;
        }
        if (p.dtypes && !(p.dtypes & IPT_DT(dtype))) {
            set_plugin_error((std::string("alloc_output: output '") + p.name + "' of " + op.name + " cannot be " +
                              dtype_name(dtype) + " (catalogue: " + dtype_list(p.dtypes) + ")").c_str());
            return IPT_ERR_INVALID_ARGUMENT;
        }
        // An output that does not match the operator's plan is refused, and
        // the attempt fails whatever the plugin returns.
        if (std::string why = check_output(*hc->kernel_call, *hc->planned, param_index, dtype, rows, cols, channels);
            !why.empty()) {
            why = "plugin '" + hc->impl->plugin->name + "' asked for output '" + p.name + "' of " + op.name + " as " + why;
            if (hc->mismatch.empty()) hc->mismatch = why;
            set_plugin_error(why.c_str());
            return IPT_ERR_PLUGIN;
        }
        ipt_status s = IPT_OK;
        auto img = allocate_image(hc->ctx, *hc->device, dtype, rows, cols, channels, &s,
                                  {"alloc_output", p.name, op.name});
        if (!img) {
            set_plugin_error(ipt_last_error());
            return s;
        }
        if (hc->ctx->poison_outputs && img->bytes) {
            s = fill_poison(img.get(), hc->ctx->poison_byte);
            if (s != IPT_OK) {
                set_plugin_error(ipt_last_error());
                return s;
            }
        }
        *out = &img->tensor;
        hc->outputs[param_index] = std::move(img);
        return IPT_OK;
    } catch (...) {
        set_plugin_error("alloc_output: out of host memory");
        return IPT_ERR_OUT_OF_MEMORY;
    }
}

ipt_status host_native_handle(void* host_call, int32_t kind, const ipt_tensor* tensor, void** out) {
    auto* hc = static_cast<HostCall*>(host_call);
    if (!hc || !out) {
        set_plugin_error("native_handle: host_call and out must not be NULL");
        return IPT_ERR_INVALID_ARGUMENT;
    }
    const Device& d = *hc->device;
    if (d.is_host() || !d.owner->has_slot(offsetof(ipt_plugin_table, native_handle) + sizeof(void*)) ||
        !d.owner->table->native_handle) {
        set_plugin_error(("native_handle: device " + device_label(d) + " offers no native handles").c_str());
        return IPT_ERR_UNSUPPORTED;
    }
    try {
        return d.owner->table->native_handle(d.index_in_plugin, kind, tensor ? tensor->buffer : nullptr, out);
    } catch (...) {
        set_plugin_error("native_handle threw a C++ exception");
        return IPT_ERR_PLUGIN;
    }
}

}  // namespace ipt::reg

namespace {

// One run of one implementation on the call's values: inputs moved to its
// device, outputs allocated through the host. Outputs are kept in `hc`.
struct Attempt {
    ipt_status status = IPT_OK;
    std::string message;        // the plugin's, on failure or decline
    double run_ms = 0;
    double transfer_ms = 0;
    HostCall hc;
    std::vector<ipt_value> kv;
    std::vector<ImagePtr> moved;  // input copies, alive until the attempt ends
};

void run_attempt(ipt_call* call, const std::vector<ParamValue>& values, const Impl& impl, bool synchronous,
                 Attempt& a) {
    ipt_context* ctx = call->ctx;
    const ipt_op_schema& op = *call->schema;
    const Device& dev = ctx->devices[impl.device_id];

    auto t_transfer = Clock::now();
    std::vector<const ipt_image*> inputs(op.param_count, nullptr);
    for (uint32_t i = 0; i < op.param_count; ++i) {
        if (op.params[i].kind != IPT_PARAM_INPUT || !values[i].set) continue;
        const ipt_image* img = values[i].image;
        const Device& need = (op.params[i].flags & IPT_P_HOST) ? ctx->devices[IPT_DEVICE_HOST] : dev;
        if (img->device != &need) {
            auto copy = copy_image(ctx, img, need, &a.status);
            if (!copy) {
                a.message = ipt_last_error();
                return;
            }
            img = copy.get();
            a.moved.emplace_back(copy.release());
        }
        inputs[i] = img;
    }
    a.transfer_ms = a.moved.empty() ? 0.0 : ms_since(t_transfer);

    a.kv.assign(op.param_count, ipt_value{});
    for (uint32_t i = 0; i < op.param_count; ++i) {
        const ipt_param_schema& p = op.params[i];
        const ParamValue& v = values[i];
        ipt_value& k = a.kv[i];
        k.kind = p.kind;
        k.present = v.set ? 1 : 0;
        k.image = inputs[i] ? &inputs[i]->tensor : nullptr;
        k.i = v.i;
        k.f = v.f;
        k.floats = v.floats.empty() ? nullptr : v.floats.data();
        k.count = v.floats.size();
        k.str = p.kind == IPT_PARAM_ENUM && v.set ? v.str.c_str() : nullptr;
        k.wanted = p.kind == IPT_PARAM_OUTPUT && (!(p.flags & IPT_P_OPTIONAL) || call->wanted[i]) ? 1 : 0;
    }

    a.hc.ctx = ctx;
    a.hc.schema = &op;
    a.hc.device = &dev;
    a.hc.impl = &impl;
    a.hc.planned = &call->planned;
    a.hc.mismatch.clear();
    a.hc.outputs.clear();
    a.hc.outputs.resize(op.param_count);
    ipt_kernel_call kc{};
    kc.struct_size = sizeof kc;
    kc.schema = &op;
    kc.device_id = dev.id;
    kc.device_index = dev.index_in_plugin;
    kc.impl_user = impl.user;
    kc.value_count = op.param_count;
    kc.value_stride = sizeof(ipt_value);
    kc.values = a.kv.data();
    kc.host_call = &a.hc;
    a.hc.kernel_call = &kc;

    set_plugin_error(nullptr);
    auto t_run = Clock::now();
    try {
        a.status = impl.run(&kc);
        if (a.status == IPT_OK && synchronous && !dev.is_host()) a.status = dev.owner->table->sync(dev.index_in_plugin);
    } catch (const std::exception& e) {
        set_plugin_error((std::string("implementation threw a C++ exception: ") + e.what()).c_str());
        a.status = IPT_ERR_PLUGIN;
    } catch (...) {
        set_plugin_error("implementation threw a C++ exception");
        a.status = IPT_ERR_PLUGIN;
    }
    a.run_ms = ms_since(t_run);
    a.message = take_plugin_error();
    a.hc.kernel_call = nullptr;  // kc ends here
    if (!a.hc.mismatch.empty()) {
        a.status = IPT_ERR_PLUGIN;
        a.message = a.hc.mismatch;
        return;
    }
    // IPT_ERR_MISUSE is the host API's (a caller's handle), never a plugin's.
    if (a.status < IPT_OK || a.status > IPT_ERR_ABI) {
        // A status this library does not define cannot reach the caller as
        // if it were one of ours.
        a.message = "returned unknown status " + std::to_string(a.status) +
                    (a.message.empty() ? std::string() : " (" + a.message + ")");
        a.status = IPT_ERR_PLUGIN;
    }
    if (a.status == IPT_OK)
        for (uint32_t i = 0; i < op.param_count; ++i)
            if (a.kv[i].kind == IPT_PARAM_OUTPUT && a.kv[i].wanted && !a.hc.outputs[i]) {
                a.status = IPT_ERR_PLUGIN;
                a.message = std::string("did not produce output '") + op.params[i].name + "'";
            }
}

// The selection's way to time an implementation: one synchronous attempt,
// whose outputs and moved inputs live as long as the result.
RunTrial trial_runner(ipt_call* call) {
    return [call](const std::vector<ParamValue>& values, const Impl& impl) {
        auto a = std::make_shared<Attempt>();
        run_attempt(call, values, impl, true, *a);
        TrialRun t;
        t.status = a->status;
        t.message = a->message;
        t.run_ms = a->run_ms;
        for (const auto& o : a->hc.outputs)
            if (o) {
                t.output_bytes += o->bytes;
                ++t.output_count;
            }
        t.held = std::move(a);
        return t;
    };
}

// Runs the call on the best candidate that accepts it.
ipt_status dispatch(ipt_call* call, std::vector<ParamValue>& values) {
    ipt_context* ctx = call->ctx;
    const ipt_op_schema& op = *call->schema;

    // Where the data is: the first image input that is not a host-side parameter.
    const Device* input_device = nullptr;
    for (uint32_t i = 0; i < op.param_count; ++i)
        if (op.params[i].kind == IPT_PARAM_INPUT && values[i].set && !(op.params[i].flags & IPT_P_HOST)) {
            input_device = values[i].image->device;
            break;
        }

    std::vector<const Impl*> all;
    for (const Impl& impl : ctx->impls) {
        if (impl.schema != call->schema) continue;
        if (call->has_variant && impl.variant != call->variant) continue;
        if (!call->plugin.empty() && impl.plugin->name != call->plugin) continue;
        all.push_back(&impl);
    }
    if (all.empty())
        return fail(IPT_ERR_UNSUPPORTED,
                    std::string("no implementation of ") + op.name + " is loaded" +
                        (call->has_variant ? " with variant '" + call->variant + "'" : "") +
                        (call->plugin.empty() ? "" : " in plugin '" + call->plugin + "'"));

    std::string reason;
    const uint32_t pinned = call->device != IPT_DEVICE_ANY ? call->device : ctx->pinned_device.load();
    std::vector<Candidate> cands;
    if (pinned != IPT_DEVICE_ANY) {
        for (const Impl* i : all)
            if (i->device_id == pinned) cands.push_back({i, true, {}});
        if (cands.empty()) {
            if (ctx->fallback.load() != IPT_FALLBACK_ALLOW)
                return fail(IPT_ERR_UNSUPPORTED, std::string("no implementation of ") + op.name + " on pinned device " +
                                                     std::to_string(pinned) + " (fallback policy: error)");
            reason = "fallback: pinned device " + std::to_string(pinned) + " has no implementation; ";
        } else {
            reason = "pinned to device " + std::to_string(pinned) + "; ";
        }
    }
    const bool pinned_here = !cands.empty();
    if (!pinned_here)
        for (const Impl* i : all) cands.push_back({i, input_device && i->device_id == input_device->id, {}});

    const Ordering ordering = order_candidates(ctx, op, values, cands, pinned_here, input_device, trial_runner(call));
    const bool measured = ordering.by_cost;

    uint32_t declined = 0;
    std::string declines;
    for (Candidate& c : cands) {
        const Impl& impl = *c.impl;
        const Device& dev = ctx->devices[impl.device_id];
        const std::string label = std::string(op.name) + " on " + device_label(dev) + " (plugin " + impl.plugin->name +
                                  (impl.variant.empty() ? "" : ", variant " + impl.variant) + ")";
        // A candidate that declined while measured is skipped; one that failed
        // runs again so that its error (a bad argument, say) reaches the caller
        // when no candidate succeeds.
        if (c.record.source == IPT_COST_DECLINED) {
            ++declined;
            declines += (declines.empty() ? "" : "; ") + label + " declined" +
                        (c.record.note.empty() ? "" : ": " + c.record.note);
            continue;
        }
        Attempt a;
        run_attempt(call, values, impl, ordering.observe, a);
        if (a.status == IPT_ERR_UNSUPPORTED) {
            ++declined;
            c.record.source = IPT_COST_DECLINED;
            c.record.note = a.message;
            declines += (declines.empty() ? "" : "; ") + label + " declined" + (a.message.empty() ? "" : ": " + a.message);
            continue;
        }
        if (a.status != IPT_OK) {
            const std::string& why = a.message;
            return fail(a.status, why.rfind(op.name, 0) == 0 ? why + " [" + label + "]"
                                                             : label + ": " + (why.empty() ? ipt_status_name(a.status) : why));
        }
        c.record.chosen = true;
        if (ordering.observe) {
            uint64_t out_bytes = 0;
            uint32_t out_count = 0;
            for (const auto& o : a.hc.outputs)
                if (o) {
                    out_bytes += o->bytes;
                    ++out_count;
                }
            observe_run(ctx, ordering, c, a.run_ms, a.transfer_ms, out_bytes, out_count);
        }
        call->outputs = std::move(a.hc.outputs);
        // Measured: the cost sentence is written when the reason is asked for.
        if (!measured) {
            if (pinned_here && cands.size() == 1)
                reason += "the only implementation there";
            else if (cands.size() == 1)
                reason += "the only implementation";
            else
                reason += c.on_input_device ? "inputs live on " + device_label(dev)
                                            : "highest static priority (" + std::to_string(impl.priority) + ")";
        }
        DispatchRecord& r = last_dispatch_record;
        r.ctx = ctx;
        r.op = op.name;
        r.plugin = impl.plugin->name;
        r.variant = impl.variant;
        r.reason_head = std::move(reason);
        r.reason_tail = ordering.tail +
                        (declined ? "; after " + std::to_string(declined) + " declined: " + declines : std::string());
        r.by_cost = measured;
        r.reason.clear();
        r.device_id = dev.id;
        r.run_ms = a.run_ms;
        r.transfer_ms = a.transfer_ms;
        r.candidates = static_cast<uint32_t>(cands.size());
        r.declined = declined;
        r.ranked.clear();
        for (const Candidate& k : cands) {
            CandidateRecord rec = k.record;
            rec.plugin = k.impl->plugin->name;
            rec.variant = k.impl->variant;
            rec.device_id = k.impl->device_id;
            r.ranked.push_back(rec);
        }
        return IPT_OK;
    }
    return fail(IPT_ERR_UNSUPPORTED, std::string("no implementation accepted ") + op.name + ": " + declines);
}

}  // namespace

extern "C" {

IPT_API ipt_status ipt_call_create(ipt_context* ctx, const char* op, ipt_call** out) {
    return guard([&] {
        if (ipt_status s = check_handle(ctx, HandleType::context, "ipt_call_create", "ctx"); s != IPT_OK) return s;
        if (!out) return fail(IPT_ERR_INVALID_ARGUMENT, "ipt_call_create: out is NULL");
        if (!op) return fail(IPT_ERR_INVALID_ARGUMENT, "ipt_call_create: op is NULL");
        std::shared_lock lock(ctx->mutex);
        const ipt_op_schema* schema = find_op_locked(ctx, op);
        if (!schema) return fail(IPT_ERR_NOT_FOUND, std::string("unknown operator '") + op + "'");
        auto call = std::make_unique<ipt_call>();
        call->ctx = ctx;
        call->schema = schema;
        call->params.resize(schema->param_count);
        call->wanted.resize(schema->param_count, false);
        call->outputs.resize(schema->param_count);
        call->input_alive.resize(schema->param_count);
        context_ref(ctx);
        *out = call.release();
        return IPT_OK;
    });
}

IPT_API void ipt_call_free(ipt_call* call) {
    if (!call) return;
    // A freed or foreign handle is left alone; the reason is the last error
    // (which a good handle leaves as it is: it may be freed at exit).
    if (check_handle(call, HandleType::call, "ipt_call_free", "call") != IPT_OK) return;
    ipt_context* ctx = call->ctx;
    retire_handle(call, HandleType::call);  // frees the outputs not taken
    context_unref(ctx);
}

IPT_API ipt_status ipt_call_set_image(ipt_call* call, const char* name, const ipt_image* image) {
    return guard([&] {
        int i;
        if (ipt_status s = lookup(call, name, "ipt_call_set_image", &i); s != IPT_OK) return s;
        if (call->schema->params[i].kind != IPT_PARAM_INPUT) return wrong_kind(call, i, "an image");
        if (!image)
            return fail(IPT_ERR_INVALID_ARGUMENT, std::string(call->schema->name) + ": image for '" + name + "' is NULL");
        if (ipt_status s = check_handle(image, HandleType::image, "ipt_call_set_image", "image"); s != IPT_OK) return s;
        if (image->ctx != call->ctx)
            return fail(IPT_ERR_INVALID_ARGUMENT, std::string(call->schema->name) + ": image for '" + name +
                                                      "' belongs to another context");
        ParamValue pv;
        pv.set = true;
        pv.image = image;
        call->params[i] = pv;
        call->input_alive[i] = image->alive;
        return IPT_OK;
    });
}

IPT_API ipt_status ipt_call_set_int(ipt_call* call, const char* name, int64_t value) {
    return guard([&] {
        int i;
        if (ipt_status s = lookup(call, name, "ipt_call_set_int", &i); s != IPT_OK) return s;
        if (call->schema->params[i].kind == IPT_PARAM_INT) {
            ParamValue pv;
            pv.set = true;
            pv.i = value;
            call->params[i] = pv;
            return IPT_OK;
        }
        return set_number(call, i, static_cast<double>(value), "an integer");
    });
}

IPT_API ipt_status ipt_call_set_float(ipt_call* call, const char* name, double value) {
    return guard([&] {
        int i;
        if (ipt_status s = lookup(call, name, "ipt_call_set_float", &i); s != IPT_OK) return s;
        return set_number(call, i, value, "a number");
    });
}

IPT_API ipt_status ipt_call_set_floats(ipt_call* call, const char* name, const double* values, uint64_t count) {
    return guard([&] {
        int i;
        if (ipt_status s = lookup(call, name, "ipt_call_set_floats", &i); s != IPT_OK) return s;
        if (!values && count)
            return fail(IPT_ERR_INVALID_ARGUMENT, std::string(call->schema->name) + ": values for '" + name + "' is NULL");
        const ipt_param_schema& p = call->schema->params[i];
        if (p.kind == IPT_PARAM_FLOATS) {
            ParamValue pv;
            pv.set = true;
            pv.floats.assign(values, values + count);
            call->params[i] = std::move(pv);
            return IPT_OK;
        }
        if ((p.kind == IPT_PARAM_FLOAT || p.kind == IPT_PARAM_INT) && count == 1) return set_number(call, i, values[0], "a list");
        return wrong_kind(call, i, "a list of numbers");
    });
}

IPT_API ipt_status ipt_call_set_string(ipt_call* call, const char* name, const char* value) {
    return guard([&] {
        int i;
        if (ipt_status s = lookup(call, name, "ipt_call_set_string", &i); s != IPT_OK) return s;
        if (call->schema->params[i].kind != IPT_PARAM_ENUM) return wrong_kind(call, i, "an option string");
        ParamValue pv;
        ipt_status s = parse_param_text(*call->schema, call->schema->params[i], value, &pv);
        if (s != IPT_OK) return s;
        call->params[i] = std::move(pv);
        return IPT_OK;
    });
}

IPT_API ipt_status ipt_call_set_text(ipt_call* call, const char* name, const char* text) {
    return guard([&] {
        int i;
        if (ipt_status s = lookup(call, name, "ipt_call_set_text", &i); s != IPT_OK) return s;
        const int32_t kind = call->schema->params[i].kind;
        if (kind == IPT_PARAM_INPUT || kind == IPT_PARAM_OUTPUT) return wrong_kind(call, i, "text");
        ParamValue pv;
        ipt_status s = parse_param_text(*call->schema, call->schema->params[i], text, &pv);
        if (s != IPT_OK) return s;
        call->params[i] = std::move(pv);
        return IPT_OK;
    });
}

IPT_API ipt_status ipt_call_want_output(ipt_call* call, const char* name) {
    return guard([&] {
        int i;
        if (ipt_status s = lookup(call, name, "ipt_call_want_output", &i); s != IPT_OK) return s;
        if (call->schema->params[i].kind != IPT_PARAM_OUTPUT) return wrong_kind(call, i, "an output");
        call->wanted[i] = true;
        return IPT_OK;
    });
}

IPT_API ipt_status ipt_call_set_device(ipt_call* call, uint32_t device_id) {
    return guard([&] {
        if (ipt_status s = check_handle(call, HandleType::call, "ipt_call_set_device", "call"); s != IPT_OK) return s;
        std::shared_lock lock(call->ctx->mutex);
        if (device_id != IPT_DEVICE_ANY && device_id >= call->ctx->devices.size())
            return fail(IPT_ERR_NOT_FOUND, "ipt_call_set_device: no device with id " + std::to_string(device_id));
        call->device = device_id;
        return IPT_OK;
    });
}

IPT_API ipt_status ipt_call_set_variant(ipt_call* call, const char* variant) {
    return guard([&] {
        if (ipt_status s = check_handle(call, HandleType::call, "ipt_call_set_variant", "call"); s != IPT_OK) return s;
        call->has_variant = variant != nullptr;
        call->variant = variant ? variant : "";
        return IPT_OK;
    });
}

IPT_API ipt_status ipt_call_set_plugin(ipt_call* call, const char* plugin) {
    return guard([&] {
        if (ipt_status s = check_handle(call, HandleType::call, "ipt_call_set_plugin", "call"); s != IPT_OK) return s;
        call->plugin = plugin ? plugin : "";
        return IPT_OK;
    });
}

IPT_API ipt_status ipt_call_run(ipt_call* call) {
    return guard([&] {
        if (ipt_status s = check_handle(call, HandleType::call, "ipt_call_run", "call"); s != IPT_OK) return s;
        if (!handle_is(call->ctx, HandleType::context))
            return fail(IPT_ERR_MISUSE, "ipt_call_run: the context of parameter 'call' was destroyed");
        const ipt_op_schema& op = *call->schema;
        for (uint32_t i = 0; i < op.param_count; ++i)
            if (op.params[i].kind == IPT_PARAM_INPUT && call->params[i].set && call->input_alive[i].expired())
                return fail(IPT_ERR_MISUSE, std::string("ipt_call_run: the image set for '") + op.params[i].name +
                                                "' of " + op.name +
                                                " was freed; an input must stay alive until the call has run");
        std::shared_lock lock(call->ctx->mutex);
        std::vector<ParamValue> values = call->params;
        ipt_status s = validate_call(*call->schema, values, call->ctx);
        if (s != IPT_OK) return s;
        for (auto& o : call->outputs) o.reset();
        call->planned = OutputPlan{};
        return dispatch(call, values);
    });
}

IPT_API ipt_status ipt_call_take_output(ipt_call* call, const char* name, ipt_image** out) {
    return guard([&] {
        int i;
        if (ipt_status s = lookup(call, name, "ipt_call_take_output", &i); s != IPT_OK) return s;
        if (!out) return fail(IPT_ERR_INVALID_ARGUMENT, "ipt_call_take_output: out is NULL");
        if (call->schema->params[i].kind != IPT_PARAM_OUTPUT) return wrong_kind(call, i, "an output");
        if (!call->outputs[i])
            return fail(IPT_ERR_NOT_FOUND, std::string(call->schema->name) + ": output '" + name +
                                               "' was not produced by the last run, or was already taken");
        *out = call->outputs[i].release();
        return IPT_OK;
    });
}

IPT_API ipt_status ipt_call_tiling(ipt_call* call, ipt_tiling_info* out) {
    return guard([&] {
        if (ipt_status s = check_handle(call, HandleType::call, "ipt_call_tiling", "call"); s != IPT_OK) return s;
        if (!out) return fail(IPT_ERR_INVALID_ARGUMENT, "ipt_call_tiling: out is NULL");
        if (out->struct_size < sizeof(uint32_t)) return fail(IPT_ERR_ABI, "ipt_call_tiling: out->struct_size is not set");
        TilingResult r;
        if (ipt_status s = evaluate_tiling(*call->schema, call->params, &r); s != IPT_OK) return s;
        call->tiling_reason = std::move(r.reason);
        ipt_tiling_info v{};
        v.struct_size = out->struct_size;
        v.tiling = r.tiling;
        v.halo_rows = r.halo_rows;
        v.halo_cols = r.halo_cols;
        v.reason = call->tiling_reason.c_str();
        std::memcpy(out, &v, std::min<size_t>(out->struct_size, sizeof v));
        return IPT_OK;
    });
}

IPT_API ipt_status ipt_last_dispatch(const ipt_context* ctx, ipt_dispatch_info* out) {
    return guard([&] {
        if (ipt_status s = check_handle(ctx, HandleType::context, "ipt_last_dispatch", "ctx"); s != IPT_OK) return s;
        if (!out) return fail(IPT_ERR_INVALID_ARGUMENT, "ipt_last_dispatch: out is NULL");
        if (out->struct_size < sizeof(uint32_t)) return fail(IPT_ERR_ABI, "ipt_last_dispatch: out->struct_size is not set");
        DispatchRecord& r = last_dispatch_record;
        if (r.ctx != ctx) return fail(IPT_ERR_NOT_FOUND, "ipt_last_dispatch: no call has run on this thread in this context");
        ipt_dispatch_info v{};
        v.struct_size = out->struct_size;
        v.op = r.op.c_str();
        v.plugin = r.plugin.c_str();
        v.variant = r.variant.c_str();
        v.device_id = r.device_id;
        v.run_ms = r.run_ms;
        v.transfer_ms = r.transfer_ms;
        v.reason = r.reason_text().c_str();
        v.candidates = r.candidates;
        v.declined = r.declined;
        std::memcpy(out, &v, std::min<size_t>(out->struct_size, sizeof v));
        return IPT_OK;
    });
}

}  // extern "C"

extern "C" {

IPT_API uint32_t ipt_last_candidate_count(const ipt_context* ctx) {
    if (check_handle(ctx, HandleType::context, "ipt_last_candidate_count", "ctx") != IPT_OK) return 0;
    const DispatchRecord& r = last_dispatch_record;
    return r.ctx == ctx ? static_cast<uint32_t>(r.ranked.size()) : 0;
}

IPT_API ipt_status ipt_last_candidate_get(const ipt_context* ctx, uint32_t index, ipt_candidate_info* out) {
    return guard([&] {
        if (ipt_status s = check_handle(ctx, HandleType::context, "ipt_last_candidate_get", "ctx"); s != IPT_OK) return s;
        if (!out) return fail(IPT_ERR_INVALID_ARGUMENT, "ipt_last_candidate_get: out is NULL");
        if (out->struct_size < sizeof(uint32_t)) return fail(IPT_ERR_ABI, "ipt_last_candidate_get: out->struct_size is not set");
        const DispatchRecord& r = last_dispatch_record;
        if (r.ctx != ctx || index >= r.ranked.size())
            return fail(IPT_ERR_NOT_FOUND, "ipt_last_candidate_get: no candidate " + std::to_string(index) +
                                               " in the last dispatch on this thread");
        const CandidateRecord& c = r.ranked[index];
        ipt_candidate_info v{};
        v.struct_size = out->struct_size;
        v.plugin = c.plugin.c_str();
        v.variant = c.variant.c_str();
        v.device_id = c.device_id;
        v.run_ms = c.run_ms;
        v.transfer_ms = c.transfer_ms;
        v.cost_ms = c.cost_ms;
        v.source = c.source;
        v.chosen = c.chosen ? 1 : 0;
        v.note = c.note.c_str();
        std::memcpy(out, &v, std::min<size_t>(out->struct_size, sizeof v));
        return IPT_OK;
    });
}

}  // extern "C"
