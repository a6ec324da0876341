// SPDX-License-Identifier: Apache-2.0
// ipt.imdilate's front-end, shared with ipt.imerode (ops/imerode.hpp): the
// structuring element given as a neighbourhood and optional heights turned
// into the members every backend reads (docs/matlab-semantics.md#centre and #dilation-reflects).
//
// Both operators are B(p) = op over the members m of A(p + (m.dr, m.dc)) + m.add:
//  - imdilate: op = max over the reflected SE, m = -(b - origin), add = h(b);
//  - imerode:  op = min over the SE as given, m = b - origin, add = -h(b);
// with the origin at floor((size+1)/2) (1-based) in each dimension, so an
// even-sized SE is not symmetric about it. Pixels outside the image hold
// `pad`, the identity of op (-Inf / the class's lowest for dilation, +Inf /
// its highest for erosion, false / true for logical), so they are never
// chosen; NaN pixels are skipped the same way. An SE with no members gives
// `pad` everywhere.
//
// Heights count only where the neighbourhood is set; all zero is a flat SE
// (one selection, exact). A non-flat SE sums in double and converts once to
// the class (rounded half away from zero and saturated for integers).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "../strel.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct MorphMember {
    int64_t dr = 0, dc = 0;  // B(p) reads A(p + (dr, dc))
    double add = 0;          // 0 for a flat SE
    friend bool operator==(const MorphMember&, const MorphMember&) = default;
};

struct MorphologyPlan {
    bool dilate = true;           // op = max (imdilate) or min (imerode)
    int32_t dtype = IPT_DOUBLE;   // class of A, and of B
    int64_t rows = 0, cols = 0;   // size of A, and of B (one channel)
    int64_t origin_row = 0, origin_col = 0;  // of nhood, 0-based
    bool flat = true;
    // Non-flat on a class other than double: the sums (in double) are
    // converted into the class once, rounded half away from zero and
    // saturated for integers, rounded to nearest for single.
    bool round_to_class = false;
    double pad = 0;  // the value of pixels outside the image, in the class
    // Members in the neighbourhood's row-major order (reflected for dilation).
    std::vector<MorphMember> members;
    int64_t dr_min = 0, dr_max = 0, dc_min = 0, dc_max = 0;  // extent of the members (0 when none)
    // The members fill their bounding box (a nonempty all-ones neighbourhood
    // does): a flat SE separable into a row window and a column window.
    bool rectangle = false;
    // Flat only: the members' offsets sorted row-major, and a decomposition of
    // them into factors whose Minkowski sum is the set (row + column for a
    // full rectangle; MATLAB's factors for a neighbourhood that is a decomposed
    // disk, diamond or octagon; else the set itself). Empty when non-flat or
    // when the SE has no members.
    std::vector<common::StrelOffset> offsets;
    std::vector<std::vector<common::StrelOffset>> factors;
};

