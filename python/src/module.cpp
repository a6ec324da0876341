// SPDX-License-Identifier: Apache-2.0
// openipt._ipt: a thin layer over the public C API (ipt.h, ipt_ops.h). The
// Python side (openipt/__init__.py) turns schemas into functions; this file
// only moves values and bytes across and turns statuses into exceptions.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <ipt/ipt.h>
#include <ipt/ipt_ops.h>

namespace nb = nanobind;

namespace {

// status -> exception class, handed over by the Python side at import. A
// plain reference, kept for the life of the process: no destructor may run
// after the interpreter has gone.
PyObject* g_error_classes = nullptr;

[[noreturn]] void raise_status(ipt_status s, const std::string& what = {}) {
    std::string msg = what.empty() ? std::string(ipt_last_error()) : what;
    if (msg.empty()) msg = ipt_status_name(s);
    PyObject* cls = PyExc_RuntimeError;
    if (g_error_classes) {
        nb::dict classes = nb::borrow<nb::dict>(g_error_classes);
        nb::object key = nb::int_(static_cast<int>(s));
        if (classes.contains(key)) cls = classes[key].ptr();
    }
    PyErr_SetString(cls, msg.c_str());
    throw nb::python_error();
}

void check(ipt_status s) {
    if (s != IPT_OK) raise_status(s);
}

nb::object str_or_none(const char* s) { return s ? nb::object(nb::str(s)) : nb::none(); }

// A byte buffer handed to NumPy: 64-byte aligned, so that the Python side may
// view it as any class and hand it back to the library without a copy.
nb::ndarray<nb::numpy, uint8_t, nb::ndim<1>> byte_array(size_t bytes, void** data) {
    const size_t rounded = ((bytes == 0 ? 64 : bytes) + 63) / 64 * 64;
    void* p = std::aligned_alloc(64, rounded);
    if (!p) throw std::bad_alloc();
    nb::capsule owner(p, [](void* q) noexcept { std::free(q); });
    *data = p;
    size_t shape[1] = {bytes};
    return nb::ndarray<nb::numpy, uint8_t, nb::ndim<1>>(p, 1, shape, owner);
}

class Context {
public:
    explicit Context(uint32_t flags) { check(ipt_context_create(flags, &ctx_)); }
    ~Context() { ipt_context_destroy(ctx_); }
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    ipt_context* get() const { return ctx_; }

    void load_plugin(const std::string& path) {
        ipt_status s;
        {
            nb::gil_scoped_release unlocked;
            s = ipt_load_plugin(ctx_, path.c_str());
        }
        check(s);
    }

    void set_device(uint32_t id) { check(ipt_set_device(ctx_, id)); }
    void set_fallback(uint32_t policy) { check(ipt_set_fallback(ctx_, policy)); }

    nb::list plugin_reports() const {
        nb::list out;
        for (uint32_t i = 0; i < ipt_plugin_report_count(ctx_); ++i) {
            ipt_plugin_report r{};
            r.struct_size = sizeof r;
            check(ipt_plugin_report_get(ctx_, i, &r));
            nb::dict d;
            d["path"] = str_or_none(r.path);
            d["source"] = str_or_none(r.source);
            d["outcome"] = r.outcome == IPT_LOAD_LOADED ? "loaded" : r.outcome == IPT_LOAD_DUPLICATE ? "duplicate"
                                                                                                  : "failed";
            d["error"] = str_or_none(r.error);
            d["name"] = str_or_none(r.name);
            d["vendor"] = str_or_none(r.vendor);
            d["version"] = str_or_none(r.version);
            d["abi_version"] = r.abi_version_seen;
            d["api_version"] = r.api_version_seen;
            d["device_count"] = r.device_count;
            d["device_note"] = str_or_none(r.device_note);
            d["impl_count"] = r.impl_count;
            out.append(d);
        }
        return out;
    }

    nb::list devices() const {
        nb::list out;
        for (uint32_t i = 0; i < ipt_device_count(ctx_); ++i) {
            ipt_device_info d{};
            d.struct_size = sizeof d;
            check(ipt_device_get(ctx_, i, &d));
            nb::dict o;
            o["id"] = d.id;
            o["name"] = str_or_none(d.name);
            o["kind"] = str_or_none(d.kind);
            o["vendor"] = str_or_none(d.vendor);
            o["plugin"] = str_or_none(d.plugin);
            o["identity"] = str_or_none(d.identity);
            o["memory_bytes"] = d.memory_bytes;
            o["compute_units"] = d.compute_units;
            o["subgroup_size"] = d.subgroup_size;
            out.append(o);
        }
        return out;
    }

