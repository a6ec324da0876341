// SPDX-License-Identifier: Apache-2.0
// ipt.imregionalmax's front-end: BW(p) is true when p belongs to a connected
// plateau of equal values (connectivity conn) with no strictly higher pixel
// adjacent to any of its pixels; the image border disqualifies nothing
// (docs/matlab-semantics.md#imregionalmax). NaN pixels are never maxima and
// never disqualify a neighbour (MATLAB documents no NaN rule; this is ours).
#pragma once

#include <cstdint>

#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct ImregionalmaxPlan {
    int32_t dtype = IPT_DOUBLE;  // class of I
    int64_t rows = 0, cols = 0;  // size of I, and of BW (logical, one channel)
    int conn = 8;                // 4 or 8 (the schema allows no other)
};

inline ImregionalmaxPlan plan_imregionalmax(const ipt::plugin::KernelArgs& args) {
    const ipt_tensor* img = args.image("I");
    ImregionalmaxPlan plan;
    plan.dtype = img->dtype;
    plan.rows = img->rows;
    plan.cols = img->cols;
    plan.conn = static_cast<int>(args.integer("conn"));
    return plan;
}

}  // namespace ipt::frontend
