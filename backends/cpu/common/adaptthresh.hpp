// adaptthresh's local thresholds (common/ops/adaptthresh.hpp) into a double
// buffer of I's size, shared by ipt.adaptthresh and imbinarize's 'adaptive'.
// 'median' runs medfilt2's order filter (common/order_filter.hpp) and
// 'gaussian' imgaussfilt's double route (common/correlate.hpp, as
// ops/imgaussfilt.cpp drives it) on the converted image.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "common/correlate.hpp"
#include "common/image.hpp"
#include "common/integral_image.hpp"
#include "common/order_filter.hpp"
#include "common/padding.hpp"
#include "common/parallel.hpp"
#include "common/ops/adaptthresh.hpp"

namespace ipt::cpu {

// imgaussfilt(U, sigma) for a double U as ops/imgaussfilt.cpp computes it:
// the padded rows in double, the plan's direct or separable filter.
inline void adaptthresh_gauss(const ipt::frontend::ImgaussfiltPlan& p, const double* U, double* out) {
    const int64_t ma = p.rows, na = p.cols;
    const Border border = ipt::frontend::border_as<Border>(p.boundary);
    const int64_t pcols = na + p.kc - 1;
    std::vector<int64_t> colmap(static_cast<size_t>(pcols));
    for (int64_t q = 0; q < pcols; ++q) colmap[static_cast<size_t>(q)] = border_index(border, q - p.left, na);
    auto fill = [&](int64_t row, double* dst) {
        const double* src = U + border_index(border, row - p.top, ma) * na;
        for (int64_t q = 0; q < pcols; ++q) dst[q] = src[colmap[static_cast<size_t>(q)]];
    };
    const FilterPlan<double> plan = p.separable
                                        ? make_separable_plan<double>(p.hcol.data(), p.kr, p.hrow.data(), p.kc, true)
                                        : make_filter_plan<double>(p.h.data(), p.kr, p.kc, true, true);
    run_filter_plan_into(plan, ma, na, fill, out, na);
}

inline void adaptthresh_into(const ipt::frontend::AdaptthreshPlan& p, double* T) {
    const int64_t n = p.rows * p.cols;
    if (n == 0) return;
    std::vector<double> unit(static_cast<size_t>(n));
    visit_dtype(p.dtype, [&](auto tag) {
        using V = decltype(tag);
        if constexpr (!std::is_same_v<V, bool>) {
            const V* in = static_cast<const V*>(p.I->data);
            parallel_for(0, n, [&](int64_t i) { unit[i] = ipt::frontend::adaptthresh_unit(in[i]); }, 4096);
        }
    });
    if (p.statistic != ipt::frontend::AdaptStatistic::Mean) {
        std::vector<double> stat(static_cast<size_t>(n));
        if (p.statistic == ipt::frontend::AdaptStatistic::Median)
            order::filter(unit.data(), stat.data(), p.rows, p.cols,
                          order::full_domain(p.window_rows, p.window_cols, p.centre_row, p.centre_col), p.order - 1,
                          p.median_pad);
        else
            adaptthresh_gauss(p.gauss, unit.data(), stat.data());
        parallel_for(0, n, [&](int64_t i) { T[i] = ipt::frontend::adaptthresh_clip(p.scale * stat[i]); }, 4096);
        return;
    }
    const ipt::frontend::ImboxfiltPlan& b = p.box;
    const int64_t stride = b.padded_cols + 1;
    std::vector<double> J(static_cast<size_t>((b.padded_rows + 1) * stride));
    integral_image(unit.data(), b.rows, b.cols, Border::Replicate, 0.0, b.top, b.left, b.padded_rows, b.padded_cols,
                   J.data());
    parallel_for(0, b.rows, [&](int64_t r) {
        for (int64_t c = 0; c < b.cols; ++c)
            T[r * b.cols + c] =
                ipt::frontend::adaptthresh_clip(ipt::frontend::box_value(J.data(), stride, r, c, b.fr, b.fc, b.norm));
    }, 16);
}

}  // namespace ipt::cpu