    nb::list ops() const {
        nb::list out;
        for (uint32_t i = 0; i < ipt_op_count(ctx_); ++i) {
            const ipt_op_schema* op = ipt_op_get(ctx_, i);
            if (!op || op->struct_size < IPT_OP_SCHEMA_MIN_SIZE) continue;
            nb::dict o;
            o["name"] = str_or_none(op->name);
            o["matlab"] = str_or_none(op->matlab);
            o["summary"] = str_or_none(op->summary);
            o["alternatives"] = str_or_none(op->alternatives);
            const bool tiled = op->struct_size >= IPT_SIZE_THROUGH(ipt_op_schema, tiling_rule);
            o["tiling"] = tiled ? op->tiling : static_cast<int32_t>(IPT_TILING_UNKNOWN);
            o["tiling_rule"] = str_or_none(tiled ? op->tiling_rule : nullptr);
            nb::list params;
            for (uint32_t k = 0; k < op->param_count; ++k) params.append(param_dict(ipt_op_param(op, k)));
            o["params"] = params;
            out.append(o);
        }
        return out;
    }

    nb::object last_dispatch() const;
    nb::tuple tiling(const std::string& op, nb::list params);
    nb::list run(const std::string& op, nb::list params, const std::vector<std::string>& want,
                 const std::vector<std::string>& outputs, int64_t device, uintptr_t stream);

private:
    static nb::dict param_dict(const ipt_param_schema* p) {
        nb::dict d;
        d["name"] = str_or_none(p->name);
        d["kind"] = p->kind;
        d["dtypes"] = p->dtypes;
        d["flags"] = p->flags;
        d["values"] = str_or_none(p->values);
        d["default"] = str_or_none(p->default_text);
        d["min"] = p->min_value;
        d["max"] = p->max_value;
        d["min_count"] = p->min_count;
        d["max_count"] = p->max_count;
        d["ref"] = str_or_none(p->ref);
        d["doc"] = str_or_none(p->doc);
        return d;
    }

