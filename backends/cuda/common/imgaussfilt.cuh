// SPDX-License-Identifier: Apache-2.0
// imgaussfilt's two routes on the correlation engine, shared by
// ipt.imgaussfilt and adaptthresh's 'gaussian' statistic. Direct route:
// imfilter's arithmetic with the 2-D kernel (as ops/imfilter.cu). Separable
// route: A converted to the working class W (single or double), a column pass
// over the padded width, then a row pass, each summed in that class in the
// reference's order (CorrGeometry::class_sum), rounded to A's class at the end.
#pragma once

#include <type_traits>

#include "common/buffer.hpp"
#include "common/correlate.cuh"
#include "common/ops/imgaussfilt.hpp"

namespace ipt::cuda {

template <class In, class Out>
__global__ void gauss_convert_kernel(const In* __restrict__ a, Out* __restrict__ b, int64_t n) {
    IPT_GRID_STRIDE(i, n) { b[i] = saturate_round<Out>(to_double(a[i])); }
}

template <class In, class Out>
void gauss_convert_async(const In* a, Out* b, int64_t n, cudaStream_t s, const char* what) {
    gauss_convert_kernel<In, Out><<<grid_for(n), kThreads, 0, s>>>(a, b, n);
    check_launch(what);
}

template <class T>
void imgaussfilt_direct_async(const ipt::frontend::ImgaussfiltPlan& p, const T* a, T* b, cudaStream_t s,
                              const char* what) {
    CorrGeometry g;
    g.in_rows = g.out_rows = p.rows;
    g.in_cols = g.out_cols = p.cols;
    g.kh = static_cast<int>(p.kr);
    g.kw = static_cast<int>(p.kc);
    g.off_r = p.top;
    g.off_c = p.left;
    g.planes = p.channels;
    g.border = ipt::frontend::border_as<Border>(p.boundary);
    g.rotate = true;
    g.class_sum = std::is_floating_point_v<T>;
    if (correlate_fixed_async<T, T>(a, b, p.h, g, static_cast<T>(p.pad_value), s)) {
        check_launch(what);
        return;
    }
    const DeviceArray<double> h = to_device(p.h, s);
    correlate_async<T, T>(a, b, Taps{h.get(), false}, g, static_cast<T>(p.pad_value), s, what);
}

template <class T, class W>
void imgaussfilt_separable_async(const ipt::frontend::ImgaussfiltPlan& p, const T* a, T* b, cudaStream_t s,
                                 const char* what) {
    [[maybe_unused]] const int64_t n = p.rows * p.cols * p.channels;
    const int64_t pcols = p.cols + p.kc - 1;
    const DeviceArray<double> hcol = to_device(p.hcol, s), hrow = to_device(p.hrow, s);
    DeviceArray<W> a_work, b_work;
    const W* src = nullptr;
    W* dst = nullptr;
    if constexpr (std::is_same_v<T, W>) {
        src = a;
        dst = b;
    } else {
        a_work = DeviceArray<W>(static_cast<size_t>(n), s);
        b_work = DeviceArray<W>(static_cast<size_t>(n), s);
        gauss_convert_async(a, a_work.get(), n, s, what);
        src = a_work.get();
        dst = b_work.get();
    }
    DeviceArray<W> mid(static_cast<size_t>(p.rows * pcols * p.channels), s);
    CorrGeometry col;
    col.in_rows = col.out_rows = p.rows;
    col.in_cols = p.cols;
    col.out_cols = pcols;
    col.kh = static_cast<int>(p.kr);
    col.kw = 1;
    col.off_r = p.top;
    col.off_c = p.left;
    col.planes = p.channels;
    col.border = ipt::frontend::border_as<Border>(p.boundary);
    col.class_sum = true;
    correlate_async<W, W>(src, mid.get(), Taps{hcol.get(), false}, col, static_cast<W>(p.pad_value), s, what);
    CorrGeometry row;
    row.in_rows = row.out_rows = p.rows;
    row.in_cols = pcols;
    row.out_cols = p.cols;
    row.kh = 1;
    row.kw = static_cast<int>(p.kc);
    row.planes = p.channels;
    row.class_sum = true;
    correlate_async<W, W>(mid.get(), dst, Taps{hrow.get(), false}, row, W(0), s, what);
    if constexpr (!std::is_same_v<T, W>) gauss_convert_async(dst, b, n, s, what);
}

}  // namespace ipt::cuda
