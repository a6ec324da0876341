// SPDX-License-Identifier: Apache-2.0
// ipt.rangefilt's rules (MATLAB's rangefilt; docs/matlab-semantics.md#rangefilt):
//
//   J = rangefilt(I, nhood)
//
// MATLAB computes J = imdilate(I, reflected nhood) - imerode(I, nhood), so
// the maximum is taken over nhood as given and the minimum too; for an
// even-sized nhood the two centres differ (imdilate reflects about
// floor((size+1)/2), and the reflected array's centre is not the original's),
// so the maximum's window sits one cell up or left of the minimum's. Pixels
// outside the image never count (morphology's padding with the identity of
// max and min), NaN pixels neither. The plan holds the two windows as
// imdilate and imerode plans (backends/common/ops/imdilate.hpp).
//
// Class: logical gives logical (dilate & ~erode); signed integers give the
// unsigned class of the same width (int16 -> uint16, int32 -> uint32) so
// that every range fits; other classes their own. The difference is taken
// in double and converted once (saturated for integers: an nhood with no
// members gives lowest - highest, i.e. 0; -Inf for floating classes).
#pragma once

#include <algorithm>
#include <cstdint>

#include "../local_statistics.hpp"
#include "imdilate.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct RangefiltPlan {
    int32_t in_dtype = IPT_DOUBLE;
    int32_t out_dtype = IPT_DOUBLE;
    int64_t rows = 0, cols = 0, channels = 1;
    MorphologyPlan max_plan;  // imdilate with the reflected nhood (one plane)
    MorphologyPlan min_plan;  // imerode with nhood (one plane)
};

namespace rangefilt_detail {

inline int32_t range_class(int32_t dtype) {
    switch (dtype) {
    case IPT_INT16: return IPT_UINT16;
    case IPT_INT32: return IPT_UINT32;
    default: return dtype;
    }
}

// A flat morphology plan of the members given (offsets already as B(p)
// reads A(p + d)).
inline MorphologyPlan flat_plan(bool dilate, int32_t dtype, int64_t rows, int64_t cols, int64_t origin_row,
                                int64_t origin_col, const std::vector<MorphMember>& members) {
    MorphologyPlan p;
    p.dilate = dilate;
    p.dtype = dtype;
    p.rows = rows;
    p.cols = cols;
    p.origin_row = origin_row;
    p.origin_col = origin_col;
    p.pad = morphology_detail::pad_value(dtype, dilate);
    p.members = members;
    for (size_t k = 0; k < members.size(); ++k) {
        const MorphMember& m = members[k];
        p.dr_min = k ? std::min(p.dr_min, m.dr) : m.dr;
        p.dr_max = k ? std::max(p.dr_max, m.dr) : m.dr;
        p.dc_min = k ? std::min(p.dc_min, m.dc) : m.dc;
        p.dc_max = k ? std::max(p.dc_max, m.dc) : m.dc;
    }
    p.rectangle = !members.empty() && static_cast<int64_t>(members.size()) ==
                                          (p.dr_max - p.dr_min + 1) * (p.dc_max - p.dc_min + 1);
    for (const MorphMember& m : members) p.offsets.push_back({m.dr, m.dc});
    std::sort(p.offsets.begin(), p.offsets.end());
    p.factors = morphology_detail::factors_of(p.offsets, p.rectangle);
    return p;
}

}  // namespace rangefilt_detail

inline RangefiltPlan plan_rangefilt(const ipt::plugin::KernelArgs& args) {
    const ipt_tensor* in = args.image("I");
    RangefiltPlan p;
    p.in_dtype = in->dtype;
    p.out_dtype = rangefilt_detail::range_class(in->dtype);
    p.rows = in->rows;
    p.cols = in->cols;
    p.channels = in->channels;
    const LocalNeighbourhood n = local_statistics_detail::neighbourhood(args, "ipt.rangefilt", 3, false);
    // imerode(I, nhood): B(p) = min over b of I(p + b - origin).
    std::vector<MorphMember> min_members, max_members;
    for (const NhoodOffset& o : n.members) min_members.push_back({o.dr, o.dc, 0});
    // imdilate(I, reflected nhood): the cell (r, c) of nhood is (R-1-r, C-1-c)
    // of the reflection, which imdilate reads at -((R-1-r) - origin).
    for (const NhoodOffset& o : n.members) {
        const int64_t r = o.dr + n.origin_row, c = o.dc + n.origin_col;
        max_members.push_back({r + n.origin_row + 1 - n.rows, c + n.origin_col + 1 - n.cols, 0});
    }
    p.max_plan = rangefilt_detail::flat_plan(true, in->dtype, p.rows, p.cols, n.origin_row, n.origin_col, max_members);
    p.min_plan = rangefilt_detail::flat_plan(false, in->dtype, p.rows, p.cols, n.origin_row, n.origin_col, min_members);
    return p;
}

}  // namespace ipt::frontend
