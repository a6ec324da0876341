// SPDX-License-Identifier: Apache-2.0
// ipt_cuda_bench: check and benchmark of libipt_cuda, with no registry in
// between. It loads libipt_cuda and libipt_cpu (the reference) from the
// folder given (default: ../lib next to this program), plays the host's part
// (host table, output allocation, defaults from the catalogue), then
//   1. runs each check case on the GPU and on the CPU reference and compares
//      with the catalogue's rule (exact for integer and logical outputs);
//   2. times each benchmark case: kernel time (CUDA events on the plugin's
//      stream, data on the device, median of >= 20 runs after warm-up),
//      overall time (upload + run + download, median), GB/s of the bytes the
//      operator must move, and that rate over the device-to-device copy
//      bandwidth measured in the same run; and the same case through NPP;
//   3. prints a table last and writes JSON (--json FILE).
//
// Usage: ipt_cuda_bench [--lib DIR] [--cpu-lib FILE] [--json FILE] [--skip-code N] [--checks-only] [--bench-only] [--filter TEXT]
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstdlib>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "ipt/ipt_ops.h"
#include "ipt/ipt_plugin.h"
#include "timing.hpp"

namespace {

using ipt_bench::median;
using ipt_bench::time_events;

size_t dtype_size(int32_t d) {
    switch (d) {
    case IPT_LOGICAL: case IPT_UINT8: return 1;
    case IPT_UINT16: case IPT_INT16: return 2;
    case IPT_INT32: case IPT_UINT32: case IPT_SINGLE: return 4;
    case IPT_DOUBLE: return 8;
    }
    return 0;
}
const char* dtype_name(int32_t d) {
    static const char* names[] = {"?", "logical", "uint8", "uint16", "int16", "int32", "uint32", "single", "double"};
    return d >= 1 && d <= 8 ? names[d] : "?";
}

// ---- host images ----------------------------------------------------------------

struct Img {
    int32_t dtype = IPT_DOUBLE;
    int64_t rows = 0, cols = 0, ch = 1;
    std::vector<uint8_t> bytes;
    int64_t numel() const { return rows * cols * ch; }
    double at(int64_t i) const {
        const uint8_t* p = bytes.data();
        switch (dtype) {
        case IPT_LOGICAL: case IPT_UINT8: return p[i];
        case IPT_UINT16: return reinterpret_cast<const uint16_t*>(p)[i];
        case IPT_INT16: return reinterpret_cast<const int16_t*>(p)[i];
        case IPT_INT32: return reinterpret_cast<const int32_t*>(p)[i];
        case IPT_UINT32: return reinterpret_cast<const uint32_t*>(p)[i];
        case IPT_SINGLE: return reinterpret_cast<const float*>(p)[i];
        default: return reinterpret_cast<const double*>(p)[i];
        }
    }
};

std::mt19937_64& rng() {
    static std::mt19937_64 g(12345);
    return g;
}

// Random image; `lo`..`hi` for numeric classes, `density` of true for logical.
Img random_img(int32_t dtype, int64_t rows, int64_t cols, int64_t ch = 1, double lo = 0, double hi = -1,
               double density = 0.5) {
    Img m;
    m.dtype = dtype;
    m.rows = rows;
    m.cols = cols;
    m.ch = ch;
    m.bytes.resize(static_cast<size_t>(m.numel()) * dtype_size(dtype));
    auto& g = rng();
    std::uniform_real_distribution<double> u(0, 1);
    for (int64_t i = 0; i < m.numel(); ++i) {
        double v;
        switch (dtype) {
        case IPT_LOGICAL: m.bytes[i] = u(g) < density; continue;
        case IPT_UINT8: v = hi > lo ? std::floor(lo + u(g) * (hi - lo + 1)) : double(g() % 256); m.bytes[i] = uint8_t(v); continue;
        case IPT_UINT16: v = hi > lo ? std::floor(lo + u(g) * (hi - lo + 1)) : double(g() % 65536);
            reinterpret_cast<uint16_t*>(m.bytes.data())[i] = uint16_t(v); continue;
        case IPT_INT16: v = hi > lo ? std::floor(lo + u(g) * (hi - lo + 1)) : double(int(g() % 65536) - 32768);
            reinterpret_cast<int16_t*>(m.bytes.data())[i] = int16_t(v); continue;
        case IPT_INT32: reinterpret_cast<int32_t*>(m.bytes.data())[i] = int32_t(g() % 2000001) - 1000000; continue;
        case IPT_UINT32: reinterpret_cast<uint32_t*>(m.bytes.data())[i] = uint32_t(g()); continue;
        case IPT_SINGLE: reinterpret_cast<float*>(m.bytes.data())[i] = float(hi > lo ? lo + u(g) * (hi - lo) : u(g)); continue;
        default: reinterpret_cast<double*>(m.bytes.data())[i] = hi > lo ? lo + u(g) * (hi - lo) : u(g); continue;
        }
    }
    return m;
}

Img doubles(int64_t rows, int64_t cols, std::vector<double> v) {
    Img m;
    m.dtype = IPT_DOUBLE;
    m.rows = rows;
    m.cols = cols;
    m.bytes.resize(v.size() * 8);
    std::memcpy(m.bytes.data(), v.data(), v.size() * 8);
    return m;
}
// m with element i set to x (single or double images).
Img with_value(Img m, int64_t i, double x) {
    if (m.dtype == IPT_SINGLE) reinterpret_cast<float*>(m.bytes.data())[i] = static_cast<float>(x);
    else reinterpret_cast<double*>(m.bytes.data())[i] = x;
    return m;
}
Img logical_img(int64_t rows, int64_t cols, std::vector<int> v) {
    Img m;
    m.dtype = IPT_LOGICAL;
    m.rows = rows;
    m.cols = cols;
    for (int x : v) m.bytes.push_back(uint8_t(x != 0));
    return m;
}

// ---- plugins and the host table -------------------------------------------------

struct Plugin {
    void* lib = nullptr;
    const ipt_plugin_table* table = nullptr;
    std::string path;
};

thread_local std::string g_error;
const Plugin* g_cuda = nullptr;

struct OwnedTensor {
    ipt_tensor t{};
    std::vector<uint8_t> host;  // host tensors
    bool device = false;
};

struct HostCall {
    bool cuda = false;
    // Timing: an output of the same shape as the last call's is handed back
    // as it is (no allocation, no poison), as NPP's peers write into
    // preallocated images.
    bool reuse_outputs = false;
    std::map<uint32_t, std::unique_ptr<OwnedTensor>> outputs;
    ~HostCall() {
        for (auto& [i, o] : outputs)
            if (o->device && o->t.buffer) g_cuda->table->mem_free(0, o->t.buffer);
    }
};

void host_log(int32_t level, const char* plugin, const char* message) {
    if (level >= 2) std::fprintf(stderr, "[%s] %s\n", plugin, message);
}
void host_set_error(const char* message) { g_error = message ? message : ""; }
ipt_status host_alloc_output(void* host_call, uint32_t index, int32_t dtype, int64_t rows, int64_t cols,
                             int64_t channels, const ipt_tensor** out) {
    auto* call = static_cast<HostCall*>(host_call);
    if (call->reuse_outputs) {
        auto it = call->outputs.find(index);
        if (it != call->outputs.end()) {
            const ipt_tensor& t = it->second->t;
            if (t.dtype == dtype && t.rows == rows && t.cols == cols && t.channels == channels) {
                *out = &t;
                return IPT_OK;
            }
        }
    }
    auto o = std::make_unique<OwnedTensor>();
    const size_t bytes = static_cast<size_t>(rows * cols * channels) * dtype_size(dtype);
    o->t.struct_size = sizeof(ipt_tensor);
    o->t.dtype = dtype;
    o->t.rows = rows;
    o->t.cols = cols;
    o->t.channels = channels;
    o->t.row_pitch = cols * static_cast<int64_t>(dtype_size(dtype));
    if (call->cuda) {
        void *buf = nullptr, *addr = nullptr;
        ipt_status s = g_cuda->table->mem_alloc(0, bytes, &buf, &addr);
        if (s != IPT_OK) return s;
        // Poison: an unwritten element shows up as a mismatch.
        cudaMemset(addr, 0xA5, bytes ? bytes : 1);
        o->t.buffer = buf;
        o->t.data = addr;
        o->t.device_id = 1;
        o->device = true;
    } else {
        o->host.assign(bytes ? bytes : 1, 0xA5);
        o->t.data = o->host.data();
    }
    *out = &o->t;
    auto old = call->outputs.find(index);
    if (old != call->outputs.end() && old->second->device) g_cuda->table->mem_free(0, old->second->t.buffer);
    call->outputs[index] = std::move(o);
    return IPT_OK;
}
ipt_status host_native(void* host_call, int32_t kind, const ipt_tensor*, void** out) {
    auto* call = static_cast<HostCall*>(host_call);
    if (!call->cuda) return IPT_ERR_NOT_FOUND;
    return g_cuda->table->native_handle(0, kind, nullptr, out);
}
int32_t host_threads() { return static_cast<int32_t>(std::max(1u, std::thread::hardware_concurrency())); }

ipt_host_table make_host_table() {
    ipt_host_table h{};
    h.header = {sizeof(ipt_host_table), IPT_ABI_VERSION, IPT_API_VERSION};
    h.log = host_log;
    h.set_error = host_set_error;
    h.alloc_output = host_alloc_output;
    h.native_handle = host_native;
    h.cpu_threads = host_threads;
    return h;
}

bool load_plugin(const std::string& path, const ipt_host_table* host, Plugin* p) {
    p->path = path;
    p->lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!p->lib) {
        std::printf("load %s: %s\n", path.c_str(), dlerror());
        return false;
    }
    auto entry = reinterpret_cast<ipt_plugin_entry_fn>(dlsym(p->lib, IPT_PLUGIN_ENTRY_SYMBOL));
    const char* reason = nullptr;
    p->table = entry ? entry(host, &reason) : nullptr;
    if (!p->table) {
        std::printf("load %s: no table (%s)\n", path.c_str(), reason ? reason : "no entry");
        return false;
    }
    return true;
}

