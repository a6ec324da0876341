// SPDX-License-Identifier: Apache-2.0
// The neighbourhood shared by the front-ends of ipt.stdfilt, ipt.rangefilt
// and ipt.entropyfilt (docs/matlab-semantics.md#local-statistics): the
// members of a logical nhood (default true(size) x true(size)) as offsets
// from its centre, floor((size+1)/2) (1-based) in each dimension, in the
// nhood's row-major order. Every plane of an RGB image is filtered alike
// with the one 2-D nhood, as MATLAB does for an M x N x 3 array and a 2-D
// nhood.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct NhoodOffset {
    int64_t dr = 0, dc = 0;  // J(p) reads I(p + (dr, dc))
};

struct LocalNeighbourhood {
    int64_t rows = 0, cols = 0;              // size of nhood
    int64_t origin_row = 0, origin_col = 0;  // 0-based centre
    std::vector<NhoodOffset> members;        // set cells, row-major, relative to the centre
    int64_t extent = 0;                      // max |dr|, |dc| over the members (0 when none)
};

namespace local_statistics_detail {

// nhood (or true(default_size) when absent); odd: refuse an even size.
inline LocalNeighbourhood neighbourhood(const ipt::plugin::KernelArgs& args, const std::string& op,
                                        int64_t default_size, bool odd) {
    const ipt_tensor* nh = args.image("nhood");
    LocalNeighbourhood n;
    n.rows = nh ? nh->rows : default_size;
    n.cols = nh ? nh->cols : default_size;
    if (odd && (n.rows % 2 == 0 || n.cols % 2 == 0))
        ipt::plugin::invalid(op + ": parameter 'nhood' must have an odd number of rows and of columns");
    n.origin_row = (n.rows + 1) / 2 - 1;
    n.origin_col = (n.cols + 1) / 2 - 1;
    const auto* mask = nh ? static_cast<const uint8_t*>(nh->data) : nullptr;
    for (int64_t r = 0; r < n.rows; ++r)
        for (int64_t c = 0; c < n.cols; ++c) {
            if (mask && !mask[r * n.cols + c]) continue;
            const NhoodOffset o{r - n.origin_row, c - n.origin_col};
            n.members.push_back(o);
            n.extent = std::max({n.extent, o.dr < 0 ? -o.dr : o.dr, o.dc < 0 ? -o.dc : o.dc});
        }
    return n;
}

}  // namespace local_statistics_detail

}  // namespace ipt::frontend
