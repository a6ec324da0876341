// SPDX-License-Identifier: Apache-2.0
// ipt.otsuthresh's front-end: [T, EM] = otsuthresh(counts)
// (docs/matlab-semantics.md#otsuthresh). counts is a nonempty vector of any
// numeric class, read on the host (IPT_P_HOST); MATLAB requires its values
// to be nonnegative and finite, which the schema cannot express, so planning
// checks them. The whole computation is a few operations per bin: the plan
// holds T and EM (ipt::common::otsu_threshold), and a backend only writes them.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "../intensity.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct OtsuthreshPlan {
    double T = 0, EM = 0;
    int32_t out_dtype = IPT_DOUBLE;  // T and EM are 1 x 1
};

namespace detail {

// The values of a host array of a numeric class, as doubles.
inline std::vector<double> host_values(const ipt_tensor* t) {
    const int64_t n = t->rows * t->cols * t->channels;
    std::vector<double> v(static_cast<size_t>(n));
    auto read = [&](auto tag) {
        using T = decltype(tag);
        const T* p = static_cast<const T*>(t->data);
        for (int64_t i = 0; i < n; ++i) v[i] = static_cast<double>(p[i]);
    };
    switch (t->dtype) {
    case IPT_UINT8: read(uint8_t{}); break;
    case IPT_UINT16: read(uint16_t{}); break;
    case IPT_INT16: read(int16_t{}); break;
    case IPT_INT32: read(int32_t{}); break;
    case IPT_UINT32: read(uint32_t{}); break;
    case IPT_SINGLE: read(float{}); break;
    default: read(double{}); break;
    }
    return v;
}

}  // namespace detail

inline OtsuthreshPlan plan_otsuthresh(const ipt::plugin::KernelArgs& args) {
    const std::vector<double> counts = detail::host_values(args.image("counts"));
    for (double c : counts)
        if (!(c >= 0) || std::isinf(c))
            ipt::plugin::invalid("ipt.otsuthresh: parameter 'counts' must be nonnegative and finite");
    const ipt::common::OtsuResult r =
        ipt::common::otsu_threshold(counts.data(), static_cast<int64_t>(counts.size()));
    OtsuthreshPlan p;
    p.T = r.T;
    p.EM = r.EM;
    return p;
}

}  // namespace ipt::frontend