const ipt_impl_desc* find_impl(const Plugin* p, const char* op, const char* variant) {
    if (!p || !p->table) return nullptr;
    for (uint32_t i = 0; i < p->table->impl_count; ++i) {
        const ipt_impl_desc& d = *p->table->impls[i];
        if (std::strcmp(d.op, op) == 0 && std::strcmp(d.variant, variant) == 0) return &d;
    }
    return nullptr;
}

const ipt_op_schema* find_schema(const char* op) {
    for (uint32_t i = 0; i < IPT_BUILTIN_OP_COUNT; ++i)
        if (std::strcmp(ipt_builtin_ops[i].name, op) == 0) return &ipt_builtin_ops[i];
    return nullptr;
}

// ---- cases ------------------------------------------------------------------------

struct Arg {
    std::string name;
    bool is_img = false;
    Img img;
    std::string text;  // any scalar, array or enum in textual form
};

struct Case {
    std::string op, label, variant;
    std::vector<Arg> args;
    bool check = true, bench = false;
    std::string peer;  // NPP peer key
    std::string expect_decline;  // the GPU must decline (IPT_ERR_UNSUPPORTED) with this in its message
    Case& pin(const std::string& v) {
        variant = v;
        return *this;
    }
    Case& declines(const std::string& reason) {
        expect_decline = reason;
        return *this;
    }
    Case& img(const std::string& n, Img m) {
        args.push_back({n, true, std::move(m), ""});
        return *this;
    }
    Case& set(const std::string& n, const std::string& t) {
        args.push_back({n, false, {}, t});
        return *this;
    }
    const Arg* find(const char* n) const {
        for (auto& a : args)
            if (a.name == n) return &a;
        return nullptr;
    }
};

std::vector<double> parse_numbers(std::string t) {
    std::vector<double> v;
    for (char& c : t)
        if (c == '[' || c == ']' || c == ',' || c == ';') c = ' ';
    if (t.find(':') != std::string::npos) {
        double a = 0, b = 0, s = 1;
        if (std::count(t.begin(), t.end(), ':') == 2) std::sscanf(t.c_str(), "%lf:%lf:%lf", &a, &s, &b);
        else std::sscanf(t.c_str(), "%lf:%lf", &a, &b);
        for (double x = a; x <= b + 1e-9; x += s) v.push_back(x);
        return v;
    }
    std::istringstream in(t);
    double x;
    while (in >> x) v.push_back(x);
    return v;
}

// Values of a call, in schema order, with their storage.
struct Bound {
    std::vector<ipt_value> values;
    std::vector<std::vector<double>> floats;
    std::vector<std::string> strings;
    std::vector<std::unique_ptr<OwnedTensor>> inputs;
    ~Bound() {
        for (auto& o : inputs)
            if (o->device && o->t.buffer) g_cuda->table->mem_free(0, o->t.buffer);
    }
};

std::unique_ptr<Bound> bind(const ipt_op_schema* schema, const Case& c, bool cuda) {
    auto b = std::make_unique<Bound>();
    b->values.resize(schema->param_count);
    b->floats.resize(schema->param_count);
    b->strings.resize(schema->param_count);
    for (uint32_t i = 0; i < schema->param_count; ++i) {
        const ipt_param_schema& p = schema->params[i];
        ipt_value& v = b->values[i];
        v.kind = p.kind;
        const Arg* a = c.find(p.name);
        if (p.kind == IPT_PARAM_OUTPUT) {
            v.present = 1;
            v.wanted = 1;
            continue;
        }
        if (p.kind == IPT_PARAM_INPUT) {
            if (!a) continue;
            auto o = std::make_unique<OwnedTensor>();
            o->t.struct_size = sizeof(ipt_tensor);
            o->t.dtype = a->img.dtype;
            o->t.rows = a->img.rows;
            o->t.cols = a->img.cols;
            o->t.channels = a->img.ch;
            o->t.row_pitch = a->img.cols * static_cast<int64_t>(dtype_size(a->img.dtype));
            if (cuda && !(p.flags & IPT_P_HOST)) {
                void *buf = nullptr, *addr = nullptr;
                g_cuda->table->mem_alloc(0, a->img.bytes.size(), &buf, &addr);
                g_cuda->table->mem_upload(0, buf, 0, a->img.bytes.data(), a->img.bytes.size());
                o->t.buffer = buf;
                o->t.data = addr;
                o->t.device_id = 1;
                o->device = true;
            } else {
                o->host = a->img.bytes;
                if (o->host.empty()) o->host.resize(1);
                o->t.data = o->host.data();
            }
            v.present = 1;
            v.image = &o->t;
            b->inputs.push_back(std::move(o));
            continue;
        }
        std::string text = a ? a->text : (p.default_text ? p.default_text : "");
        if (!a && !p.default_text) continue;
        v.present = 1;
        switch (p.kind) {
        case IPT_PARAM_INT: v.i = static_cast<int64_t>(parse_numbers(text).at(0)); break;
        case IPT_PARAM_FLOAT: v.f = parse_numbers(text).at(0); break;
        case IPT_PARAM_FLOATS:
            b->floats[i] = parse_numbers(text);
            v.floats = b->floats[i].data();
            v.count = b->floats[i].size();
            break;
        case IPT_PARAM_ENUM:
            b->strings[i] = text;
            v.str = b->strings[i].c_str();
            break;
        }
    }
    return b;
}

struct RunResult {
    ipt_status status = IPT_ERR_NOT_FOUND;
    std::string error;
    std::map<std::string, Img> outputs;
};

Img download(const OwnedTensor& o) {
    Img m;
    m.dtype = o.t.dtype;
    m.rows = o.t.rows;
    m.cols = o.t.cols;
    m.ch = o.t.channels;
    m.bytes.resize(static_cast<size_t>(m.numel()) * dtype_size(m.dtype));
    if (o.device) g_cuda->table->mem_download(0, o.t.buffer, 0, m.bytes.data(), m.bytes.size());
    else std::memcpy(m.bytes.data(), o.host.data(), m.bytes.size());
    return m;
}

RunResult run_once(const ipt_op_schema* schema, const ipt_impl_desc* impl, const Case& c, bool cuda) {
    RunResult r;
    auto b = bind(schema, c, cuda);
    HostCall hc;
    hc.cuda = cuda;
    ipt_kernel_call kc{};
    kc.struct_size = sizeof kc;
    kc.schema = schema;
    kc.device_id = cuda ? 1 : 0;
    kc.device_index = 0;
    kc.value_count = schema->param_count;
    kc.value_stride = sizeof(ipt_value);
    kc.values = b->values.data();
    kc.host_call = &hc;
    g_error.clear();
    r.status = impl->run(&kc);
    r.error = g_error;
    if (r.status == IPT_OK && cuda) {
        ipt_status s = g_cuda->table->sync(0);
        if (s != IPT_OK) {
            r.status = s;
            r.error = g_error;
        }
    }
    if (r.status == IPT_OK)
        for (auto& [i, o] : hc.outputs) r.outputs[schema->params[i].name] = download(*o);
    return r;
}

