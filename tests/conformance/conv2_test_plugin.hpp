// SPDX-License-Identifier: Apache-2.0
// The pieces the conformance tests' conv2 plugins share: a brute-force
// ipt.conv2 on the host (double sums, output single only when every operand
// is single) and a plugin table that registers it with a priority above the
// CPU backend's.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ipt/ipt_plugin.hpp"

namespace conv2_test_plugin {

using ipt::plugin::KernelArgs;

inline double value(const ipt_tensor* t, int64_t i) {
    if (t->dtype == IPT_SINGLE) return static_cast<const float*>(t->data)[i];
    return static_cast<const double*>(t->data)[i];
}

// C = conv2(A, B, shape) or conv2(u, v, A, shape) by its definition. With
// `rotated`, A(fr-i, fc-j) is paired with the kernel rotated by 180 degrees:
// correlation, wrong on purpose. `before(args)` runs first (a fault, a
// decline).
template <class Before>
void brute_conv2(const KernelArgs& args, bool rotated, Before before) {
    const ipt_tensor* a = args.image("A");
    const ipt_tensor* b = args.image("B");
    const ipt_tensor* u = args.image("u");
    const ipt_tensor* v = args.image("v");
    if (!b && !(u && v)) ipt::plugin::invalid("ipt.conv2: parameter 'B' (or 'u' and 'v') is required");
    before(args);
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
    if (args.is("shape", "valid"))
        rows = std::max<int64_t>(ma - mh + 1, 0), cols = std::max<int64_t>(na - nh + 1, 0), r0 = mh - 1, c0 = nh - 1;
    const ipt_tensor* c = args.output("C", all_single ? IPT_SINGLE : IPT_DOUBLE, rows, cols);
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t q = 0; q < cols; ++q) {
            // Only the taps over A: A(fr - i, fc - j) inside the image.
            const int64_t fr = r + r0, fc = q + c0;
            double s = 0;
            for (int64_t i = std::max<int64_t>(0, fr - ma + 1); i <= std::min(mh - 1, fr); ++i)
                for (int64_t j = std::max<int64_t>(0, fc - na + 1); j <= std::min(nh - 1, fc); ++j) {
                    const int64_t ki = rotated ? (mh - 1 - i) * nh + (nh - 1 - j) : i * nh + j;
                    s += value(a, (fr - i) * na + (fc - j)) * k[static_cast<size_t>(ki)];
                }
            if (all_single) static_cast<float*>(c->data)[r * cols + q] = static_cast<float>(s);
            else static_cast<double*>(c->data)[r * cols + q] = s;
        }
}

// The entry of a plugin named `name` whose one implementation is `run`
// (ipt.conv2 on the host, priority 1000).
template <ipt_status (*Run)(const ipt_kernel_call*)>
const ipt_plugin_table* plugin_entry(const ipt_host_table* host, const char** reason, const char* name) {
    if (!host || host->header.abi_version != IPT_ABI_VERSION || host->header.struct_size < IPT_HOST_TABLE_MIN_SIZE) {
        if (reason) *reason = "conv2 test plugin: the host speaks another ABI version";
        return nullptr;
    }
    ipt::plugin::host() = host;
    static const ipt_impl_desc conv2 = {sizeof(ipt_impl_desc), "ipt.conv2", "", IPT_KIND_HOST, 1000, Run, nullptr};
    static const ipt_impl_desc* const impls[] = {&conv2};
    static ipt_plugin_table table = [] {
        ipt_plugin_table t{};
        t.header = {sizeof(ipt_plugin_table), IPT_ABI_VERSION, IPT_API_VERSION};
        t.vendor = "OpenIPT tests";
        t.version = "1.0";
        t.device_note = "";
        t.impl_count = 1;
        t.impls = impls;
        return t;
    }();
    table.name = name;
    return &table;
}

}  // namespace conv2_test_plugin
