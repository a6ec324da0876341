// The inverse-mapping resampler of ipt.imrotate, ipt.imtranslate and
// ipt.imwarp: every output pixel samples A through the plan's matrix with the
// rule common/ops/warp.hpp states (the reference for the GPU backends).
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "common/convert.hpp"
#include "common/image.hpp"
#include "common/parallel.hpp"
#include "common/ops/warp.hpp"

namespace ipt::cpu {

namespace warp_detail {

using ipt::frontend::WarpInterp;
using ipt::frontend::WarpPlan;

template <class T>
struct Window {
    const T* plane;  // A's plane
    int64_t cols, row0, col0, win_rows, win_cols;
    double fill;
    // Pixel (y, x) of the window, 1-based; the fill value outside it.
    double at(int64_t y, int64_t x) const {
        if (y < 1 || y > win_rows || x < 1 || x > win_cols) return fill;
        const T v = plane[(row0 + y - 1) * cols + (col0 + x - 1)];
        if constexpr (std::is_same_v<T, bool>) return v ? 1.0 : 0.0;
        else return static_cast<double>(v);
    }
};

template <class T>
double sample(const Window<T>& w, WarpInterp interp, double x, double y) {
    constexpr double pad = ipt::frontend::kWarpPad;
    const double wc = static_cast<double>(w.win_cols), wr = static_cast<double>(w.win_rows);
    if (!(x >= 1 - pad && x <= wc + pad && y >= 1 - pad && y <= wr + pad)) return w.fill;
    if (interp == WarpInterp::Nearest)
        return w.at(static_cast<int64_t>(ipt::frontend::warp_round(y)), static_cast<int64_t>(ipt::frontend::warp_round(x)));
    const double xf = std::floor(x), yf = std::floor(y);
    const double fx = x - xf, fy = y - yf;
    const int64_t x0 = static_cast<int64_t>(xf), y0 = static_cast<int64_t>(yf);
    if (interp == WarpInterp::Linear) {
        const double top = w.at(y0, x0) * (1 - fx) + w.at(y0, x0 + 1) * fx;
        const double bottom = w.at(y0 + 1, x0) * (1 - fx) + w.at(y0 + 1, x0 + 1) * fx;
        return top * (1 - fy) + bottom * fy;
    }
    double wx[4], wy[4];
    for (int k = 0; k < 4; ++k) {
        wx[k] = ipt::frontend::warp_cubic(fx - static_cast<double>(k - 1));
        wy[k] = ipt::frontend::warp_cubic(fy - static_cast<double>(k - 1));
    }
    double acc = 0;
    for (int r = 0; r < 4; ++r) {
        const int64_t yy = y0 - 1 + r;
        double row = wx[0] * w.at(yy, x0 - 1);
        row = row + wx[1] * w.at(yy, x0);
        row = row + wx[2] * w.at(yy, x0 + 1);
        row = row + wx[3] * w.at(yy, x0 + 2);
        acc = acc + wy[r] * row;
    }
    return acc;
}

template <class T>
void warp_typed(const WarpPlan& p, const T* a, T* b) {
    const int64_t out_plane = p.out_rows * p.out_cols;
    parallel_for(0, p.channels * p.out_rows, [&](int64_t job) {
        const int64_t ch = job / p.out_rows, i = job % p.out_rows;
        const Window<T> w{a + ch * p.rows * p.cols, p.cols, p.row0, p.col0, p.win_rows, p.win_cols, p.fill[ch < 3 ? ch : 2]};
        const double id = static_cast<double>(i + 1);
        T* out = b + ch * out_plane + i * p.out_cols;
        for (int64_t j = 0; j < p.out_cols; ++j) {
            const double jd = static_cast<double>(j + 1);
            double x = (jd * p.M[0] + id * p.M[3]) + p.M[6];
            double y = (jd * p.M[1] + id * p.M[4]) + p.M[7];
            if (p.projective) {
                const double h = (jd * p.M[2] + id * p.M[5]) + p.M[8];
                x = x / h;
                y = y / h;
            }
            const double v = sample(w, p.interp, x, y);
            if constexpr (std::is_same_v<T, bool>) out[j] = to_class<uint8_t>(v) != 0;
            else out[j] = to_class<T>(v);
        }
    });
}

}  // namespace warp_detail

// B (allocated by the caller, class and size of the plan) from the plan's A.
inline void warp(const ipt::frontend::WarpPlan& p, const ipt_tensor* B) {
    if (p.out_rows * p.out_cols * p.channels == 0) return;
    visit_dtype(p.dtype, [&](auto tag) {
        using T = decltype(tag);
        warp_detail::warp_typed<T>(p, static_cast<const T*>(p.A->data), static_cast<T*>(B->data));
    });
}

}  // namespace ipt::cpu