// ---- comparison ---------------------------------------------------------------------

double eps_of(int32_t d) { return d == IPT_SINGLE ? 1.1920928955078125e-07 : 2.220446049250313e-16; }

// transform_peak > 0: the bound of transform (FFT) variants, tolerance * eps *
// max_p (|A|*|B|)(p), with transform_peak standing for that maximum.
std::string compare(const ipt_op_schema* schema, const std::string& name, const Img& got, const Img& ref,
                    double thresh_eps = 2.220446049250313e-16, double transform_peak = 0) {
    if (got.dtype != ref.dtype || got.rows != ref.rows || got.cols != ref.cols || got.ch != ref.ch) {
        std::ostringstream o;
        o << name << ": shape/class " << dtype_name(got.dtype) << " " << got.rows << "x" << got.cols << "x" << got.ch
          << " vs reference " << dtype_name(ref.dtype) << " " << ref.rows << "x" << ref.cols << "x" << ref.ch;
        return o.str();
    }
    const bool floating = got.dtype == IPT_SINGLE || got.dtype == IPT_DOUBLE;
    double maxref = 0;
    for (int64_t i = 0; i < ref.numel(); ++i)
        if (std::isfinite(ref.at(i))) maxref = std::max(maxref, std::fabs(ref.at(i)));
    double tol = 0;
    if (floating && schema->compare != IPT_CMP_EXACT && schema->compare != IPT_CMP_BWDIST)
        // The harness bounds CONV by tolerance * eps * max(1, max|ref|) * 8: a
        // loose stand-in for (|A|*|B|)(p); `ipt conformance` applies the exact rule.
        tol = schema->tolerance * eps_of(got.dtype) * std::max(1.0, maxref) *
              (schema->compare == IPT_CMP_CONV ? 8.0 : 1.0);
    if (floating && schema->compare == IPT_CMP_CONV && transform_peak > 0)
        tol = schema->tolerance * eps_of(got.dtype) * transform_peak;
    // edge's thresh: 64 eps relative, eps of the class the reference computes
    // in (single for every input but double; set by the caller).
    if (std::strcmp(schema->name, "ipt.edge") == 0 && name == "thresh") tol = 64 * thresh_eps * std::max(1.0, maxref);
    int64_t bad = 0, first = -1;
    double worst = 0;
    for (int64_t i = 0; i < got.numel(); ++i) {
        const double a = got.at(i), b = ref.at(i);
        bool same;
        if (std::isnan(a) || std::isnan(b)) same = std::isnan(a) && std::isnan(b);
        else if (tol == 0) same = a == b;
        else same = std::fabs(a - b) <= tol || a == b;
        if (!same) {
            if (first < 0) first = i;
            ++bad;
            if (std::isfinite(a - b)) worst = std::max(worst, std::fabs(a - b));
        }
    }
    if (!bad) return "";
    std::ostringstream o;
    o.precision(17);
    const int64_t plane = got.rows * got.cols;
    o << name << ": " << bad << " of " << got.numel() << " differ (first at r=" << (first % plane) / std::max<int64_t>(1, got.cols)
      << " c=" << (first % plane) % std::max<int64_t>(1, got.cols) << " ch=" << first / std::max<int64_t>(1, plane)
      << ": " << got.at(first) << " vs " << ref.at(first) << "; worst |diff| " << worst << ", bound " << tol << ")";
    return o.str();
}

// An upper bound of max_p (|A|*|K|)(p) for conv2: max|A| * sum|K|, K = B or
// u v^T (a loose stand-in; `ipt conformance` applies the exact maximum).
double conv2_magnitude_peak(const Case& c) {
    auto max_abs = [](const Img& m) {
        double x = 0;
        for (int64_t i = 0; i < m.numel(); ++i) x = std::max(x, std::fabs(m.at(i)));
        return x;
    };
    auto sum_abs = [](const Img& m) {
        double x = 0;
        for (int64_t i = 0; i < m.numel(); ++i) x += std::fabs(m.at(i));
        return x;
    };
    const Arg* a = c.find("A");
    const Arg* b = c.find("B");
    const Arg* u = c.find("u");
    const Arg* v = c.find("v");
    if (!a) return 0;
    const double kernel = b ? sum_abs(b->img) : (u && v ? sum_abs(u->img) * sum_abs(v->img) : 0);
    return max_abs(a->img) * kernel;
}

// bwdist: D exact; IDX exact except where another feature is equally near.
std::string compare_bwdist(const Case& c, const RunResult& g, const RunResult& r) {
    std::string e = compare(find_schema("ipt.bwdist"), "D", g.outputs.at("D"), r.outputs.at("D"));
    if (!e.empty() || !g.outputs.count("IDX")) return e;
    const Img& gi = g.outputs.at("IDX");
    const Img& ri = r.outputs.at("IDX");
    const Img& d = r.outputs.at("D");
    const std::string method = c.find("method") ? c.find("method")->text : "euclidean";
    const int64_t rows = d.rows, cols = d.cols;
    int64_t bad = 0;
    for (int64_t p = 0; p < rows * cols; ++p) {
        if (gi.at(p) == ri.at(p)) continue;
        const int64_t k = static_cast<int64_t>(gi.at(p)) - 1;
        if (k < 0) { ++bad; continue; }
        const double dr = std::fabs(double(k % rows - p / cols)), dc = std::fabs(double(k / rows - p % cols));
        double dist;
        if (method == "cityblock") dist = dr + dc;
        else if (method == "chessboard") dist = std::max(dr, dc);
        else if (method == "quasi-euclidean") dist = std::max(dr, dc) + (std::sqrt(2.0) - 1) * std::min(dr, dc);
        else dist = std::sqrt(dr * dr + dc * dc);
        if (static_cast<float>(dist) != static_cast<float>(d.at(p))) ++bad;
    }
    return bad ? "IDX: " + std::to_string(bad) + " pixels point to a feature that is not nearest" : "";
}

// ---- the cases ----------------------------------------------------------------------

