// SPDX-License-Identifier: Apache-2.0
// ipt.graythresh's front-end: [T, EM] = graythresh(I)
// (docs/matlab-semantics.md#graythresh): Otsu's threshold of
// imhist(im2uint8(I(:)), 256). Every element counts, whatever the number of
// channels (MATLAB flattens I first). A backend counts the 256 bins, each
// value in bin im2uint8(v) (ipt::common::to_uint8_scale, graythresh_bin),
// and finishes with graythresh_result on the host. An empty I gives T = 0,
// EM = 0 without a histogram.
#pragma once

#include <cstdint>

#include "../class_scaling.hpp"
#include "../intensity.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct GraythreshPlan {
    const ipt_tensor* I = nullptr;
    int32_t dtype = 0;
    int64_t plane = 0;  // values per channel
    int64_t channels = 1;
    static constexpr int64_t nbins = 256;
    bool needs_histogram = true;     // false for an empty I: T = EM = 0
    int32_t out_dtype = IPT_DOUBLE;  // T and EM are 1 x 1
};

// The 0-based bin of a value: its im2uint8 value.
template <class T>
inline int64_t graythresh_bin(T v) {
    return ipt::common::to_uint8_scale(v);
}

// T and EM from the 256 counts.
template <class Count>
inline ipt::common::OtsuResult graythresh_result(const GraythreshPlan& plan, const Count* counts) {
    if (!plan.needs_histogram) return {};
    return ipt::common::otsu_threshold(counts, GraythreshPlan::nbins);
}

inline GraythreshPlan plan_graythresh(const ipt::plugin::KernelArgs& args) {
    GraythreshPlan p;
    p.I = args.image("I");
    p.dtype = p.I->dtype;
    p.plane = p.I->rows * p.I->cols;
    p.channels = p.I->channels;
    p.needs_histogram = p.plane > 0;
    return p;
}

}  // namespace ipt::frontend
