// libipt_crashconv / libipt_hangconv: plugins whose ipt.conv2 is right
// (brute force) except in a few cases, where it crashes the process or never
// returns. `ipt conformance --plugin` must report those cases as failures,
// name them, and go on with the cases after them.
//
//   IPT_FAULT_CRASH: A double 1x1 writes through a null pointer (SIGSEGV),
//                    A single 41x1 calls abort() (SIGABRT).
//   IPT_FAULT_HANG:  A double 1x37 sleeps forever.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <thread>
#include <vector>

#include "ipt/ipt_plugin.hpp"

namespace {

using ipt::plugin::KernelArgs;

double value(const ipt_tensor* t, int64_t i) {
    if (t->dtype == IPT_SINGLE) return static_cast<const float*>(t->data)[i];
    return static_cast<const double*>(t->data)[i];
}

void misbehave(const ipt_tensor* a) {
#if defined(IPT_FAULT_CRASH)
    if (a->dtype == IPT_DOUBLE && a->rows == 1 && a->cols == 1) {
        volatile int* nowhere = nullptr;
        *nowhere = 1;
    }
    if (a->dtype == IPT_SINGLE && a->rows == 41 && a->cols == 1) std::abort();
#elif defined(IPT_FAULT_HANG)
    if (a->dtype == IPT_DOUBLE && a->rows == 1 && a->cols == 37)
        for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
#else
#error "define IPT_FAULT_CRASH or IPT_FAULT_HANG"
#endif
}

void conv2(const KernelArgs& args) {
    const ipt_tensor* a = args.image("A");
    const ipt_tensor* b = args.image("B");
    const ipt_tensor* u = args.image("u");
    const ipt_tensor* v = args.image("v");
    if (!b && !(u && v)) ipt::plugin::invalid("ipt.conv2: parameter 'B' (or 'u' and 'v') is required");
    misbehave(a);
    int64_t mh, nh;
    std::vector<double> k;
    bool all_single = a->dtype == IPT_SINGLE;
    if (b) {
        mh = b->rows, nh = b->cols;
        k.resize(static_cast<size_t>(mh * nh));
        for (int64_t i = 0; i < mh * nh; ++i) k[static_cast<size_t>(i)] = value(b, i);
        all_single = all_single && b->dtype == IPT_SINGLE;
    } else {
        mh = u->rows * u->cols, nh = v->rows * v->cols;
        k.resize(static_cast<size_t>(mh * nh));
        for (int64_t i = 0; i < mh; ++i)
            for (int64_t j = 0; j < nh; ++j) k[static_cast<size_t>(i * nh + j)] = value(u, i) * value(v, j);
        all_single = all_single && u->dtype == IPT_SINGLE && v->dtype == IPT_SINGLE;
    }
    const int64_t ma = a->rows, na = a->cols;
    // Outside what this brute force gets right (empty operands' sizes,
    // overflow orders): declined, so only the faults above fail.
    if (ma * na == 0 || mh * nh == 0) ipt::plugin::unsupported("faulty test plugin: empty operands");
    for (int64_t i = 0; i < ma * na; ++i)
        if (std::abs(value(a, i)) > 1e30) ipt::plugin::unsupported("faulty test plugin: huge values");
    int64_t rows = ma + mh - 1, cols = na + nh - 1, r0 = 0, c0 = 0;
    if (args.is("shape", "same")) rows = ma, cols = na, r0 = mh / 2, c0 = nh / 2;
    if (args.is("shape", "valid")) rows = std::max<int64_t>(ma - mh + 1, 0), cols = std::max<int64_t>(na - nh + 1, 0), r0 = mh - 1, c0 = nh - 1;
    const ipt_tensor* c = args.output("C", all_single ? IPT_SINGLE : IPT_DOUBLE, rows, cols);
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t q = 0; q < cols; ++q) {
            // Only the taps over A: A(r + r0 - i, q + c0 - j) inside the image.
            const int64_t fr = r + r0, fc = q + c0;
            double s = 0;
            for (int64_t i = std::max<int64_t>(0, fr - ma + 1); i <= std::min(mh - 1, fr); ++i)
                for (int64_t j = std::max<int64_t>(0, fc - na + 1); j <= std::min(nh - 1, fc); ++j)
                    s += value(a, (fr - i) * na + (fc - j)) * k[static_cast<size_t>(i * nh + j)];
            if (all_single) static_cast<float*>(c->data)[r * cols + q] = static_cast<float>(s);
            else static_cast<double*>(c->data)[r * cols + q] = s;
        }
}

ipt_status run_conv2(const ipt_kernel_call* call) {
    return ipt::plugin::guarded([&] { conv2(KernelArgs(call)); });
}

const ipt_impl_desc kConv2 = {sizeof(ipt_impl_desc), "ipt.conv2", "", IPT_KIND_HOST, 1000, run_conv2, nullptr};
const ipt_impl_desc* const kImpls[] = {&kConv2};

}  // namespace

extern "C" IPT_PLUGIN_EXPORT const ipt_plugin_table* ipt_plugin_entry(const ipt_host_table* host, const char** reason) {
    if (!host || host->header.abi_version != IPT_ABI_VERSION || host->header.struct_size < IPT_HOST_TABLE_MIN_SIZE) {
        if (reason) *reason = "faulty test plugin: the host speaks another ABI version";
        return nullptr;
    }
    ipt::plugin::host() = host;
    static const ipt_plugin_table table = [] {
        ipt_plugin_table t{};
        t.header = {sizeof(ipt_plugin_table), IPT_ABI_VERSION, IPT_API_VERSION};
#if defined(IPT_FAULT_CRASH)
        t.name = "crashconv";
#else
        t.name = "hangconv";
#endif
        t.vendor = "OpenIPT tests";
        t.version = "1.0";
        t.device_note = "";
        t.impl_count = 1;
        t.impls = kImpls;
        return t;
    }();
    return &table;
}