std::vector<Case> check_cases() {
    std::vector<Case> v;
    auto add = [&](const std::string& op, const std::string& label) -> Case& {
        Case c;
        c.op = op;
        c.label = label;
        v.push_back(c);
        return v.back();
    };
    // intlut
    add("ipt.intlut", "uint8 37x53x3").img("A", random_img(IPT_UINT8, 37, 53, 3)).img("LUT", random_img(IPT_UINT8, 1, 256));
    add("ipt.intlut", "uint16 61x17").img("A", random_img(IPT_UINT16, 61, 17)).img("LUT", random_img(IPT_UINT16, 65536, 1));
    add("ipt.intlut", "int16 1x1").img("A", random_img(IPT_INT16, 1, 1)).img("LUT", random_img(IPT_INT16, 1, 65536));
    add("ipt.intlut", "uint8 1023x1").img("A", random_img(IPT_UINT8, 1023, 1)).img("LUT", random_img(IPT_UINT8, 256, 1));
    // imlincomb
    add("ipt.imlincomb", "uint8 .5A-.25B+3.5").set("K", "[0.5 -0.25 3.5]").img("A1", random_img(IPT_UINT8, 33, 47))
        .img("A2", random_img(IPT_UINT8, 33, 47));
    add("ipt.imlincomb", "uint8 A-B+128 ties").set("K", "[1 -1 128.5]").img("A1", random_img(IPT_UINT8, 20, 31))
        .img("A2", random_img(IPT_UINT8, 20, 31));
    add("ipt.imlincomb", "double to int16").set("K", "[300.5 -2]").img("A1", random_img(IPT_DOUBLE, 19, 23, 1, -300, 300))
        .set("outclass", "int16");
    add("ipt.imlincomb", "logical").set("K", "[2.5]").img("A1", random_img(IPT_LOGICAL, 7, 9));
    add("ipt.imlincomb", "single 3 images rgb").set("K", "[0.3 0.59 0.11]").img("A1", random_img(IPT_SINGLE, 15, 16, 3))
        .img("A2", random_img(IPT_SINGLE, 15, 16, 3)).img("A3", random_img(IPT_SINGLE, 15, 16, 3));
    // mean2
    for (int32_t d : {IPT_UINT8, IPT_LOGICAL, IPT_INT16, IPT_UINT16, IPT_INT32, IPT_SINGLE, IPT_DOUBLE})
        add("ipt.mean2", std::string(dtype_name(d)) + " 131x77").img("A", random_img(d, 131, 77));
    add("ipt.mean2", "uint8 1x1").img("A", random_img(IPT_UINT8, 1, 1));
    // stretchlim, imadjust
    add("ipt.stretchlim", "uint8 rgb").img("I", random_img(IPT_UINT8, 64, 80, 3, 30, 200));
    add("ipt.stretchlim", "uint16").img("I", random_img(IPT_UINT16, 50, 40));
    add("ipt.stretchlim", "double tol .05").img("I", random_img(IPT_DOUBLE, 45, 39)).set("tol", "0.05");
    add("ipt.stretchlim", "single").img("I", random_img(IPT_SINGLE, 45, 39, 1, -0.2, 1.2));
    add("ipt.imadjust", "uint8 default").img("I", random_img(IPT_UINT8, 63, 65, 1, 40, 180));
    add("ipt.imadjust", "uint8 limits gamma").img("I", random_img(IPT_UINT8, 63, 65)).set("low_high_in", "[0.2 0.8]")
        .set("low_high_out", "[1 0]").set("gamma", "0.5");
    add("ipt.imadjust", "uint8 rgb default").img("I", random_img(IPT_UINT8, 31, 33, 3, 20, 220));
    add("ipt.imadjust", "uint16").img("I", random_img(IPT_UINT16, 30, 30)).set("low_high_in", "[0.1 0.7]");
    add("ipt.imadjust", "int16").img("I", random_img(IPT_INT16, 30, 30)).set("low_high_in", "[0.3 0.6]").set("gamma", "2");
    add("ipt.imadjust", "double default").img("I", random_img(IPT_DOUBLE, 40, 41, 1, -0.1, 1.1));
    add("ipt.imadjust", "single gamma").img("I", random_img(IPT_SINGLE, 40, 41)).set("low_high_in", "[0.1 0.9]").set("gamma", "1.7");
    // conv2
    add("ipt.conv2", "single 7x7 same").img("A", random_img(IPT_SINGLE, 70, 93, 1, -1, 1)).img("B", random_img(IPT_SINGLE, 7, 7, 1, -1, 1))
        .set("shape", "same");
    add("ipt.conv2", "double 2x4 full").img("A", random_img(IPT_DOUBLE, 33, 17, 1, -1, 1)).img("B", random_img(IPT_DOUBLE, 2, 4, 1, -1, 1));
    add("ipt.conv2", "mixed 5x3 valid").img("A", random_img(IPT_SINGLE, 40, 50)).img("B", random_img(IPT_DOUBLE, 5, 3)).set("shape", "valid");
    add("ipt.conv2", "valid empty").img("A", random_img(IPT_DOUBLE, 3, 30)).img("B", random_img(IPT_DOUBLE, 5, 3)).set("shape", "valid");
    add("ipt.conv2", "u,v same").img("A", random_img(IPT_DOUBLE, 41, 37)).img("u", random_img(IPT_DOUBLE, 5, 1)).img("v", random_img(IPT_DOUBLE, 1, 4))
        .set("shape", "same");
    add("ipt.conv2", "single 45x45 same").img("A", random_img(IPT_SINGLE, 64, 64)).img("B", random_img(IPT_SINGLE, 45, 45)).set("shape", "same");
    // The fft variant (cuFFT), against the direct CPU reference with the FFT bound.
    add("ipt.conv2", "fft single 45x45 same").pin("fft").img("A", random_img(IPT_SINGLE, 64, 64, 1, -1, 1))
        .img("B", random_img(IPT_SINGLE, 45, 45, 1, -1, 1)).set("shape", "same");
    add("ipt.conv2", "fft double 31x25 full").pin("fft").img("A", random_img(IPT_DOUBLE, 110, 100, 1, -1, 1))
        .img("B", random_img(IPT_DOUBLE, 31, 25, 1, -1, 1));
    add("ipt.conv2", "fft mixed 17x17 valid").pin("fft").img("A", random_img(IPT_SINGLE, 80, 90, 1, -1, 1))
        .img("B", random_img(IPT_DOUBLE, 17, 17, 1, -1, 1)).set("shape", "valid");
    add("ipt.conv2", "fft double 16x19 same").pin("fft").img("A", random_img(IPT_DOUBLE, 63, 65, 1, -1, 1))
        .img("B", random_img(IPT_DOUBLE, 16, 19, 1, -1, 1)).set("shape", "same");
    for (const char* shape : {"full", "same"})
        add("ipt.conv2", std::string("fft kernel larger than A ") + shape).pin("fft").img("A", random_img(IPT_SINGLE, 20, 30, 1, -1, 1))
            .img("B", random_img(IPT_SINGLE, 41, 37, 1, -1, 1)).set("shape", shape);
    add("ipt.conv2", "fft u,v 101x1 1x103 same").pin("fft").img("A", random_img(IPT_DOUBLE, 150, 160, 1, -1, 1))
        .img("u", random_img(IPT_DOUBLE, 101, 1, 1, -1, 1)).img("v", random_img(IPT_DOUBLE, 1, 103, 1, -1, 1)).set("shape", "same");
    add("ipt.conv2", "fft u,v single/double full").pin("fft").img("A", random_img(IPT_SINGLE, 40, 50, 1, -1, 1))
        .img("u", random_img(IPT_SINGLE, 1, 211, 1, -1, 1)).img("v", random_img(IPT_DOUBLE, 197, 1, 1, -1, 1));
    add("ipt.conv2", "fft one row 1x300 * 1x200").pin("fft").img("A", random_img(IPT_DOUBLE, 1, 300, 1, -1, 1))
        .img("B", random_img(IPT_DOUBLE, 1, 200, 1, -1, 1));
    add("ipt.conv2", "fft one column 300x1 * 200x1 same").pin("fft").img("A", random_img(IPT_SINGLE, 300, 1, 1, -1, 1))
        .img("B", random_img(IPT_SINGLE, 200, 1, 1, -1, 1)).set("shape", "same");
    // ... and what it must decline (the registry then runs the direct variant).
    add("ipt.conv2", "fft declines 7x7").pin("fft").declines("crossover").img("A", random_img(IPT_SINGLE, 70, 93))
        .img("B", random_img(IPT_SINGLE, 7, 7)).set("shape", "same");
    add("ipt.conv2", "fft declines valid empty").pin("fft").declines("empty").img("A", random_img(IPT_DOUBLE, 10, 10))
        .img("B", random_img(IPT_DOUBLE, 17, 17)).set("shape", "valid");
    add("ipt.conv2", "fft declines NaN in A").pin("fft").declines("NaN")
        .img("A", with_value(random_img(IPT_DOUBLE, 64, 64, 1, -1, 1), 1000, NAN)).img("B", random_img(IPT_DOUBLE, 15, 15));
    add("ipt.conv2", "fft declines Inf in u").pin("fft").declines("NaN").img("A", random_img(IPT_SINGLE, 64, 64, 1, -1, 1))
        .img("u", with_value(random_img(IPT_SINGLE, 150, 1), 3, INFINITY)).img("v", random_img(IPT_SINGLE, 1, 60));
    add("ipt.conv2", "fft declines 1e300 in B").pin("fft").declines("2^448").img("A", random_img(IPT_DOUBLE, 64, 64, 1, -1, 1))
        .img("B", with_value(random_img(IPT_DOUBLE, 13, 13), 0, 1e300));
    // imfilter
    for (const char* bnd : {"constant", "symmetric", "replicate", "circular"})
        add("ipt.imfilter", std::string("uint8 5x5 ") + bnd).img("A", random_img(IPT_UINT8, 37, 41)).img("h", random_img(IPT_DOUBLE, 5, 5, 1, -0.3, 0.5))
            .set("boundary", bnd).set("X", "7");
    add("ipt.imfilter", "uint8 avg 4x4 conv full").img("A", random_img(IPT_UINT8, 20, 22, 3)).img("h", doubles(2, 2, {0.25, 0.25, 0.25, 0.25}))
        .set("mode", "conv").set("output", "full");
    add("ipt.imfilter", "int16 2x4").img("A", random_img(IPT_INT16, 30, 30)).img("h", random_img(IPT_DOUBLE, 2, 4, 1, -1, 1));
    add("ipt.imfilter", "single replicate").img("A", random_img(IPT_SINGLE, 30, 31)).img("h", random_img(IPT_SINGLE, 3, 3)).set("boundary", "replicate");
    add("ipt.imfilter", "logical").img("A", random_img(IPT_LOGICAL, 25, 26)).img("h", doubles(1, 3, {1, -1, 0.5}));
    add("ipt.imfilter", "double 3x3 on 1x1").img("A", random_img(IPT_DOUBLE, 1, 1)).img("h", random_img(IPT_DOUBLE, 3, 3)).set("boundary", "symmetric");
    // morphology
    for (const char* op : {"ipt.imdilate", "ipt.imerode"}) {
        add(op, "uint8 square 5").img("A", random_img(IPT_UINT8, 45, 67)).img("nhood", logical_img(5, 5, std::vector<int>(25, 1)));
        add(op, "uint8 line 1x8").img("A", random_img(IPT_UINT8, 45, 67)).img("nhood", logical_img(1, 8, std::vector<int>(8, 1)));
        add(op, "double 4x1").img("A", random_img(IPT_DOUBLE, 45, 67)).img("nhood", logical_img(4, 1, std::vector<int>(4, 1)));
        add(op, "logical diamond").img("A", random_img(IPT_LOGICAL, 40, 41, 1, 0, -1, 0.1))
            .img("nhood", logical_img(5, 5, {0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 0}));
        add(op, "int16 arbitrary 4x3").img("A", random_img(IPT_INT16, 30, 29)).img("nhood", logical_img(4, 3, {1, 0, 1, 0, 1, 1, 1, 0, 0, 0, 1, 1}));
        add(op, "uint8 nonflat").img("A", random_img(IPT_UINT8, 30, 29)).img("nhood", logical_img(3, 3, std::vector<int>(9, 1)))
            .img("heights", doubles(3, 3, {1, 2, 3, 4, 5, 6, 7, 8, 30}));
    }
    // order filters
    add("ipt.ordfilt2", "uint8 3x3 order 5").img("A", random_img(IPT_UINT8, 40, 43)).set("order", "5").img("domain", logical_img(3, 3, std::vector<int>(9, 1)));
    add("ipt.ordfilt2", "double 2x3 order 2 symmetric").img("A", random_img(IPT_DOUBLE, 40, 43, 1, -1, 1)).set("order", "2")
        .img("domain", logical_img(2, 3, {1, 1, 0, 1, 0, 1})).set("padopt", "symmetric");
    add("ipt.ordfilt2", "int16 with S").img("A", random_img(IPT_INT16, 20, 21)).set("order", "3").img("domain", logical_img(2, 2, {1, 1, 1, 1}))
        .img("S", doubles(2, 2, {0.5, -1, 2, 0}));
    add("ipt.ordfilt2", "single 4x4 max").img("A", random_img(IPT_SINGLE, 33, 34)).set("order", "16").img("domain", logical_img(4, 4, std::vector<int>(16, 1)));
    add("ipt.medfilt2", "uint8 3x3").img("A", random_img(IPT_UINT8, 51, 52));
    add("ipt.medfilt2", "uint8 4x4 even").img("A", random_img(IPT_UINT8, 51, 52)).set("size", "[4 4]");
    add("ipt.medfilt2", "int16 2x2 even").img("A", random_img(IPT_INT16, 31, 32)).set("size", "[2 2]");
    add("ipt.medfilt2", "uint16 5x5 symmetric").img("A", random_img(IPT_UINT16, 41, 42)).set("size", "[5 5]").set("padopt", "symmetric");
    add("ipt.medfilt2", "double 3x5 indexed").img("A", random_img(IPT_DOUBLE, 41, 42)).set("size", "[3 5]").set("padopt", "indexed");
    add("ipt.medfilt2", "logical 3x3").img("A", random_img(IPT_LOGICAL, 20, 20));
    // bwdist
    for (const char* m : {"euclidean", "cityblock", "chessboard", "quasi-euclidean"}) {
        add("ipt.bwdist", std::string("dense ") + m).img("BW", random_img(IPT_LOGICAL, 47, 53, 1, 0, -1, 0.3)).set("method", m);
        add("ipt.bwdist", std::string("sparse ") + m).img("BW", random_img(IPT_LOGICAL, 64, 61, 1, 0, -1, 0.002)).set("method", m);
    }
    add("ipt.bwdist", "all zero").img("BW", random_img(IPT_LOGICAL, 9, 7, 1, 0, -1, 0.0));
    add("ipt.bwdist", "MATLAB doc 5x5").img("BW", logical_img(5, 5, {0,0,0,0,0, 0,1,0,0,0, 0,0,0,0,0, 0,0,0,1,0, 0,0,0,0,0}));
    // imregionalmax
    add("ipt.imregionalmax", "uint8 plateaus conn8").img("I", random_img(IPT_UINT8, 50, 51, 1, 0, 3));
    add("ipt.imregionalmax", "uint8 plateaus conn4").img("I", random_img(IPT_UINT8, 50, 51, 1, 0, 3)).set("conn", "4");
    add("ipt.imregionalmax", "double").img("I", random_img(IPT_DOUBLE, 40, 40));
    add("ipt.imregionalmax", "constant").img("I", random_img(IPT_UINT8, 10, 10, 1, 5, 5));
    // radon
    add("ipt.radon", "double 64x48 0:179").img("I", random_img(IPT_DOUBLE, 64, 48));
    add("ipt.radon", "uint8 31x40 odd angles").img("I", random_img(IPT_UINT8, 31, 40)).set("theta", "[-30 0 45 90 135.5 200 33.3]");
    add("ipt.radon", "ones 2x2 30").img("I", doubles(2, 2, {1, 1, 1, 1})).set("theta", "30");
    // edge
    for (const char* m : {"sobel", "prewitt", "roberts", "log", "canny"}) {
        add("ipt.edge", std::string("uint8 ") + m).img("I", random_img(IPT_UINT8, 60, 70)).set("method", m);
        add("ipt.edge", std::string("double ") + m).img("I", random_img(IPT_DOUBLE, 55, 49)).set("method", m);
    }
    add("ipt.edge", "sobel nothinning vertical thr").img("I", random_img(IPT_DOUBLE, 40, 40)).set("method", "sobel").set("thinning", "nothinning")
        .set("direction", "vertical").set("threshold", "0.1");
    add("ipt.edge", "zerocross").img("I", random_img(IPT_DOUBLE, 40, 40)).set("method", "zerocross").img("h", random_img(IPT_DOUBLE, 5, 5, 1, -1, 1));
    // dither
    add("ipt.dither", "uint8 gray").img("I", random_img(IPT_UINT8, 70, 90));
    add("ipt.dither", "double gray").img("I", random_img(IPT_DOUBLE, 33, 35));
    add("ipt.dither", "rgb map 5").img("I", random_img(IPT_UINT8, 40, 50, 3))
        .img("map", doubles(5, 3, {0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0.2, 0.3, 0.9}));
    return v;
}

