// SPDX-License-Identifier: Apache-2.0
// ipt.imfilter: B = imfilter(A, h, boundary, output, mode).
//
// The front-end (common/ops/imfilter.hpp) gives the padding, the kernel
// centre (docs/matlab-semantics.md#centre and #imfilter-boundary), the output size and class;
// the image is padded by its boundary rule and filtered by the shared
// correlation engine (common/correlate.hpp), channel by channel.
//
// Classes: single is filtered in single; every other class in double, and
// integer results are rounded half away from zero and saturated. A logical
// image is filtered as 0/1 in double and converted back with MATLAB's
// logical(): nonzero is true (NaN, only possible with a non-finite h, is
// false). Only the nonzero taps of h are used (as MATLAB's imfilter does), so
// Inf or NaN in A reaches only the outputs whose tap on it is nonzero.
//
// A kernel that is exactly rank 1 (every tap reproduced to 4 eps) runs as a
// column pass then a row pass; error <= (4 eps + gamma(kr + kc)) (|A|*|h|)(p)
// either way (gamma(k) ~ k eps(class)/2).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <string>
#include <vector>

#include "common/convert.hpp"
#include "common/correlate.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/padding.hpp"
#include "common/single_first.hpp"
#include "common/ops/imfilter.hpp"

namespace {

using ipt::cpu::Border;
using ipt::frontend::ImfilterPlan;
using ipt::plugin::KernelArgs;

std::vector<double> kernel_values(const ipt_tensor* h) {
    const int64_t n = h->rows * h->cols;
    std::vector<double> out(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i)
        out[static_cast<size_t>(i)] = h->dtype == IPT_SINGLE ? static_cast<const float*>(h->data)[i]
                                                             : static_cast<const double*>(h->data)[i];
    return out;
}

// Integer classes exact in single are filtered single-first
// (common/single_first.hpp).
using ipt::cpu::kSingleFirst;

template <class T, class Acc>
void filter_planes(const ImfilterPlan& c, const std::vector<double>& h, T* B) {
    const int64_t ma = c.ma, na = c.na;
    const int64_t rows = c.out_rows, cols = c.out_cols, planes = c.channels;
    const Border border = ipt::frontend::border_as<Border>(c.boundary);
    const auto plan = ipt::cpu::make_filter_plan<Acc>(h.data(), c.kr, c.kc, c.conv, true);
    const T pad_class = ipt::cpu::to_class<T>(c.pad_value);
    const Acc pad = static_cast<Acc>(pad_class);

    // Column of A for every padded column left and right of the image
    // (-1: the constant).
    const int64_t pcols = cols + c.kc - 1;
    const int64_t mid_end = std::min(c.left + na, pcols);
    std::vector<int64_t> colmap(static_cast<size_t>(pcols));
    for (int64_t q = 0; q < pcols; ++q) colmap[static_cast<size_t>(q)] = ipt::cpu::border_index(border, q - c.left, na);

    // For the single-first path: the taps in double and the margin.
    constexpr bool single_first = kSingleFirst<T> && std::is_same_v<Acc, float>;
    ipt::cpu::TapKernel<double> exact_taps;
    float margin = 0;
    if constexpr (single_first) {
        exact_taps = ipt::cpu::make_tap_kernel<double>(h.data(), c.kr, c.kc, c.conv);
        double abs_sum = 0;
        for (double w : h) abs_sum += std::abs(w);
        margin = ipt::cpu::single_first_margin(ipt::cpu::class_magnitude<T>(), abs_sum, c.kr, c.kc);
    }

    for (int64_t ch = 0; ch < planes; ++ch) {
        const T* A = static_cast<const T*>(c.A->data) + ch * ma * na;
        auto fill = [&](int64_t p, Acc* dst) {
            const int64_t r = ipt::cpu::border_index(border, p - c.top, ma);
            if (r < 0) {
                std::fill(dst, dst + pcols, pad);
                return;
            }
            const T* src = A + r * na;
            for (int64_t q = 0; q < c.left; ++q) {
                const int64_t s = colmap[static_cast<size_t>(q)];
                dst[q] = s < 0 ? pad : static_cast<Acc>(src[s]);
            }
            ipt::cpu::convert_row(src, dst + c.left, mid_end - c.left);
            for (int64_t q = mid_end; q < pcols; ++q) {
                const int64_t s = colmap[static_cast<size_t>(q)];
                dst[q] = s < 0 ? pad : static_cast<Acc>(src[s]);
            }
        };
        T* Bp = B + ch * rows * cols;
        if constexpr (std::is_same_v<T, Acc>) {
            ipt::cpu::run_filter_plan_into(plan, rows, cols, fill, Bp, cols);
        } else if constexpr (single_first) {
            // Padded row r, padded column q of A, in double.
            auto at = [&](int64_t r, int64_t q) {
                const int64_t ar = ipt::cpu::border_index(border, r - c.top, ma);
                const int64_t aq = colmap[static_cast<size_t>(q)];
                return (ar < 0 || aq < 0) ? static_cast<double>(pad_class) : static_cast<double>(A[ar * na + aq]);
            };
            auto store = [&](int64_t o, const float* v) {
                ipt::cpu::store_single_first(v, Bp + o * cols, cols, margin, [&](int64_t j) {
                    return ipt::cpu::to_class<T>(ipt::cpu::exact_filter_at(exact_taps, o, j, at));
                });
            };
            ipt::cpu::run_filter_plan(plan, rows, cols, fill, store);
        } else {
            auto store = [&](int64_t o, const Acc* v) { ipt::cpu::convert_row(v, Bp + o * cols, cols); };
            ipt::cpu::run_filter_plan(plan, rows, cols, fill, store);
        }
    }
}

template <class T>
void filter_class(const ImfilterPlan& c, const ipt_tensor* out) {
    if (c.out_rows * c.out_cols == 0) return;
    const std::vector<double> h = kernel_values(c.h);
    T* B = static_cast<T*>(out->data);
    bool finite = true;
    for (double w : h) finite &= std::isfinite(w);
    if constexpr (std::is_same_v<T, float>) {
        filter_planes<T, float>(c, h, B);
    } else if constexpr (kSingleFirst<T>) {
        // A non-finite tap leaves nothing for single precision to decide.
        if (finite) filter_planes<T, float>(c, h, B);
        else filter_planes<T, double>(c, h, B);
    } else {
        filter_planes<T, double>(c, h, B);
    }
}

void run_imfilter(const KernelArgs& args) {
    const ImfilterPlan c = ipt::frontend::plan_imfilter(args);
    const ipt_tensor* B = args.output("B", c.out_class, c.out_rows, c.out_cols, c.channels);
    if (c.zeros_only) {
        const size_t bytes = static_cast<size_t>(c.out_rows * c.out_cols * c.channels) *
                             ipt::plugin::dtype_size(c.out_class);
        if (bytes) std::memset(B->data, 0, bytes);
        return;
    }
    ipt::cpu::visit_dtype(c.out_class, [&](auto tag) { filter_class<decltype(tag)>(c, B); });
}

}  // namespace

IPT_CPU_OP("ipt.imfilter", "", 100, run_imfilter)
