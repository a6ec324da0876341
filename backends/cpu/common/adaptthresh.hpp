// SPDX-License-Identifier: Apache-2.0
// adaptthresh's local thresholds (common/ops/adaptthresh.hpp): 'mean' row by
// row (adaptthresh_mean_rows), so that imbinarize's 'adaptive' never holds T;
// into a double buffer of I's size for ipt.adaptthresh. 'median' runs
// medfilt2's order filter (common/order_filter.hpp) and 'gaussian'
// imgaussfilt's double route (common/correlate.hpp, as ops/imgaussfilt.cpp
// drives it) on the converted image.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "common/correlate.hpp"
#include "common/image.hpp"
#include "common/isa.hpp"
#include "common/order_filter.hpp"
#include "common/padding.hpp"
#include "common/parallel.hpp"
#include "common/simd.hpp"
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

namespace adapt_detail {

// Columns [c0, c1) of the replicate-padded row of U whose source row is src
// (n values, `left` padded columns before them).
template <class V>
IPT_ALWAYS_INLINE void padded_unit(const V* src, int64_t n, int64_t left, int64_t c0,
                                   int64_t c1, double* out) {
    const int64_t a = std::min(std::max(c0, left), c1), b = std::max(std::min(c1, left + n), a);
    if (c0 < a) {
        const double first = ipt::frontend::adaptthresh_unit(src[0]);
        for (int64_t c = c0; c < a; ++c) out[c - c0] = first;
    }
    const V* s = src + (a - left);
    double* o = out + (a - c0);
    for (int64_t c = 0; c < b - a; ++c) o[c] = ipt::frontend::adaptthresh_unit(s[c]);
    if (b < c1) {
        const double last = ipt::frontend::adaptthresh_unit(src[n - 1]);
        for (int64_t c = b; c < c1; ++c) out[c - c0] = last;
    }
}

}  // namespace adapt_detail