std::vector<Case> bench_cases() {
    std::vector<Case> v;
    auto add = [&](const std::string& op, const std::string& label, const std::string& peer = "") -> Case& {
        Case c;
        c.op = op;
        c.label = label;
        v.push_back(c);
        v.back().check = false;
        v.back().bench = true;
        v.back().peer = peer;
        return v.back();
    };
    const int64_t n = 2048, big = 8192;
    add("ipt.intlut", "uint8 2048^2", "lut_u8").img("A", random_img(IPT_UINT8, n, n)).img("LUT", random_img(IPT_UINT8, 1, 256));
    add("ipt.intlut", "uint8 8192^2").img("A", random_img(IPT_UINT8, big, big)).img("LUT", random_img(IPT_UINT8, 1, 256));
    add("ipt.imlincomb", "uint8 2 images 8192^2").set("K", "[0.5 0.5 3]").img("A1", random_img(IPT_UINT8, big, big)).img("A2", random_img(IPT_UINT8, big, big));
    add("ipt.mean2", "uint8 2048^2", "mean_u8").img("A", random_img(IPT_UINT8, n, n));
    add("ipt.mean2", "uint8 8192^2").img("A", random_img(IPT_UINT8, big, big));
    add("ipt.imadjust", "uint8 8192^2 limits").img("I", random_img(IPT_UINT8, big, big)).set("low_high_in", "[0.2 0.8]");
    add("ipt.conv2", "single 7x7 same 2048^2", "filter7_32f").img("A", random_img(IPT_SINGLE, n, n)).img("B", random_img(IPT_SINGLE, 7, 7)).set("shape", "same");
    // Each size through the direct engine and through cuFFT (the registry picks
    // between them by measurement; these rows show where they cross).
    for (auto [dtype, k] : {std::pair{IPT_SINGLE, 15}, {IPT_SINGLE, 21}, {IPT_SINGLE, 31}, {IPT_DOUBLE, 21}}) {
        const std::string label = std::string(dtype_name(dtype)) + " " + std::to_string(k) + "x" + std::to_string(k) + " same 2048^2";
        const Img a = random_img(dtype, n, n), b = random_img(dtype, k, k);
        add("ipt.conv2", label).img("A", a).img("B", b).set("shape", "same");
        add("ipt.conv2", label + " (fft)").pin("fft").img("A", a).img("B", b).set("shape", "same");
    }
    add("ipt.imfilter", "uint8 prewitt 2048^2", "prewitt_u8").img("A", random_img(IPT_UINT8, n, n)).img("h", doubles(3, 3, {1, 1, 1, 0, 0, 0, -1, -1, -1}))
        .set("boundary", "replicate");
    for (int k : {3, 5, 7, 15})
        add("ipt.medfilt2", "uint8 " + std::to_string(k) + "x" + std::to_string(k) + " 2048^2", "median_u8_" + std::to_string(k))
            .img("A", random_img(IPT_UINT8, n, n)).set("size", "[" + std::to_string(k) + " " + std::to_string(k) + "]");
    add("ipt.imdilate", "uint8 square 15 2048^2", "max_u8_15").img("A", random_img(IPT_UINT8, n, n)).img("nhood", logical_img(15, 15, std::vector<int>(225, 1)));
    {
        std::vector<int> disk(13 * 13);
        for (int i = 0; i < 13; ++i)
            for (int j = 0; j < 13; ++j) disk[i * 13 + j] = (i - 6) * (i - 6) + (j - 6) * (j - 6) <= 49;
        add("ipt.imdilate", "uint8 disk r=7 (13x13 mask) 2048^2").img("A", random_img(IPT_UINT8, n, n)).img("nhood", logical_img(13, 13, disk));
    }
    add("ipt.bwdist", "euclidean 50% 2048^2", "pba_u8").img("BW", random_img(IPT_LOGICAL, n, n, 1, 0, -1, 0.5));
    add("ipt.bwdist", "euclidean sparse 2048^2", "pba_u8").img("BW", random_img(IPT_LOGICAL, n, n, 1, 0, -1, 0.0005));
    add("ipt.imregionalmax", "uint8 2048^2").img("I", random_img(IPT_UINT8, n, n, 1, 0, 15));
    add("ipt.radon", "double 512^2 x 320 angles").img("I", random_img(IPT_DOUBLE, 512, 512)).set("theta", "0:0.5625:179.4375");
    add("ipt.edge", "sobel uint8 2048^2").img("I", random_img(IPT_UINT8, n, n)).set("method", "sobel");
    add("ipt.edge", "canny uint8 2048^2").img("I", random_img(IPT_UINT8, n, n)).set("method", "canny");
    add("ipt.dither", "uint8 2048^2").img("I", random_img(IPT_UINT8, n, n));
    // Geometry, filters and histograms against their NPP counterparts; the
    // peers compute comparable, not identical, results (npp_peers.cpp says
    // where the definitions differ).
    {
        const Img a8 = random_img(IPT_UINT8, n, n), a32 = random_img(IPT_SINGLE, n, n);
        for (auto [method, npp] : {std::pair{"bicubic", "cubic"}, {"bilinear", "linear"}}) {
            add("ipt.imresize", std::string("uint8 2048^2 x0.5 ") + method + " (NPP: no antialiasing)",
                std::string("resize_u8:") + npp + ",0.5").img("A", a8).set("Scale", "0.5").set("method", method);
            add("ipt.imresize", std::string("uint8 2048^2 x2 ") + method, std::string("resize_u8:") + npp + ",2")
                .img("A", a8).set("Scale", "2").set("method", method);
        }
        add("ipt.imresize", "uint8 2048^2 x0.5 box (NPP super sampling)", "resize_u8:super,0.5").img("A", a8)
            .set("Scale", "0.5").set("method", "box");
        add("ipt.imgaussfilt", "uint8 sigma 2 (9x9) 2048^2 (NPP fixed 9x9)", "gauss_u8:9").img("A", a8).set("sigma", "2");
        add("ipt.imgaussfilt", "single sigma 2 (9x9) 2048^2 (NPP fixed 9x9)", "gauss_32f:9").img("A", a32).set("sigma", "2");
        add("ipt.imboxfilt", "uint8 5x5 2048^2", "box_u8:5").img("A", a8).set("filterSize", "5");
        add("ipt.imgradientxy", "single sobel 2048^2", "sobelxy_32f").img("I", a32).set("method", "sobel");
        add("ipt.imgradient", "single sobel Gmag+Gdir 2048^2", "gradient_32f").img("I", a32).set("method", "sobel");
        add("ipt.imhist", "uint8 256 bins 2048^2 (NPP int32 counts)", "hist_u8").img("I", a8);
        add("ipt.integralimage", "uint8 2048^2 (NPP int32 sums)", "integral_u8").img("I", a8);
        add("ipt.padarray", "uint8 2048^2 +64 replicate", "pad_u8:replicate,64").img("A", a8).set("padsize", "[64 64]")
            .set("method", "replicate");
        add("ipt.padarray", "uint8 2048^2 +64 constant 0", "pad_u8:constant,64").img("A", a8).set("padsize", "[64 64]");
        // [513 513 1023 1023] touches pixels 513..1536 of each dimension.
        add("ipt.imcrop", "uint8 1024^2 of 2048^2", "crop_u8:512,512,1024,1024").img("I", a8)
            .set("rect", "[513 513 1023 1023]");
        // Operators that may not be implemented yet: their rows say so and the
        // peer is not run.
        const std::string affine = "1.05,0.28,0,-0.28,1.05,0,12,-7,1";
        const std::string persp = "1,0.1,0.0002,-0.1,1,0.0001,12,-7,1";
        auto matrix = [](std::string t) {
            for (char& ch : t)
                if (ch == ',') ch = ' ';
            return "[" + t + "]";
        };
        add("ipt.imrotate", "uint8 30 deg bilinear loose 2048^2", "rotate_u8:linear,30").img("I", a8).set("angle", "30")
            .set("method", "bilinear");
        add("ipt.imwarp", "uint8 affine linear 2048^2", "warp_affine_u8:linear," + affine).img("A", a8)
            .set("T", matrix(affine)).set("interp", "linear");
        add("ipt.imwarp", "uint8 projective linear 2048^2", "warp_persp_u8:linear," + persp).img("A", a8)
            .set("T", matrix(persp)).set("interp", "linear");
        // A first: the peer's source; the template is A's top-left block.
        {
            Img tpl;
            tpl.dtype = IPT_UINT8;
            tpl.rows = tpl.cols = 64;
            for (int64_t r = 0; r < 64; ++r)
                for (int64_t c = 0; c < 64; ++c) tpl.bytes.push_back(a8.bytes[r * n + c]);
            add("ipt.normxcorr2", "uint8 64x64 in 2048^2 (NPP float)", "xcorr_u8:64").img("A", a8).img("template", tpl);
        }
        add("ipt.adapthisteq", "uint8 8x8 tiles 2048^2 (no NPP peer)").img("I", a8);
    }
    // Class and colour conversions: NPP where it has the function, else the
    // copy bandwidth at 8192^2 is the measure.
    {
        const Img rgb8 = random_img(IPT_UINT8, n, n, 3), big_rgb8 = random_img(IPT_UINT8, big, big, 3);
        add("ipt.rgb2gray", "uint8 RGB 2048^2", "gray_u8").img("RGB", rgb8);
        add("ipt.rgb2hsv", "uint8 RGB 2048^2", "hsv_u8").img("RGB", rgb8);
        add("ipt.rgb2ycbcr", "uint8 RGB 2048^2", "ycbcr_u8").img("RGB", rgb8);
        add("ipt.rgb2gray", "uint8 RGB 8192^2", "gray_u8").img("RGB", big_rgb8);
        add("ipt.rgb2hsv", "uint8 RGB 8192^2").img("RGB", big_rgb8);
        add("ipt.rgb2ycbcr", "uint8 RGB 8192^2", "ycbcr_u8").img("RGB", big_rgb8);
        add("ipt.ycbcr2rgb", "uint8 8192^2x3").img("YCBCR", big_rgb8);
        add("ipt.hsv2rgb", "single 8192^2x3").img("HSV", random_img(IPT_SINGLE, big, big, 3));
        const Img big8 = random_img(IPT_UINT8, big, big), big_double = random_img(IPT_DOUBLE, big, big);
        add("ipt.im2double", "uint8 8192^2").img("I", big8);
        add("ipt.im2single", "uint8 8192^2").img("I", big8);
        add("ipt.im2uint16", "uint8 8192^2").img("I", big8);
        add("ipt.im2uint8", "double 8192^2").img("I", big_double);
        add("ipt.im2int16", "double 8192^2").img("I", big_double);
        add("ipt.imcomplement", "uint8 8192^2").img("I", big8);
        add("ipt.mat2gray", "double 8192^2").img("A", big_double);
        add("ipt.mat2gray", "double 8192^2 limits [0.2 0.8]").img("A", big_double).set("limits", "[0.2 0.8]");
    }
    return v;
}