    ipt_context* ctx_ = nullptr;
};

nb::object Context::last_dispatch() const {
    ipt_dispatch_info di{};
    di.struct_size = sizeof di;
    if (ipt_last_dispatch(ctx_, &di) != IPT_OK) return nb::none();
    nb::dict d;
    d["op"] = str_or_none(di.op);
    d["plugin"] = str_or_none(di.plugin);
    d["variant"] = str_or_none(di.variant);
    d["device_id"] = di.device_id;
    d["run_ms"] = di.run_ms;
    d["transfer_ms"] = di.transfer_ms;
    d["reason"] = str_or_none(di.reason);
    d["declined"] = di.declined;
    nb::list cands;
    for (uint32_t i = 0; i < ipt_last_candidate_count(ctx_); ++i) {
        ipt_candidate_info c{};
        c.struct_size = sizeof c;
        if (ipt_last_candidate_get(ctx_, i, &c) != IPT_OK) break;
        static const char* sources[] = {"static", "measured", "cached", "declined", "failed"};
        nb::dict o;
        o["plugin"] = str_or_none(c.plugin);
        o["variant"] = str_or_none(c.variant);
        o["device_id"] = c.device_id;
        o["run_ms"] = c.run_ms;
        o["transfer_ms"] = c.transfer_ms;
        o["cost_ms"] = c.cost_ms;
        // Not measured but priced by a prior (docs/selection.md): "estimated".
        o["source"] = c.source == IPT_COST_STATIC && c.run_ms >= 0 ? "estimated"
                      : c.source >= 0 && c.source <= 4            ? sources[c.source]
                                                                  : "unknown";
        o["chosen"] = c.chosen != 0;
        o["note"] = str_or_none(c.note);
        cands.append(o);
    }
    d["candidates"] = cands;
    return d;
}

// RAII for the C handles of one run.
struct CallGuard {
    ipt_call* call = nullptr;
    std::vector<ipt_image*> images;
    ~CallGuard() {
        for (ipt_image* im : images) ipt_image_free(im);
        ipt_call_free(call);
    }
};

// Parameter kinds as the Python side sends them.
enum Kind { kImage = 0, kInt = 1, kFloat = 2, kFloats = 3, kString = 4, kText = 5, kDeviceImage = 6 };

// An output image handed to Python over its device memory (CuPy, or
// __cuda_array_interface__): freed when the last array over it goes.
struct ImageRef {
    ipt_image* image = nullptr;
    uintptr_t address = 0;
    uint32_t device_id = 0;
    // The caller's stream object the image's memory is freed on: released
    // only after the image (members are destroyed after the destructor's
    // body), so the free is never queued on a destroyed stream.
    nb::object stream;
    explicit ImageRef(ipt_image* im) : image(im) {}
    ~ImageRef() { ipt_image_free(image); }
    ImageRef(const ImageRef&) = delete;
    ImageRef& operator=(const ImageRef&) = delete;
};

// What one run needs besides its handles: the device that wraps the
// caller's device arrays, and the stream given to it for the run.
struct DeviceState {
    ipt_context* ctx = nullptr;
    std::string op;       // for messages
    int64_t device = -1;  // global id of the device holding the device inputs
    void* stream = nullptr;
    bool stream_set = false;
    ~DeviceState() {
        // Back to the plugin's own queue; work queued meanwhile stays ordered.
        if (stream_set) (void)ipt_set_native_stream(ctx, static_cast<uint32_t>(device), nullptr);
    }
};

using Bytes = nb::ndarray<const uint8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

// Inputs copied because their memory could not be wrapped (misaligned for
// their class); tests read it to prove the zero-copy path.
std::atomic<uint64_t> g_input_copies{0};

// An input image over tightly packed host bytes (planes one after another):
// the caller's memory itself when aligned for its class, else a copy.
ipt_image* make_input(ipt_context* ctx, const std::string& name, nb::tuple v) {
    Bytes bytes = nb::cast<Bytes>(v[0]);
    const auto dtype = static_cast<ipt_dtype>(nb::cast<int>(v[1]));
    const int64_t rows = nb::cast<int64_t>(v[2]), cols = nb::cast<int64_t>(v[3]), ch = nb::cast<int64_t>(v[4]);
    const size_t elem = ipt_dtype_size(dtype);
    const uint64_t expect = static_cast<uint64_t>(rows * cols * ch) * elem;
    if (elem == 0 || bytes.shape(0) != expect)
        raise_status(IPT_ERR_INVALID_ARGUMENT, "'" + name + "': " + std::to_string(bytes.shape(0)) +
                                                   " bytes given for " + std::to_string(expect));
    ipt_image* img = nullptr;
    const void* data = bytes.data();
    if (reinterpret_cast<uintptr_t>(data) % elem == 0) {
        check(ipt_image_wrap_host(ctx, dtype, rows, cols, ch, data, 0, &img));
        return img;
    }
    ++g_input_copies;
    check(ipt_image_create(ctx, IPT_DEVICE_HOST, dtype, rows, cols, ch, &img));
    ipt_status s;
    {
        nb::gil_scoped_release unlocked;
        s = ipt_image_upload(img, data, 0);
    }
    if (s != IPT_OK) {
        std::string msg = ipt_last_error();
        ipt_image_free(img);
        raise_status(s, msg);
    }
    return img;
}

// An input over the caller's device memory: wrapped on the first CUDA device
// whose plugin recognises the address as its own (the GPU it lives on).
ipt_image* make_device_input(ipt_context* ctx, const std::string& name, nb::tuple v, DeviceState& ds) {
    const auto address = reinterpret_cast<void*>(nb::cast<uintptr_t>(v[0]));
    const auto dtype = static_cast<ipt_dtype>(nb::cast<int>(v[1]));
    const int64_t rows = nb::cast<int64_t>(v[2]), cols = nb::cast<int64_t>(v[3]), ch = nb::cast<int64_t>(v[4]);
    const std::string where = ds.op + ": parameter '" + name + "': ";
    std::string reasons;
    bool any = false;
    for (uint32_t id = 0; id < ipt_device_count(ctx); ++id) {
        ipt_device_info d{};
        d.struct_size = sizeof d;
        if (ipt_device_get(ctx, id, &d) != IPT_OK || !d.kind || std::strcmp(d.kind, "cuda") != 0) continue;
        any = true;
        ipt_image* img = nullptr;
        const ipt_status s = ipt_image_wrap_device(ctx, id, dtype, rows, cols, ch, address, 0, &img);
        if (s == IPT_OK) {
            if (ds.device < 0) ds.device = id;
            return img;
        }
        // A wrong class or shape is the same on every device.
        if (s != IPT_ERR_INVALID_ARGUMENT || std::strstr(ipt_last_error(), "native_address") == nullptr)
            raise_status(s, where + ipt_last_error());
        reasons += std::string(reasons.empty() ? "" : "; ") + ipt_last_error();
    }
    if (!any)
        raise_status(IPT_ERR_NOT_FOUND, where +
                                            "a CUDA array was given, but OpenIPT has no CUDA device (see "
                                            "openipt.info() for the CUDA plugin's report)");
    raise_status(IPT_ERR_NOT_FOUND, where + "no OpenIPT CUDA device holds this CUDA array: " + reasons);
}

void set_param(CallGuard& g, ipt_context* ctx, nb::tuple p, DeviceState& ds) {
    const std::string name = nb::cast<std::string>(p[0]);
    const int kind = nb::cast<int>(p[1]);
    nb::handle v = p[2];
    switch (kind) {
    case kImage: {
        ipt_image* img = make_input(ctx, name, nb::cast<nb::tuple>(v));
        g.images.push_back(img);
        check(ipt_call_set_image(g.call, name.c_str(), img));
        break;
    }
    case kDeviceImage: {
        ipt_image* img = make_device_input(ctx, name, nb::cast<nb::tuple>(v), ds);
        g.images.push_back(img);
        check(ipt_call_set_image(g.call, name.c_str(), img));
        break;
    }
    case kInt: check(ipt_call_set_int(g.call, name.c_str(), nb::cast<int64_t>(v))); break;
    case kFloat: check(ipt_call_set_float(g.call, name.c_str(), nb::cast<double>(v))); break;
    case kFloats: {
        auto values = nb::cast<std::vector<double>>(v);
        check(ipt_call_set_floats(g.call, name.c_str(), values.data(), values.size()));
        break;
    }
    case kString: check(ipt_call_set_string(g.call, name.c_str(), nb::cast<std::string>(v).c_str())); break;
    case kText: check(ipt_call_set_text(g.call, name.c_str(), nb::cast<std::string>(v).c_str())); break;
    default: raise_status(IPT_ERR_INTERNAL, "'" + name + "': unknown parameter kind " + std::to_string(kind));
    }
}

// One output as (bytes, dtype, rows, cols, channels): a host image's own
// memory, owned by the array, or a device image's download (the image freed
// here); or, with device_out and an image on a device, as (ImageRef,
// dtype, rows, cols, channels) over the image's own memory.
nb::tuple take_output(ipt_call* call, const std::string& name, bool device_out) {
    ipt_image* img = nullptr;
    check(ipt_call_take_output(call, name.c_str(), &img));
    CallGuard hold;  // frees the image whatever happens
    hold.images.push_back(img);
    ipt_image_info info{};
    info.struct_size = sizeof info;
    check(ipt_image_get_info(img, &info));
    if (device_out && info.device_id != IPT_DEVICE_HOST) {
        void* address = nullptr;
        check(ipt_image_native_address(img, &address, nullptr));
        auto* ref = new ImageRef(img);
        hold.images.clear();  // the ImageRef owns it now
        ref->address = reinterpret_cast<uintptr_t>(address);
        ref->device_id = info.device_id;
        nb::object owner = nb::cast(ref, nb::rv_policy::take_ownership);
        return nb::make_tuple(owner, info.dtype, info.rows, info.cols, info.channels);
    }
    const size_t elem = ipt_dtype_size(static_cast<ipt_dtype>(info.dtype));
    const size_t bytes = static_cast<size_t>(info.rows * info.cols * info.channels) * elem;
    if (info.device_id == IPT_DEVICE_HOST && bytes > 0) {
        // A host output is handed to NumPy in place: the array owns the
        // image (no download, no second buffer) when its rows are packed.
        void* address = nullptr;
        int64_t pitch = 0;
        check(ipt_image_native_address(img, &address, &pitch));
        if (pitch == info.cols * static_cast<int64_t>(elem) && reinterpret_cast<uintptr_t>(address) % elem == 0) {
            auto* ref = new ImageRef(img);
            hold.images.clear();  // the ImageRef owns it now
            ref->address = reinterpret_cast<uintptr_t>(address);
            nb::object owner = nb::cast(ref, nb::rv_policy::take_ownership);
            size_t shape[1] = {bytes};
            nb::ndarray<nb::numpy, uint8_t, nb::ndim<1>> arr(address, 1, shape, owner);
            return nb::make_tuple(nb::cast(arr), info.dtype, info.rows, info.cols, info.channels);
        }
    }
    void* data = nullptr;
    auto arr = byte_array(bytes, &data);
    ipt_status s;
    {
        nb::gil_scoped_release unlocked;
        s = ipt_image_download(img, data, 0);
    }
    check(s);
    return nb::make_tuple(arr, info.dtype, info.rows, info.cols, info.channels);
}

nb::list Context::run(const std::string& op, nb::list params, const std::vector<std::string>& want,
                      const std::vector<std::string>& outputs, int64_t device, uintptr_t stream) {
    DeviceState ds;  // destroyed last: the stream is reset after the images are freed
    ds.ctx = ctx_;
    ds.op = op;
    CallGuard g;
    check(ipt_call_create(ctx_, op.c_str(), &g.call));
    for (nb::handle p : params) set_param(g, ctx_, nb::cast<nb::tuple>(p), ds);
    for (const auto& w : want) check(ipt_call_want_output(g.call, w.c_str()));
    // A call on device arrays runs on their device unless told otherwise.
    if (device < 0 && ds.device >= 0) device = ds.device;
    if (device >= 0) check(ipt_call_set_device(g.call, static_cast<uint32_t>(device)));
    if (ds.device >= 0 && stream != 0) {
        check(ipt_set_native_stream(ctx_, static_cast<uint32_t>(ds.device), reinterpret_cast<void*>(stream)));
        ds.stream_set = true;
    }
    ipt_status s;
    {
        nb::gil_scoped_release unlocked;  // threads run calls in parallel
        s = ipt_call_run(g.call);
    }
    check(s);
    nb::list out;
    for (const auto& name : outputs) out.append(take_output(g.call, name, ds.device >= 0));
    return out;
}

// ipt_call_tiling for a call with these parameters (the tiled image left out):
// (tiling, halo_rows, halo_cols, reason).
nb::tuple Context::tiling(const std::string& op, nb::list params) {
    DeviceState ds;
    ds.ctx = ctx_;
    ds.op = op;
    CallGuard g;
    check(ipt_call_create(ctx_, op.c_str(), &g.call));
    for (nb::handle p : params) set_param(g, ctx_, nb::cast<nb::tuple>(p), ds);
    ipt_tiling_info t{};
    t.struct_size = sizeof t;
    check(ipt_call_tiling(g.call, &t));
    return nb::make_tuple(t.tiling, t.halo_rows, t.halo_cols, str_or_none(t.reason));
}

nb::dict status_names() {
    nb::dict d;
    for (int s = IPT_ERR_INVALID_ARGUMENT; s <= IPT_ERR_MISUSE; ++s)
        d[nb::int_(s)] = ipt_status_name(static_cast<ipt_status>(s));
    return d;
}

nb::dict dtype_names() {
    nb::dict d;
    for (int t = 0; t < IPT_DTYPE_COUNT; ++t)
        if (const char* n = ipt_dtype_name(static_cast<ipt_dtype>(t))) d[nb::int_(t)] = n;
    return d;
}

}  // namespace