// 'mean' thresholds row by row: emit(r, t) receives row r of T (n values, a
// buffer of the calling thread), on any thread, each row once. The integral
// image J = cumsum(cumsum(P, 1), 2) of the padded U is never stored whole:
// bands of output rows each keep the J rows their windows still need in a
// ring, starting from the column sums at the band's first row (one pass over
// the columns). Every J value is the same sum in the same order as in
// integral_image: the running column sum, then the running row sum.
template <class Emit>
void adaptthresh_mean_rows(const ipt::frontend::AdaptthreshPlan& p, Emit&& emit) {
    const ipt::frontend::ImboxfiltPlan& b = p.box;
    const int64_t m = b.rows, n = b.cols, fr = b.fr, fc = b.fc, top = b.top, left = b.left;
    const int64_t pm = b.padded_rows, pn = b.padded_cols, stride = pn + 1;
    if (m * n == 0) return;
    // One band per thread: each band forms fr more J rows than it outputs
    // (and the column pass grows with the bands), so more bands cost more
    // than their balance gains.
    const int64_t nb = std::max<int64_t>(1, std::min<int64_t>(thread_count(), m / 16));
    auto band_start = [&](int64_t i) { return m * i / nb; };
    visit_dtype(p.dtype, [&](auto tag) {
        using V = decltype(tag);
        if constexpr (!std::is_same_v<V, bool>) {
            const V* in = static_cast<const V*>(p.I->data);
            auto src_row = [&](int64_t k) { return in + std::min(std::max(k - top, int64_t{0}), m - 1) * n; };
            // Column sums of P rows 0 .. start(i)-1, per band i > 0.
            std::vector<double> start_sums(static_cast<size_t>((nb - 1) * pn));
            if (nb > 1) {
                constexpr int64_t kCols = 512;
                parallel_for(0, (pn + kCols - 1) / kCols, [&](int64_t blk) {
                    simd_dispatch([&] {
                        const int64_t c0 = blk * kCols, c1 = std::min(pn, c0 + kCols), w = c1 - c0;
                        double C[kCols], line[kCols];
                        std::fill(C, C + w, 0.0);
                        int64_t k = 0;
                        for (int64_t i = 1; i < nb; ++i) {
                            for (; k < band_start(i); ++k) {
                                adapt_detail::padded_unit(src_row(k), n, left, c0, c1, line);
                                for (int64_t c = 0; c < w; ++c) C[c] = C[c] + line[c];
                            }
                            std::copy(C, C + w, start_sums.data() + (i - 1) * pn + c0);
                        }
                    });
                });
            }
            // J rows r0 .. last of a band; row k in slot (k - r0) % R, R a
            // multiple of 4 above fr + 3 (or all rows), so that a batch of
            // four never wraps or overwrites a row still needed. The buffers
            // are allocated here: nothing may throw inside the loop.
            auto ring_rows = [&](int64_t bi) {
                const int64_t need = band_start(bi + 1) - band_start(bi) + fr;
                return std::min((fr + 4 + 3) / 4 * 4, (need + 3) / 4 * 4);
            };
            struct Scratch {
                std::unique_ptr<double[]> ring, C, P, t;
            };
            std::vector<Scratch> scratch(static_cast<size_t>(nb));
            for (int64_t bi = 0; bi < nb; ++bi) {
                Scratch& sc = scratch[static_cast<size_t>(bi)];
                sc.ring.reset(new double[static_cast<size_t>(ring_rows(bi) * stride)]);
                sc.C.reset(new double[static_cast<size_t>(pn)]);
                sc.P.reset(new double[static_cast<size_t>(4 * pn)]);
                sc.t.reset(new double[static_cast<size_t>(n)]);
            }
            parallel_for(0, nb, [&](int64_t bi) {
                simd_dispatch([&] {
                    const int64_t r0 = band_start(bi), r1 = band_start(bi + 1);
                    if (r0 == r1) return;
                    const int64_t last = r1 - 1 + fr, R = ring_rows(bi);
                    Scratch& sc = scratch[static_cast<size_t>(bi)];
                    const std::unique_ptr<double[]>&ring = sc.ring, &C = sc.C, &P = sc.P, &t = sc.t;
                    if (bi == 0) std::fill(C.get(), C.get() + pn, 0.0);
                    else std::copy_n(start_sums.data() + (bi - 1) * pn, pn, C.get());
                    const double norm = b.norm;
                    int64_t next_out = r0;
                    for (int64_t k = r0; k <= last; k += 4) {
                        const int64_t rows = std::min<int64_t>(4, last - k + 1);
                        double* J0 = ring.get() + ((k - r0) % R) * stride;
                        // P rows k .. k+3 that exist (C moves on from C_k to C_{k+4}).
                        for (int64_t j = 0; j < 4; ++j) {
                            if (k + j < pm) adapt_detail::padded_unit(src_row(k + j), n, left, 0, pn, P.get() + j * pn);
                            else std::fill(P.get() + j * pn, P.get() + (j + 1) * pn, 0.0);
                        }
                        if (rows == 4) {
                            // Four independent running row sums side by side.
                            double *j0 = J0, *j1 = J0 + stride, *j2 = J0 + 2 * stride, *j3 = J0 + 3 * stride;
                            const double *p0 = P.get(), *p1 = p0 + pn, *p2 = p1 + pn, *p3 = p2 + pn;
                            double* Cc = C.get();
                            double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
                            j0[0] = j1[0] = j2[0] = j3[0] = 0;
                            for (int64_t c = 0; c < pn; ++c) {
                                double x = Cc[c];
                                s0 = s0 + x;
                                j0[c + 1] = s0;
                                x = x + p0[c];
                                s1 = s1 + x;
                                j1[c + 1] = s1;
                                x = x + p1[c];
                                s2 = s2 + x;
                                j2[c + 1] = s2;
                                x = x + p2[c];
                                s3 = s3 + x;
                                j3[c + 1] = s3;
                                Cc[c] = x + p3[c];
                            }
                        } else {
                            for (int64_t j = 0; j < rows; ++j) {
                                double* Jr = J0 + j * stride;
                                double* Cc = C.get();
                                const double* pj = P.get() + j * pn;
                                double s = 0;
                                Jr[0] = 0;
                                for (int64_t c = 0; c < pn; ++c) {
                                    s = s + Cc[c];
                                    Jr[c + 1] = s;
                                }
                                for (int64_t c = 0; c < pn; ++c) Cc[c] = Cc[c] + pj[c];
                            }
                        }
                        // Every output whose lower J row is now formed.
                        for (; next_out < r1 && next_out + fr <= k + rows - 1; ++next_out) {
                            const double* Jt = ring.get() + ((next_out - r0) % R) * stride;
                            const double* Jb = ring.get() + ((next_out + fr - r0) % R) * stride;
                            double* tr = t.get();
                            for (int64_t c = 0; c < n; ++c) {
                                const double s = ((Jb[c + fc] - Jt[c + fc]) - Jb[c]) + Jt[c];
                                tr[c] = ipt::frontend::adaptthresh_clip(s * norm);
                            }
                            emit(next_out, static_cast<const double*>(tr));
                        }
                    }
                });
            });
        }
    });
}

inline void adaptthresh_into(const ipt::frontend::AdaptthreshPlan& p, double* T) {
    const int64_t n = p.rows * p.cols;
    if (n == 0) return;
    if (p.statistic == ipt::frontend::AdaptStatistic::Mean) {
        adaptthresh_mean_rows(p, [&](int64_t r, const double* t) { std::memcpy(T + r * p.cols, t, sizeof(double) * p.cols); });
        return;
    }
    std::vector<double> unit(static_cast<size_t>(n));
    visit_dtype(p.dtype, [&](auto tag) {
        using V = decltype(tag);
        if constexpr (!std::is_same_v<V, bool>) {
            const V* in = static_cast<const V*>(p.I->data);
            parallel_for(0, n, [&](int64_t i) { unit[i] = ipt::frontend::adaptthresh_unit(in[i]); }, 4096);
        }
    });
    std::vector<double> stat(static_cast<size_t>(n));
    if (p.statistic == ipt::frontend::AdaptStatistic::Median)
        order::filter(unit.data(), stat.data(), p.rows, p.cols,
                      order::full_domain(p.window_rows, p.window_cols, p.centre_row, p.centre_col), p.order - 1,
                      p.median_pad);
    else
        adaptthresh_gauss(p.gauss, unit.data(), stat.data());
    parallel_for(0, n, [&](int64_t i) { T[i] = ipt::frontend::adaptthresh_clip(p.scale * stat[i]); }, 4096);
}

}  // namespace ipt::cpu