std::string json_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\';
        if (c == '\n') { o += "\\n"; continue; }
        o += c;
    }
    return o;
}

}  // namespace

int main(int argc, char** argv) {
    std::string lib_dir, json_path, filter, cpu_lib;
    bool checks = true, benches = true;
    int skip_code = 0;  // exit status when there is no CUDA device (ctest: SKIP_RETURN_CODE)
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--lib" && i + 1 < argc) lib_dir = argv[++i];
        else if (a == "--json" && i + 1 < argc) json_path = argv[++i];
        else if (a == "--filter" && i + 1 < argc) filter = argv[++i];
        else if (a == "--cpu-lib" && i + 1 < argc) cpu_lib = argv[++i];
        else if (a == "--checks-only") benches = false;
        else if (a == "--skip-code" && i + 1 < argc) skip_code = std::atoi(argv[++i]);
        else if (a == "--bench-only") checks = false;
    }
    if (lib_dir.empty()) {
        std::string self = argv[0];
        auto slash = self.rfind('/');
        lib_dir = (slash == std::string::npos ? std::string(".") : self.substr(0, slash)) + "/../lib";
    }
    static const ipt_host_table host = make_host_table();
    static Plugin cuda, cpu;
    if (!load_plugin(lib_dir + "/libipt_cuda.so", &host, &cuda)) return 2;
    g_cuda = &cuda;
    const bool have_cpu = load_plugin(cpu_lib.empty() ? lib_dir + "/libipt_cpu.so" : cpu_lib, &host, &cpu);
    if (have_cpu) std::printf("reference: %s\n", cpu.path.c_str());
    std::printf("libipt_cuda: %u device(s)%s%s; %u implementations\n", cuda.table->device_count,
                cuda.table->device_count ? "" : ", note: ", cuda.table->device_note, cuda.table->impl_count);
    if (cuda.table->device_count == 0) {
        std::printf("SKIP: no CUDA device (%s)\n", cuda.table->device_note);
        return skip_code;
    }
    const ipt_device_desc& dev = *cuda.table->devices[0];
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    char date[64];
    std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
    std::printf("device: %s (%s), %u SMs, %.1f GiB; CUDA driver API %d, runtime %d; %s\n", dev.name, dev.identity,
                dev.compute_units, dev.memory_bytes / 1073741824.0, driver, runtime, date);
    void* stream_ptr = nullptr;
    cuda.table->native_handle(0, IPT_NATIVE_CUDA_STREAM, nullptr, &stream_ptr);
    cudaStream_t stream = static_cast<cudaStream_t>(stream_ptr);

    std::ostringstream json;
    json << "{\n  \"device\": \"" << json_escape(dev.name) << "\",\n  \"identity\": \"" << json_escape(dev.identity)
         << "\",\n  \"date\": \"" << date << "\",\n  \"npp\": " << (ipt_bench::npp_available() ? "true" : "false") << ",\n";

    // ---- checks ----
    int passed = 0, failed = 0, skipped = 0;
    std::vector<std::string> failures;
    json << "  \"checks\": [\n";
    bool first_json = true;
    if (checks) {
        for (const Case& c : check_cases()) {
            if (!filter.empty() && (c.op + " " + c.label).find(filter) == std::string::npos) continue;
            const ipt_op_schema* schema = find_schema(c.op.c_str());
            const ipt_impl_desc* gi = find_impl(&cuda, c.op.c_str(), c.variant.c_str());
            const ipt_impl_desc* ri = have_cpu ? find_impl(&cpu, c.op.c_str(), "") : nullptr;
            std::string verdict, detail;
            if (!gi) {
                verdict = "SKIP";
                detail = "not implemented by libipt_cuda";
            } else if (!c.expect_decline.empty()) {
                RunResult g = run_once(schema, gi, c, true);
                if (g.status == IPT_ERR_UNSUPPORTED && g.error.find(c.expect_decline) != std::string::npos) {
                    verdict = "PASS";
                    detail = "declined: " + g.error;
                } else if (g.status == IPT_ERR_UNSUPPORTED && g.error.find("could not be loaded") != std::string::npos) {
                    verdict = "SKIP";  // a library the implementation needs is missing here
                    detail = "cuda: " + g.error;
                } else {
                    verdict = "FAIL";
                    detail = g.status == IPT_OK ? "accepted a call it must decline ('" + c.expect_decline + "')"
                                                : "cuda: " + g.error;
                }
            } else if (!ri) {
                verdict = "SKIP";
                detail = "no CPU reference implementation loaded";
            } else {
                RunResult g = run_once(schema, gi, c, true);
                RunResult r = run_once(schema, ri, c, false);
                if (r.status != IPT_OK && g.status != IPT_OK && g.status == r.status) {
                    verdict = "PASS";
                    detail = "both fail alike: " + g.error;
                } else if (g.status != IPT_OK) {
                    verdict = g.status == IPT_ERR_UNSUPPORTED ? "SKIP" : "FAIL";
                    detail = "cuda: " + g.error;
                } else if (r.status != IPT_OK) {
                    verdict = "SKIP";
                    detail = "reference failed: " + r.error;
                } else if (c.op == "ipt.bwdist") {
                    detail = compare_bwdist(c, g, r);
                    verdict = detail.empty() ? "PASS" : "FAIL";
                } else {
                    for (auto& [name, ref] : r.outputs) {
                        if (!g.outputs.count(name)) { detail += name + ": missing; "; continue; }
                        const Arg* in = c.find("I");
                        const double te = (in && in->is_img && in->img.dtype != IPT_DOUBLE) ? eps_of(IPT_SINGLE)
                                                                                           : eps_of(IPT_DOUBLE);
                        const double peak = c.variant == "fft" ? conv2_magnitude_peak(c) : 0;
                        std::string e = compare(schema, name, g.outputs.at(name), ref, te, peak);
                        if (!e.empty()) detail += e + "; ";
                    }
                    verdict = detail.empty() ? "PASS" : "FAIL";
                }
            }
            if (verdict == "PASS") ++passed;
            else if (verdict == "FAIL") { ++failed; failures.push_back(c.op + " [" + c.label + "]: " + detail); }
            else ++skipped;
            std::printf("%-4s %-18s %-34s %s\n", verdict.c_str(), c.op.c_str(), c.label.c_str(), detail.c_str());
            json << (first_json ? "" : ",\n") << "    {\"op\": \"" << c.op << "\", \"case\": \"" << json_escape(c.label)
                 << "\", \"verdict\": \"" << verdict << "\", \"detail\": \"" << json_escape(detail) << "\"}";
            first_json = false;
            std::fflush(stdout);
        }
    }
    json << "\n  ],\n";

    // ---- benchmarks ----
    struct Row {
        std::string op, label;
        double kernel, overall, gbs, ratio;
        double same_bytes_gbs = 0;  // a device-to-device copy moving the row's bytes
        double host_us = 0;         // the call's own time on the host (it returns before the kernel ends)
        ipt_bench::PeerTime peer;
        std::string note;
    };
    std::vector<Row> rows;
    double copy_gbs = 0;
    if (benches) {
        // Device-to-device copy bandwidth: bytes read + written over time.
        const size_t bytes = size_t(1) << 30;
        void *x = nullptr, *y = nullptr;
        cudaMalloc(&x, bytes);
        cudaMalloc(&y, bytes);
        cudaMemsetAsync(x, 1, bytes, stream);
        const double ms = time_events(stream, 2, 10, [&] { return cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice, stream) == cudaSuccess; });
        copy_gbs = 2.0 * bytes / (ms * 1e-3) / 1e9;
        std::printf("device-to-device copy: %.1f GB/s (read + write)\n", copy_gbs);
        // A copy of fewer bytes pays the same fixed cost (the launch, the
        // first loads' latency, the last wave) over less data: the rate a
        // copy reaches when it moves a row's bytes is that row's own bound.
        auto same_bytes_rate = [&](int64_t moved) {
            const size_t half = std::min(static_cast<size_t>(moved / 2), bytes);
            if (half == 0) return 0.0;
            const double t = time_events(stream, 3, 25, [&] {
                return cudaMemcpyAsync(y, x, half, cudaMemcpyDeviceToDevice, stream) == cudaSuccess;
            });
            return t > 0 ? 2.0 * half / (t * 1e-3) / 1e9 : 0.0;
        };
        for (const Case& c : bench_cases()) {
            if (!filter.empty() && (c.op + " " + c.label).find(filter) == std::string::npos) continue;
            const ipt_op_schema* schema = find_schema(c.op.c_str());
            const ipt_impl_desc* gi = find_impl(&cuda, c.op.c_str(), c.variant.c_str());
            Row row{c.op, c.label, -1, -1, 0, 0, 0, 0, {}, ""};
            if (!gi) {
                row.note = "not implemented by libipt_cuda" + std::string(c.peer.empty() ? "" : "; peer not run");
                std::printf("BENCH %-16s %-34s skipped: %s\n", c.op.c_str(), c.label.c_str(), row.note.c_str());
                rows.push_back(row);
                continue;
            }
            auto b = bind(schema, c, true);
            int64_t moved = 0;
            for (auto& a : c.args)
                if (a.is_img) moved += static_cast<int64_t>(a.img.bytes.size());
            ipt_status last = IPT_OK;
            std::string err;
            int64_t out_bytes = 0;
            HostCall hc;  // outputs kept across the timed runs
            hc.cuda = true;
            hc.reuse_outputs = true;
            auto body = [&] {
                ipt_kernel_call kc{};
                kc.struct_size = sizeof kc;
                kc.schema = schema;
                kc.device_id = 1;
                kc.value_count = schema->param_count;
                kc.value_stride = sizeof(ipt_value);
                kc.values = b->values.data();
                kc.host_call = &hc;
                last = gi->run(&kc);
                if (last != IPT_OK) err = g_error;
                out_bytes = 0;
                for (auto& [i, o] : hc.outputs) out_bytes += o->t.rows * o->t.cols * o->t.channels * int64_t(dtype_size(o->t.dtype));
                return last == IPT_OK;
            };
            // The host's time in each call: where it exceeds the kernel's, the
            // device waits on it and the kernel time includes it.
            std::vector<double> host_us;
            row.kernel = time_events(stream, 3, 25, [&] {
                const auto t0 = std::chrono::steady_clock::now();
                const bool ok = body();
                host_us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
                return ok;
            });
            row.host_us = host_us.empty() ? 0 : median(host_us);
            if (row.kernel < 0) {
                row.note = "failed: " + err;
                rows.push_back(row);
                std::printf("BENCH %-16s %-34s failed: %s\n", c.op.c_str(), c.label.c_str(), err.c_str());
                continue;
            }
            moved += out_bytes;
            row.gbs = moved / (row.kernel * 1e-3) / 1e9;
            row.ratio = copy_gbs > 0 ? row.gbs / copy_gbs : 0;
            row.same_bytes_gbs = same_bytes_rate(moved);
            // Overall: upload inputs, run, download outputs.
            std::vector<double> overall;
            for (int k = 0; k < 7; ++k) {
                auto t0 = std::chrono::steady_clock::now();
                RunResult r = run_once(schema, gi, c, true);
                auto t1 = std::chrono::steady_clock::now();
                if (r.status == IPT_OK) overall.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            }
            row.overall = median(overall);
            if (!c.peer.empty()) {
                const Arg* src = nullptr;
                for (auto& a : c.args)
                    if (a.is_img) { src = &a; break; }
                void* d = nullptr;
                Img conv = src->img;
                if (conv.dtype == IPT_LOGICAL) conv.dtype = IPT_UINT8;
                if (conv.dtype == IPT_LOGICAL || conv.dtype == IPT_UINT8)
                    for (auto& x : conv.bytes) x = x ? (c.op == "ipt.bwdist" ? 255 : x) : 0;
                cudaMalloc(&d, conv.bytes.size());
                cudaMemcpy(d, conv.bytes.data(), conv.bytes.size(), cudaMemcpyHostToDevice);
                row.peer = ipt_bench::run_npp_peer(c.peer, d, int(conv.rows), int(conv.cols), stream, 3, 25);
                cudaFree(d);
            }
            std::printf("BENCH %-16s %-34s kernel %.4f ms  host %.1f us  overall %.3f ms  %.1f GB/s (%.0f%% of copy, %.0f%% "
                        "of a copy of these bytes)  %s %s\n",
                        c.op.c_str(), c.label.c_str(), row.kernel, row.host_us, row.overall, row.gbs, 100 * row.ratio,
                        row.same_bytes_gbs > 0 ? 100 * row.gbs / row.same_bytes_gbs : 0.0, row.peer.name.c_str(),
                        row.peer.ms > 0 ? (std::to_string(row.peer.ms) + " ms").c_str() : row.peer.note.c_str());
            std::fflush(stdout);
            rows.push_back(row);
        }
        cudaFree(x);
        cudaFree(y);
    }
    json << "  \"copy_GBps\": " << copy_gbs << ",\n  \"bench\": [\n";
    for (size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        json << "    {\"op\": \"" << r.op << "\", \"case\": \"" << json_escape(r.label) << "\", \"kernel_ms\": " << r.kernel
             << ", \"overall_ms\": " << r.overall << ", \"GBps\": " << r.gbs << ", \"copy_ratio\": " << r.ratio
             << ", \"same_bytes_copy_GBps\": " << r.same_bytes_gbs << ", \"host_us\": " << r.host_us
             << ", \"peer\": \"" << json_escape(r.peer.name) << "\", \"peer_ms\": " << r.peer.ms << ", \"note\": \""
             << json_escape(r.note + r.peer.note) << "\"}" << (i + 1 < rows.size() ? ",\n" : "\n");
    }
    json << "  ],\n  \"summary\": {\"passed\": " << passed << ", \"failed\": " << failed << ", \"skipped\": " << skipped << "}\n}\n";
    if (!json_path.empty()) std::ofstream(json_path) << json.str();

    // ---- the table, last ----
    std::printf("\n== libipt_cuda on %s (%s), %s ==\n", dev.name, dev.identity, date);
    if (benches) {
        std::printf("copy bandwidth %.0f GB/s\n", copy_gbs);
        std::printf("%-14s %-36s %10s %10s %8s %6s %10s %8s\n", "op", "case", "kernel ms", "overall", "GB/s", "%copy", "NPP ms",
                    "xNPP");
        for (const Row& r : rows) {
            char peer[32] = "-", speed[32] = "-";
            if (r.peer.ms > 0) {
                std::snprintf(peer, sizeof peer, "%.4f", r.peer.ms);
                if (r.kernel > 0) std::snprintf(speed, sizeof speed, "%.2f", r.peer.ms / r.kernel);
            }
            std::printf("%-14s %-36s %10.4f %10.3f %8.1f %5.0f%% %10s %8s %s\n", r.op.c_str() + 4, r.label.c_str(), r.kernel,
                        r.overall, r.gbs, 100 * r.ratio, peer, speed, r.note.c_str());
        }
    }
    for (const auto& f : failures) std::printf("FAILED %s\n", f.c_str());
    std::printf("checks: %d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed ? 1 : 0;
}
