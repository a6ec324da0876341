// SPDX-License-Identifier: Apache-2.0
// adaptthresh's local thresholds (common/ops/adaptthresh.hpp) into a device
// buffer of I's size, shared by ipt.adaptthresh and imbinarize's 'adaptive':
// I converted to [0,1] in double, its replicated integral image
// (common/integral_image.cuh, the CPU reference's order), then each window's
// corners (box_value), scaled and clipped; 'median' through medfilt2's order
// filter (common/order_filter.cuh) and 'gaussian' through imgaussfilt's
// double route (common/imgaussfilt.cuh), each value then scaled and clipped.
#pragma once

#include <type_traits>

#include "common/buffer.hpp"
#include "common/device.cuh"
#include "common/imgaussfilt.cuh"
#include "common/integral_image.cuh"
#include "common/order_filter.cuh"
#include "rank1.hpp"
#include "common/ops/adaptthresh.hpp"

namespace ipt::cuda {

template <class V>
__global__ void adaptthresh_unit_kernel(const V* __restrict__ in, double* __restrict__ out, int64_t n) {
    IPT_GRID_STRIDE(i, n) out[i] = ipt::frontend::adaptthresh_unit(in[i]);
}

__global__ inline void adaptthresh_box_kernel(const double* __restrict__ J, double* __restrict__ t, int64_t m,
                                              int64_t n, int64_t fr, int64_t fc, int64_t stride, double norm) {
    IPT_GRID_STRIDE(i, m * n) {
        const int64_t r = i / n, c = i - r * n;
        t[i] = ipt::frontend::adaptthresh_clip(ipt::frontend::box_value(J, stride, r, c, fr, fc, norm));
    }
}

__global__ inline void adaptthresh_scale_kernel(const double* __restrict__ stat, double* __restrict__ t, int64_t n,
                                                double scale) {
    IPT_GRID_STRIDE(i, n) t[i] = ipt::frontend::adaptthresh_clip(scale * stat[i]);
}

// Declines what this backend cannot run (before the output is allocated).
inline void adaptthresh_check(const ipt::frontend::AdaptthreshPlan& p, const char* what) {
    const bool median = p.statistic == ipt::frontend::AdaptStatistic::Median;
    if (median && !order_window_fits(p.window_rows * p.window_cols, false))
        ipt::plugin::unsupported(std::string(what) + ": median window too large for libipt_cuda");
}

// T: rows x cols doubles on the device. Queued on the stream; the scratch
// buffers are released when the work is done (DeviceArray's stream order).
inline void adaptthresh_async(const ipt::frontend::AdaptthreshPlan& p, double* T, cudaStream_t s,
                              const char* what) {
    const int64_t n = p.rows * p.cols;
    if (n == 0) return;
    DeviceArray<double> unit(static_cast<size_t>(n), s);
    visit_dtype(p.dtype, [&](auto tag) {
        using V = decltype(tag);
        if constexpr (!std::is_same_v<V, bool>) {
            adaptthresh_unit_kernel<V><<<grid_for(n), kThreads, 0, s>>>(dptr<const V>(p.I), unit.get(), n);
            check_launch(what);
        }
    });
    if (p.statistic != ipt::frontend::AdaptStatistic::Mean) {
        DeviceArray<double> stat(static_cast<size_t>(n), s);
        if (p.statistic == ipt::frontend::AdaptStatistic::Median) {
            const OrderWindow w = ipt::frontend::order::make_window(p.window_rows, p.window_cols, nullptr, nullptr);
            order_filter_async<double, double, false>(unit.get(), stat.get(), p.rows, p.cols, w,
                                                      static_cast<int>(p.order), 0, p.median_pad, s, what);
        } else if (!p.gauss.separable) {
            // The CPU reference's route for the 2-D kernel: its exact rank-1
            // split into a column and a row pass where it takes one, so that T
            // is the same to the bit.
            const ipt::common::Rank1 f = ipt::common::separable_route(p.gauss.h.data(), p.gauss.kr, p.gauss.kc, true);
            if (f.ok) {
                ipt::frontend::ImgaussfiltPlan split = p.gauss;
                split.separable = true;
                split.hcol = f.u;
                split.hrow = f.v;
                imgaussfilt_separable_async<double, double>(split, unit.get(), stat.get(), s, what);
            } else {
                imgaussfilt_direct_async<double>(p.gauss, unit.get(), stat.get(), s, what);
            }
        } else {
            imgaussfilt_separable_async<double, double>(p.gauss, unit.get(), stat.get(), s, what);
        }
        adaptthresh_scale_kernel<<<grid_for(n), kThreads, 0, s>>>(stat.get(), T, n, p.scale);
        check_launch(what);
        return;
    }
    const ipt::frontend::ImboxfiltPlan& b = p.box;
    const int64_t stride = b.padded_cols + 1;
    DeviceArray<double> J(static_cast<size_t>((b.padded_rows + 1) * stride), s);
    IntegralGeometry g;
    g.m = b.rows;
    g.n = b.cols;
    g.border = Border::Replicate;
    g.top = b.top;
    g.left = b.left;
    g.pm = b.padded_rows;
    g.pn = b.padded_cols;
    integral_image_async(static_cast<const double*>(unit.get()), J.get(), g, s, what);
    adaptthresh_box_kernel<<<grid_for(n), kThreads, 0, s>>>(J.get(), T, b.rows, b.cols, b.fr, b.fc, stride, b.norm);
    check_launch(what);
}

}  // namespace ipt::cuda
