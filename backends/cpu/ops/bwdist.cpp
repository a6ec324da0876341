// SPDX-License-Identifier: Apache-2.0
// ipt.bwdist: distance to the nearest nonzero pixel, and that pixel's 1-based
// column-major linear index (docs/matlab-semantics.md#bwdist; the rules are the
// front-end's, backends/common/ops/bwdist.hpp).
//
// Every metric is computed exactly by the two-phase scheme of Meijster,
// Roerdink and Hesselink (2000):
//  1. per column, the nearest feature row (upper one on ties), parallel over
//     blocks of columns;
//  2. per row, the lower envelope of f_c(x) = metric(|x - c|, g_c) over the
//     columns c that hold a feature (g_c = row distance from phase 1),
//     parallel over rows. Euclidean, cityblock and chessboard use Meijster's
//     closed-form separators; quasi-euclidean (max + (sqrt2-1)*min, whose
//     pairwise differences also change sign once) finds its separator by
//     bisection.
// Ties: a separator is the LAST x where the lower column is still <= the
// higher one, so on equal distances the envelope keeps the lowest column;
// phase 1 keeps the upper row. For the euclidean, cityblock and
// quasi-euclidean metrics distance grows strictly with the row offset, so
// that is the lowest linear index among all nearest features. For chessboard
// several rows of one column can tie; IDX then takes the first feature at or
// below row r-D of the chosen column, which is again the lowest index.
// NaN pixels count as nonzero (features).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/parallel.hpp"
#include "common/ops/bwdist.hpp"

