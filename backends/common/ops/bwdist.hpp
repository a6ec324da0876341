// SPDX-License-Identifier: Apache-2.0
// ipt.bwdist's front-end: [D, IDX] = bwdist(BW, method).
//
// For every pixel, D is the distance to the nearest nonzero pixel of BW (a
// feature; NaN counts as nonzero), 0 on features, and IDX the 1-based
// column-major linear index of that feature (MATLAB's convention). With
// dr = |row difference| and dc = |column difference|, the metrics are
// euclidean sqrt(dr^2 + dc^2), cityblock dr + dc, chessboard max(dr, dc) and
// quasi-euclidean max(dr, dc) + (sqrt(2) - 1) min(dr, dc), each exact. D is
// single (the exact distance rounded once), IDX uint32. Where several
// features are equally near, IDX is the lowest linear index. A BW without
// features gives D = Inf and IDX = 0 everywhere; an empty BW gives empty
// outputs.
#pragma once

#include <cstdint>
#include <limits>
#include <numbers>

#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

enum class BwdistMetric { Euclidean, Cityblock, Chessboard, QuasiEuclidean };

// quasi-euclidean: max + kQuasiEuclideanK * min.
constexpr double kQuasiEuclideanK = std::numbers::sqrt2 - 1.0;
// What a BW without features gives.
constexpr float kBwdistNoFeatureD = std::numeric_limits<float>::infinity();
constexpr uint32_t kBwdistNoFeatureIdx = 0;

struct BwdistPlan {
    BwdistMetric metric = BwdistMetric::Euclidean;
    int64_t rows = 0, cols = 0;   // D and IDX have BW's size
    int32_t d_dtype = IPT_SINGLE;
    int32_t idx_dtype = IPT_UINT32;
    bool want_idx = false;

    // An empty BW: D and IDX are empty of BW's size; backends compute nothing
    // (no loop may run over the other dimension, which can be huge).
    bool empty() const { return rows == 0 || cols == 0; }
};

inline BwdistPlan plan_bwdist(const ipt::plugin::KernelArgs& args) {
    const ipt_tensor* bw = args.image("BW");
    BwdistPlan p;
    p.rows = bw->rows;
    p.cols = bw->cols;
    p.want_idx = args.wanted("IDX");
    if (args.is("method", "euclidean")) p.metric = BwdistMetric::Euclidean;
    else if (args.is("method", "cityblock")) p.metric = BwdistMetric::Cityblock;
    else if (args.is("method", "chessboard")) p.metric = BwdistMetric::Chessboard;
    else if (args.is("method", "quasi-euclidean")) p.metric = BwdistMetric::QuasiEuclidean;
    else
        ipt::plugin::invalid("ipt.bwdist: parameter 'method' must be euclidean, cityblock, chessboard or "
                             "quasi-euclidean");
    // IDX is uint32 (MATLAB switches to uint64 past 2^32-1 elements; the
    // catalogue does not).
    if (p.want_idx && p.rows * p.cols > int64_t(std::numeric_limits<uint32_t>::max()))
        ipt::plugin::invalid("ipt.bwdist: parameter 'BW' has more than 2^32-1 pixels, which a uint32 IDX cannot "
                             "index");
    return p;
}

}  // namespace ipt::frontend
