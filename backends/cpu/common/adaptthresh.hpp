// adaptthresh's local thresholds (common/ops/adaptthresh.hpp) into a double
// buffer of I's size, shared by ipt.adaptthresh and imbinarize's 'adaptive'.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "common/image.hpp"
#include "common/integral_image.hpp"
#include "common/parallel.hpp"
#include "common/ops/adaptthresh.hpp"

namespace ipt::cpu {

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
