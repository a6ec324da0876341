// SPDX-License-Identifier: Apache-2.0
// ipt.imbinarize's front-end: BW = imbinarize(I), imbinarize(I, 'global'),
// imbinarize(I, 'adaptive', ...) and imbinarize(I, T)
// (docs/matlab-semantics.md#imbinarize). T is on the
// [0,1] scale; an element is true when I > lo + (hi - lo) * T, [lo, hi]
// being the range of I's class ([0, 1] for single and double), so that the
// level of every class is one formula. 'global' takes T from graythresh
// (256 bins of im2uint8 values, Otsu's arithmetic on the host), 'adaptive'
// from adaptthresh(I, Sensitivity, 'ForegroundPolarity', p) with its default
// neighbourhood (ops/adaptthresh.hpp); a given T is a scalar or a matrix of
// I's size, single or double. Every backend forms
// the level in double in this order with no fused multiply-add, so the
// logical output is the same bit for bit everywhere.
#pragma once

#include <cstdint>
#include <string>

#include "adaptthresh.hpp"
#include "graythresh.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct ImbinarizePlan {
    const ipt_tensor* I = nullptr;
    const ipt_tensor* T = nullptr;  // the given threshold, or null for 'global'
    int32_t dtype = 0;
    int64_t rows = 0, cols = 0, numel = 0;
    bool t_scalar = true;           // a given T of one element
    int32_t t_dtype = IPT_DOUBLE;   // of a given T
    double lo = 0, span = 1;        // the class range's start and hi - lo
    GraythreshPlan global;          // 'global': the histogram of I
    bool adaptive = false;          // T from adaptthresh (local, double, I's size)
    AdaptthreshPlan local;
};

inline void imbinarize_class_range(int32_t dtype, double& lo, double& span) {
    switch (dtype) {
    case IPT_UINT8: lo = 0; span = 255; break;
    case IPT_UINT16: lo = 0; span = 65535; break;
    case IPT_UINT32: lo = 0; span = 4294967295.0; break;
    case IPT_INT16: lo = -32768; span = 65535; break;
    case IPT_INT32: lo = -2147483648.0; span = 4294967295.0; break;
    default: lo = 0; span = 1; break;
    }
}

// The level of a threshold t on the [0,1] scale, on I's class scale.
IPT_SCALING_FN double imbinarize_level(double lo, double span, double t) {
    const double scaled = ipt::common::product_rn(span, t);
    return lo + scaled;
}

inline ImbinarizePlan plan_imbinarize(const ipt::plugin::KernelArgs& args) {
    ImbinarizePlan p;
    p.I = args.image("I");
    p.dtype = p.I->dtype;
    if (p.I->channels != 1) ipt::plugin::invalid("ipt.imbinarize: parameter 'I' must be a 2-D grayscale image");
    p.rows = p.I->rows;
    p.cols = p.I->cols;
    p.numel = p.rows * p.cols;
    imbinarize_class_range(p.dtype, p.lo, p.span);
    // Defaults reach the plan as values (method 'global'); Sensitivity and
    // ForegroundPolarity only matter to 'adaptive'.
    const bool adaptive = args.is("method", "adaptive");
    if (args.present("T")) {
        if (adaptive)
            ipt::plugin::invalid("ipt.imbinarize: give either parameter 'T' or method 'adaptive', not both");
        p.T = args.image("T");
        p.t_dtype = p.T->dtype;
        if (p.t_dtype != IPT_DOUBLE && p.t_dtype != IPT_SINGLE)
            ipt::plugin::invalid("ipt.imbinarize: parameter 'T' must be single or double");
        const int64_t tn = p.T->rows * p.T->cols * p.T->channels;
        p.t_scalar = tn == 1;
        if (!p.t_scalar && (p.T->rows != p.rows || p.T->cols != p.cols || p.T->channels != 1))
            ipt::plugin::invalid("ipt.imbinarize: parameter 'T' must be a scalar or the size of I (" +
                                 std::to_string(p.rows) + "x" + std::to_string(p.cols) + ")");
        return p;
    }
    if (adaptive) {
        p.adaptive = true;
        p.local = plan_adaptthresh_for("ipt.imbinarize", p.I, args.number("Sensitivity"),
                                       args.is("ForegroundPolarity", "bright"), 0, 0);
        return p;
    }
    if (p.dtype == IPT_UINT32 || p.dtype == IPT_INT32)
        ipt::plugin::unsupported("ipt.imbinarize: method 'global' does not handle 32-bit integer images");
    p.global.I = p.I;
    p.global.dtype = p.dtype;
    p.global.plane = p.numel;
    p.global.channels = 1;
    p.global.needs_histogram = p.numel > 0;
    return p;
}

// 'global': the level from graythresh's 256 counts.
template <class Count>
inline double imbinarize_global_level(const ImbinarizePlan& p, const Count* counts) {
    return imbinarize_level(p.lo, p.span, graythresh_result(p.global, counts).T);
}

}  // namespace ipt::frontend