NB_MODULE(_ipt, m) {
    m.doc() = "OpenIPT's C API, as the openipt package uses it";
    m.attr("DEVICE_HOST") = IPT_DEVICE_HOST;
    m.attr("DEVICE_ANY") = IPT_DEVICE_ANY;
    m.attr("CONTEXT_NO_DISCOVERY") = IPT_CONTEXT_NO_DISCOVERY;
    m.attr("VERSION") = IPT_PACKAGE_VERSION;
    m.attr("ABI_VERSION") = ipt_version_abi();
    m.attr("API_VERSION") = ipt_version_api();
    m.def("status_names", &status_names);
    m.def("dtype_names", &dtype_names);
    m.def("input_copies", [] { return g_input_copies.load(); });
    m.def("set_error_classes", [](nb::dict d) {
        Py_XDECREF(g_error_classes);
        g_error_classes = d.inc_ref().ptr();
    });
    nb::class_<Context>(m, "Context")
        .def(nb::init<uint32_t>(), nb::arg("flags") = 0)
        .def("load_plugin", &Context::load_plugin)
        .def("set_device", &Context::set_device)
        .def("set_fallback", &Context::set_fallback)
        .def("plugin_reports", &Context::plugin_reports)
        .def("devices", &Context::devices)
        .def("ops", &Context::ops)
        .def("last_dispatch", &Context::last_dispatch)
        .def("tiling", &Context::tiling, nb::arg("op"), nb::arg("params"))
        .def("run", &Context::run, nb::arg("op"), nb::arg("params"), nb::arg("want"), nb::arg("outputs"),
             nb::arg("device") = -1, nb::arg("stream") = 0);
    nb::class_<ImageRef>(m, "ImageRef")
        .def_ro("address", &ImageRef::address)
        .def_ro("device_id", &ImageRef::device_id)
        .def_rw("stream", &ImageRef::stream);
}