namespace morphology_detail {

// The identity of max (dilate) or min (erode) in the class.
inline double pad_value(int32_t dtype, bool dilate) {
    switch (dtype) {
    case IPT_LOGICAL: return dilate ? 0.0 : 1.0;
    case IPT_UINT8: return dilate ? 0.0 : 255.0;
    case IPT_UINT16: return dilate ? 0.0 : 65535.0;
    case IPT_INT16: return dilate ? -32768.0 : 32767.0;
    case IPT_INT32: return dilate ? -2147483648.0 : 2147483647.0;
    case IPT_UINT32: return dilate ? 0.0 : 4294967295.0;
    default: return dilate ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    }
}

// Factors of a sorted flat offset set (see MorphologyPlan::factors).
inline std::vector<std::vector<common::StrelOffset>> factors_of(const std::vector<common::StrelOffset>& sorted,
                                                                bool rectangle) {
    using common::StrelOffset;
    std::vector<std::vector<StrelOffset>> out;
    if (sorted.empty()) return out;
    int64_t r0 = sorted.front().dr, r1 = sorted.back().dr, c0 = sorted.front().dc, c1 = c0;
    for (const auto& o : sorted) {
        c0 = std::min(c0, o.dc);
        c1 = std::max(c1, o.dc);
    }
    // A one-row or one-column rectangle is a line: one factor.
    if (rectangle && r1 > r0 && c1 > c0) {
        std::vector<StrelOffset> row, col;
        for (int64_t c = c0; c <= c1; ++c) row.push_back({0, c});
        for (int64_t r = r0; r <= r1; ++r) col.push_back({r, 0});
        out.push_back(std::move(row));
        out.push_back(std::move(col));
        return out;
    }
    if (!common::strel_as_line(sorted))
        if (auto known = common::strel_known_decomposition(sorted)) {
            // A factor that is the origin alone changes nothing.
            for (auto& f : *known)
                if (f.size() > 1 || f.front() != StrelOffset{0, 0}) out.push_back(std::move(f));
            if (!out.empty()) return out;
        }
    out.push_back(sorted);
    return out;
}

inline MorphologyPlan plan(const ipt::plugin::KernelArgs& args, bool dilate) {
    const std::string op = dilate ? "ipt.imdilate" : "ipt.imerode";
    const ipt_tensor* a = args.image("A");
    const ipt_tensor* nh = args.image("nhood");
    const ipt_tensor* ht = args.image("heights");
    const auto* mask = static_cast<const uint8_t*>(nh->data);
    const double* heights = ht ? static_cast<const double*>(ht->data) : nullptr;
    const int64_t n = nh->rows * nh->cols;

    MorphologyPlan p;
    p.dilate = dilate;
    p.dtype = a->dtype;
    p.rows = a->rows;
    p.cols = a->cols;
    p.origin_row = (nh->rows + 1) / 2 - 1;
    p.origin_col = (nh->cols + 1) / 2 - 1;
    p.pad = pad_value(a->dtype, dilate);
    for (int64_t i = 0; i < n && heights; ++i) {
        if (!mask[i]) continue;
        if (std::isnan(heights[i])) ipt::plugin::invalid(op + ": parameter 'heights' must not contain NaN");
        if (heights[i] != 0) p.flat = false;
    }
    if (!p.flat && a->dtype == IPT_LOGICAL)
        ipt::plugin::invalid(op + ": parameter 'heights' must be zero for a logical image "
                                  "(binary morphology needs a flat structuring element)");
    p.round_to_class = !p.flat && a->dtype != IPT_DOUBLE;

    for (int64_t r = 0; r < nh->rows; ++r)
        for (int64_t c = 0; c < nh->cols; ++c) {
            const int64_t i = r * nh->cols + c;
            if (!mask[i]) continue;
            const int64_t dr = r - p.origin_row, dc = c - p.origin_col;
            const double h = p.flat ? 0.0 : heights[i];
            p.members.push_back(dilate ? MorphMember{-dr, -dc, h} : MorphMember{dr, dc, -h});
        }
    for (size_t k = 0; k < p.members.size(); ++k) {
        const MorphMember& m = p.members[k];
        p.dr_min = k ? std::min(p.dr_min, m.dr) : m.dr;
        p.dr_max = k ? std::max(p.dr_max, m.dr) : m.dr;
        p.dc_min = k ? std::min(p.dc_min, m.dc) : m.dc;
        p.dc_max = k ? std::max(p.dc_max, m.dc) : m.dc;
    }
    p.rectangle = !p.members.empty() && static_cast<int64_t>(p.members.size()) ==
                                            (p.dr_max - p.dr_min + 1) * (p.dc_max - p.dc_min + 1);
    if (p.flat) {
        for (const MorphMember& m : p.members) p.offsets.push_back({m.dr, m.dc});
        std::sort(p.offsets.begin(), p.offsets.end());
        p.factors = factors_of(p.offsets, p.rectangle);
    }
    return p;
}

}  // namespace morphology_detail

using ImdilatePlan = MorphologyPlan;

inline ImdilatePlan plan_imdilate(const ipt::plugin::KernelArgs& args) { return morphology_detail::plan(args, true); }

}  // namespace ipt::frontend
