// libipt_wrongconv: a plugin that is wrong on purpose. It registers ipt.conv2
// on the host device with a higher priority than the CPU backend, and gets
// every size, class and 'shape' right, but never flips the kernel: it
// computes correlation. The conformance suite must catch it and name ipt.conv2.
#include <algorithm>
#include <cstring>
#include <vector>

#include "ipt/ipt_plugin.hpp"

// Built a second time as "cpu" (tests/plugins/fake_cpu/libipt_cpu.so): a
// plugin on IPT_PLUGIN_PATH that takes the reference's name must not become
// the conformance reference.
#ifndef IPT_WRONGCONV_NAME
#define IPT_WRONGCONV_NAME "wrongconv"
#endif

namespace {

using ipt::plugin::KernelArgs;

double value(const ipt_tensor* t, int64_t i) {
    if (t->dtype == IPT_SINGLE) return static_cast<const float*>(t->data)[i];
    return static_cast<const double*>(t->data)[i];
}

void wrong_conv2(const KernelArgs& args) {
    const ipt_tensor* a = args.image("A");
    const ipt_tensor* b = args.image("B");
    const ipt_tensor* u = args.image("u");
    const ipt_tensor* v = args.image("v");
    if (!b && !(u && v)) ipt::plugin::invalid("ipt.conv2: parameter 'B' (or 'u' and 'v') is required");
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
    int64_t rows = ma + mh - 1, cols = na + nh - 1, r0 = 0, c0 = 0;
    if (args.is("shape", "same")) rows = ma, cols = na, r0 = mh / 2, c0 = nh / 2;
    if (args.is("shape", "valid")) rows = std::max<int64_t>(ma - mh + 1, 0), cols = std::max<int64_t>(na - nh + 1, 0), r0 = mh - 1, c0 = nh - 1;
    const ipt_tensor* c = args.output("C", all_single ? IPT_SINGLE : IPT_DOUBLE, rows, cols);
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t q = 0; q < cols; ++q) {
            const int64_t fr = r + r0, fc = q + c0;
            double s = 0;
            for (int64_t i = 0; i < mh; ++i)
                for (int64_t j = 0; j < nh; ++j) {
                    const int64_t ar = fr - i, ac = fc - j;
                    if (ar < 0 || ar >= ma || ac < 0 || ac >= na) continue;
                    // The mistake: convolution pairs A(fr-i, fc-j) with k(i,j);
                    // this pairs it with the kernel rotated by 180 degrees.
                    s += value(a, ar * na + ac) * k[static_cast<size_t>((mh - 1 - i) * nh + (nh - 1 - j))];
                }
            if (all_single) static_cast<float*>(c->data)[r * cols + q] = static_cast<float>(s);
            else static_cast<double*>(c->data)[r * cols + q] = s;
        }
}

ipt_status run_wrong_conv2(const ipt_kernel_call* call) {
    return ipt::plugin::guarded([&] { wrong_conv2(KernelArgs(call)); });
}

const ipt_impl_desc kConv2 = {sizeof(ipt_impl_desc), "ipt.conv2", "", IPT_KIND_HOST, 1000, run_wrong_conv2, nullptr};
const ipt_impl_desc* const kImpls[] = {&kConv2};

}  // namespace

extern "C" IPT_PLUGIN_EXPORT const ipt_plugin_table* ipt_plugin_entry(const ipt_host_table* host, const char** reason) {
    if (!host || host->header.abi_version != IPT_ABI_VERSION || host->header.struct_size < IPT_HOST_TABLE_MIN_SIZE) {
        if (reason) *reason = "libipt_wrongconv: the host speaks another ABI version";
        return nullptr;
    }
    ipt::plugin::host() = host;
    static const ipt_plugin_table table = [] {
        ipt_plugin_table t{};
        t.header = {sizeof(ipt_plugin_table), IPT_ABI_VERSION, IPT_API_VERSION};
        t.name = IPT_WRONGCONV_NAME;
        t.vendor = "OpenIPT tests";
        t.version = "1.0";
        t.device_note = "";
        t.impl_count = 1;
        t.impls = kImpls;
        return t;
    }();
    return &table;
}
