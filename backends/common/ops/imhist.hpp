// SPDX-License-Identifier: Apache-2.0
// ipt.imhist's front-end: [counts, binLocations] = imhist(I, n)
// (docs/matlab-semantics.md#imhist). n bins, 256 by default and 2 for
// logical I (the only count MATLAB allows for logical); counts and
// binLocations are n x 1 double. Every element of I is counted, whatever its
// number of channels (MATLAB's imhist counts N-D arrays whole). Each value's
// bin is ipt::common::histogram_bin; the bin locations are
// linspace over the class's range, built here. The indexed form
// imhist(X, map) is not offered.
#pragma once

#include <cstdint>
#include <vector>

#include "../intensity.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct ImhistPlan {
    const ipt_tensor* I = nullptr;
    int32_t dtype = 0;
    int64_t plane = 0;     // values per channel
    int64_t channels = 1;
    int64_t nbins = 256;
    // counts and binLocations: nbins x 1 double.
    int32_t out_dtype = IPT_DOUBLE;
    int64_t out_rows = 0, out_cols = 1;
    std::vector<double> bin_locations;  // filled by plan_imhist, not by plan_imhist_output
};

// Sizes and classes only (the registry's output check).
inline ImhistPlan plan_imhist_output(const ipt::plugin::KernelArgs& args) {
    ImhistPlan p;
    p.I = args.image("I");
    p.dtype = p.I->dtype;
    p.plane = p.I->rows * p.I->cols;
    p.channels = p.I->channels;
    const bool logical = p.dtype == IPT_LOGICAL;
    p.nbins = args.present("n") ? args.integer("n") : (logical ? 2 : 256);
    if (logical && p.nbins != 2) ipt::plugin::invalid("ipt.imhist: parameter 'n' must be 2 for a logical I");
    p.out_rows = p.nbins;
    return p;
}

inline ImhistPlan plan_imhist(const ipt::plugin::KernelArgs& args) {
    ImhistPlan p = plan_imhist_output(args);
    p.bin_locations.resize(static_cast<size_t>(p.nbins));
    for (int64_t k = 0; k < p.nbins; ++k) p.bin_locations[k] = ipt::common::imhist_bin_location(p.dtype, k, p.nbins);
    return p;
}

}  // namespace ipt::frontend