namespace {

using ipt::plugin::KernelArgs;

constexpr int32_t kNone = -1;
constexpr int64_t kBeyond = std::numeric_limits<int64_t>::max() / 4;  // separator "never"

// Phase 1. nearest[r*cols+c]: row of the nearest feature of column c (the upper
// one on ties), kNone when the column has none. below (optional): row of the
// first feature at or below r.
template <class T>
void column_pass(const T* bw, int64_t rows, int64_t cols, int32_t* nearest, int32_t* below) {
    constexpr int64_t kBlock = 256;
    ipt::cpu::parallel_for(0, (cols + kBlock - 1) / kBlock, [&](int64_t blk) {
        const int64_t c0 = blk * kBlock, width = std::min(kBlock, cols - c0);
        int32_t last[kBlock];
        std::fill(last, last + width, kNone);
        for (int64_t r = 0; r < rows; ++r) {
            const T* in = bw + r * cols + c0;
            int32_t* up = nearest + r * cols + c0;
            const int32_t row = static_cast<int32_t>(r);
            for (int64_t j = 0; j < width; ++j) {
                last[j] = in[j] != T(0) ? row : last[j];
                up[j] = last[j];
            }
        }
        std::fill(last, last + width, kNone);
        for (int64_t r = rows - 1; r >= 0; --r) {
            const T* in = bw + r * cols + c0;
            int32_t* best = nearest + r * cols + c0;
            const int32_t row = static_cast<int32_t>(r);
            for (int64_t j = 0; j < width; ++j) {
                last[j] = in[j] != T(0) ? row : last[j];
                const int32_t up = best[j], down = last[j];
                best[j] = up == kNone ? down : (down == kNone || row - up <= down - row ? up : down);
            }
            if (below) std::copy(last, last + width, below + r * cols + c0);
        }
    });
}

// Phase-2 metrics: f(dx, g) is the distance to a feature dx columns and g rows
// away; sep(i, u, gi, gu, lo, n) the last x where f_i(x) <= f_u(x) for columns
// i < u, given that it holds at lo (values >= n mean "to the end").
struct Euclidean {
    using Value = int64_t;  // squared distance
    static Value f(int64_t dx, int64_t g) { return dx * dx + g * g; }
    static int64_t sep(int64_t i, int64_t u, int64_t gi, int64_t gu, int64_t, int64_t) {
        const int64_t num = (u * u - i * i) + (gu * gu - gi * gi);
        const int64_t den = 2 * (u - i);
        // floor(num/den). A non-integer quotient is at least 1/den from an
        // integer and the double quotient is within |num/den|*2^-53 of it, so
        // the double floor is exact while |num| < 2^53 (sides below 2^26).
        constexpr int64_t kExact = int64_t(1) << 53;
        if (num < kExact && num > -kExact)
            return static_cast<int64_t>(std::floor(static_cast<double>(num) / static_cast<double>(den)));
        int64_t q = num / den;
        if (num % den != 0 && num < 0) --q;
        return q;
    }
    // sqrt in double then rounding to single is correctly rounded (53 >= 2*24+2).
    static float distance(Value v) { return static_cast<float>(std::sqrt(static_cast<double>(v))); }
};

struct Cityblock {
    using Value = int64_t;
    static Value f(int64_t dx, int64_t g) { return dx + g; }
    static int64_t sep(int64_t i, int64_t u, int64_t gi, int64_t gu, int64_t, int64_t) {
        if (gu >= gi + (u - i)) return kBeyond;
        return (gu - gi + u + i) / 2;  // >= 0 here (gi <= gu + u - i after the pops)
    }
    static float distance(Value v) { return static_cast<float>(v); }
};

struct Chessboard {
    using Value = int64_t;
    static Value f(int64_t dx, int64_t g) { return std::max(dx, g); }
    static int64_t sep(int64_t i, int64_t u, int64_t gi, int64_t gu, int64_t, int64_t) {
        const int64_t mid = (i + u) / 2;
        return gi <= gu ? std::max(i + gu, mid) : std::min(u - gi, mid);
    }
    static float distance(Value v) { return static_cast<float>(v); }
};

struct QuasiEuclidean {
    using Value = double;
    static Value f(int64_t dx, int64_t g) {
        constexpr double k = ipt::frontend::kQuasiEuclideanK;
        return dx > g ? static_cast<double>(dx) + k * static_cast<double>(g)
                      : static_cast<double>(g) + k * static_cast<double>(dx);
    }
    static int64_t sep(int64_t i, int64_t u, int64_t gi, int64_t gu, int64_t lo, int64_t n) {
        // f_i - f_u changes sign once (checked exhaustively for small offsets
        // and by the brute-force tests): bisect on [lo, n).
        int64_t hi = n;
        while (hi - lo > 1) {
            const int64_t mid = lo + (hi - lo) / 2;
            if (f(std::abs(mid - i), gi) <= f(std::abs(mid - u), gu)) lo = mid;
            else hi = mid;
        }
        return lo;
    }
    static float distance(Value v) { return static_cast<float>(v); }
};

struct Outputs {
    float* d;
    uint32_t* idx;        // null when IDX is not wanted
    const int32_t* below; // chessboard IDX only
};

// Phase 2 over rows [r0, r1). present: columns holding a feature.
template <class M>
void row_pass(int64_t r0, int64_t r1, int64_t rows, int64_t cols, const int32_t* nearest,
              const std::vector<int32_t>& present, const Outputs& out, int32_t* g, int32_t* s,
              int64_t* t) {
    const int64_t m = static_cast<int64_t>(present.size());
    const int32_t* pc = present.data();
    for (int64_t r = r0; r < r1; ++r) {
        const int32_t* near_row = nearest + r * cols;
        for (int64_t k = 0; k < m; ++k) {
            const int64_t dr = near_row[pc[k]] - r;
            g[k] = static_cast<int32_t>(dr < 0 ? -dr : dr);
        }
        // Lower envelope (Meijster's scan over the present columns only).
        int64_t q = 0;
        s[0] = 0;
        t[0] = 0;
        for (int64_t k = 1; k < m; ++k) {
            const int64_t u = pc[k], gu = g[k];
            while (q >= 0 && M::f(std::abs(t[q] - pc[s[q]]), g[s[q]]) > M::f(std::abs(t[q] - u), gu))
                --q;
            if (q < 0) {
                q = 0;
                s[0] = static_cast<int32_t>(k);
                t[0] = 0;
            } else {
                const int64_t w = 1 + M::sep(pc[s[q]], u, g[s[q]], gu, t[q], cols);
                if (w < cols) {
                    ++q;
                    s[q] = static_cast<int32_t>(k);
                    t[q] = w;
                }
            }
        }
        float* d_row = out.d + r * cols;
        uint32_t* idx_row = out.idx ? out.idx + r * cols : nullptr;
        for (int64_t x = cols - 1; x >= 0; --x) {
            const int32_t k = s[q];
            const int64_t c = pc[k];
            const typename M::Value v = M::f(x > c ? x - c : c - x, g[k]);
            d_row[x] = M::distance(v);
            if (idx_row) {
                int64_t feature_row = near_row[c];
                if (out.below) {
                    // Chessboard: the first feature of column c within v rows.
                    const int64_t from = std::max<int64_t>(0, r - static_cast<int64_t>(v));
                    feature_row = out.below[from * cols + c];
                }
                idx_row[x] = static_cast<uint32_t>(c * rows + feature_row + 1);
            }
            if (x == t[q]) --q;
        }
    }
}

template <class M>
void envelope_pass(int64_t rows, int64_t cols, const int32_t* nearest,
                   const std::vector<int32_t>& present, const Outputs& out) {
    const int64_t m = static_cast<int64_t>(present.size());
    const int64_t blocks = std::min<int64_t>(rows, 4 * ipt::cpu::thread_count());
    // Scratch per block, allocated before the parallel region (nothing may throw in it).
    std::vector<int32_t> g(blocks * m), s(blocks * m);
    std::vector<int64_t> t(blocks * m);
    ipt::cpu::parallel_for(0, blocks, [&](int64_t b) {
        row_pass<M>(rows * b / blocks, rows * (b + 1) / blocks, rows, cols, nearest, present, out,
                    g.data() + b * m, s.data() + b * m, t.data() + b * m);
    });
}

void run_bwdist(const KernelArgs& args) {
    using ipt::frontend::BwdistMetric;
    const ipt::frontend::BwdistPlan plan = ipt::frontend::plan_bwdist(args);
    const ipt_tensor* bw = args.image("BW");
    const int64_t rows = plan.rows, cols = plan.cols;
    const bool want_idx = plan.want_idx;
    const BwdistMetric metric = plan.metric;
    if (plan.empty()) {
        args.output("D", plan.d_dtype, rows, cols, 1);
        if (want_idx) args.output("IDX", plan.idx_dtype, rows, cols, 1);
        return;
    }
    if (rows > std::numeric_limits<int32_t>::max() - 1)
        ipt::plugin::unsupported("ipt.bwdist: images of 2^31-1 rows or more (rows are int32 here)");

    const int64_t n = rows * cols;
    const bool need_below = metric == BwdistMetric::Chessboard && want_idx;
    std::vector<int32_t> nearest(n), below(need_below ? n : 0);
    ipt::cpu::visit_dtype(bw->dtype, [&](auto tag) {
        using T = decltype(tag);
        column_pass(static_cast<const T*>(bw->data), rows, cols, nearest.data(),
                    need_below ? below.data() : nullptr);
    });
    // A column holds a feature iff its first row has a nearest feature.
    std::vector<int32_t> present;
    for (int64_t c = 0; c < cols; ++c)
        if (nearest[c] != kNone) present.push_back(static_cast<int32_t>(c));

    // Outputs after every allocation: nothing is written when one fails.
    const ipt_tensor* d_t = args.output("D", plan.d_dtype, rows, cols, 1);
    const ipt_tensor* idx_t = want_idx ? args.output("IDX", plan.idx_dtype, rows, cols, 1) : nullptr;
    Outputs out{static_cast<float*>(d_t->data), idx_t ? static_cast<uint32_t*>(idx_t->data) : nullptr,
                need_below ? below.data() : nullptr};
    if (present.empty()) {  // no feature at all
        std::fill(out.d, out.d + n, ipt::frontend::kBwdistNoFeatureD);
        if (out.idx) std::fill(out.idx, out.idx + n, ipt::frontend::kBwdistNoFeatureIdx);
        return;
    }
    switch (metric) {
    case BwdistMetric::Euclidean: envelope_pass<Euclidean>(rows, cols, nearest.data(), present, out); break;
    case BwdistMetric::Cityblock: envelope_pass<Cityblock>(rows, cols, nearest.data(), present, out); break;
    case BwdistMetric::Chessboard: envelope_pass<Chessboard>(rows, cols, nearest.data(), present, out); break;
    case BwdistMetric::QuasiEuclidean:
        envelope_pass<QuasiEuclidean>(rows, cols, nearest.data(), present, out);
        break;
    }
}

}  // namespace

IPT_CPU_OP("ipt.bwdist", "", 100, run_bwdist)
