// SPDX-License-Identifier: Apache-2.0
// ipt.stdfilt's rules (MATLAB's stdfilt; docs/matlab-semantics.md#stdfilt):
//
//   J = stdfilt(I, nhood)
//
// With n the number of set cells of nhood (default true(3), odd in each
// dimension) and the image padded symmetrically (mirror including the edge
// pixel), MATLAB computes (in single for a single I; OpenIPT in double, then
// converts)
//   J = sqrt(max(S2/(n-1) - S1.^2/(n*(n-1)), 0)),
// S1 and S2 the sums of I and of I.^2 over the neighbourhood (two
// correlations). That is the sample standard deviation (n-1 normalisation)
// of each neighbourhood. n = 1 gives 0 (one sample has no spread). J is
// single for a single I and double for every other class; logical counts as
// 0/1. Each plane of an RGB image alike.
#pragma once

#include <cstdint>

#include "../local_statistics.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct StdfiltPlan {
    int32_t in_dtype = IPT_DOUBLE;
    int32_t out_dtype = IPT_DOUBLE;  // single for single, else double
    int64_t rows = 0, cols = 0, channels = 1;
    LocalNeighbourhood nhood;
    int64_t count = 0;  // n, the number of members
    bool zero = false;  // n <= 1: J is all zeros
};

inline StdfiltPlan plan_stdfilt(const ipt::plugin::KernelArgs& args) {
    const ipt_tensor* in = args.image("I");
    StdfiltPlan p;
    p.in_dtype = in->dtype;
    p.out_dtype = in->dtype == IPT_SINGLE ? IPT_SINGLE : IPT_DOUBLE;
    p.rows = in->rows;
    p.cols = in->cols;
    p.channels = in->channels;
    p.nhood = local_statistics_detail::neighbourhood(args, "ipt.stdfilt", 3, true);
    p.count = static_cast<int64_t>(p.nhood.members.size());
    p.zero = p.count <= 1;
    return p;
}

}  // namespace ipt::frontend
