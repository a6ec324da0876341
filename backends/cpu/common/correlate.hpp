// SPDX-License-Identifier: Apache-2.0
// The 2-D correlation engine shared by conv2, imfilter and edge.
//
//   out(r, c) = sum over taps (i, j) of w(i, j) * P(r + i, c + j)
//
// where P is a "padded source" that the caller produces one row at a time
// (so padding rules, class conversion and channel selection stay with the
// operator). Work is split into bands of output rows: each thread fills the
// band's padded rows into a buffer that stays in L2, filters them, and hands
// finished rows back for storing. Rank-1 kernels run as a column pass then a
// row pass (MATLAB's conv2(u,v,A) order).
//
// Accuracy: a kernel row's taps are summed into a partial sum first, and the
// partial sums are then added, so with n_r kernel rows and n_c taps per row
// the result is within gamma(n_r + n_c) * sum|w| |P| of the exact value
// (gamma(k) = k u / (1 - k u), u = eps(Acc)/2), not gamma(n_r * n_c).
//
// Taps whose weight is exactly 0 are dropped: MATLAB's imfilter uses only the
// nonzero taps of h, so a NaN or Inf in the image does not spread through a
// zero weight. (conv2 keeps the dense semantics through its own exact path.)
//
// The inner loops are written with GCC vector extensions and compiled three
// times (AVX-512, AVX2+FMA, SSE2); the widest one the CPU supports is used.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include "isa.hpp"
#include "rank1.hpp"
#include "parallel.hpp"

namespace ipt::cpu {

// The nonzero taps of a correlation kernel, grouped by kernel row.
template <class Acc>
struct TapKernel {
    struct Row {
        int32_t row;          // kernel row (offset added to the output row)
        int32_t begin, end;   // range in col / w
    };
    int64_t rows = 0, cols = 0;  // extent of the kernel (the support)
    std::vector<Row> tap_rows;
    std::vector<int32_t> col;
    std::vector<Acc> w;

    bool empty() const { return tap_rows.empty(); }
};

// From row-major values; `rotate` turns a convolution kernel into the
// correlation kernel (rotation by 180 degrees).
template <class Acc, class Src>
TapKernel<Acc> make_tap_kernel(const Src* values, int64_t rows, int64_t cols, bool rotate) {
    TapKernel<Acc> k;
    k.rows = rows;
    k.cols = cols;
    for (int64_t i = 0; i < rows; ++i) {
        const int32_t begin = static_cast<int32_t>(k.col.size());
        for (int64_t j = 0; j < cols; ++j) {
            const int64_t si = rotate ? rows - 1 - i : i, sj = rotate ? cols - 1 - j : j;
            const Acc v = static_cast<Acc>(values[si * cols + sj]);
            if (v == Acc(0)) continue;
            k.col.push_back(static_cast<int32_t>(j));
            k.w.push_back(v);
        }
        const int32_t end = static_cast<int32_t>(k.col.size());
        if (end > begin) k.tap_rows.push_back({static_cast<int32_t>(i), begin, end});
    }
    return k;
}

// The rank-1 test is shared by every backend (backends/common/rank1.hpp).
using ipt::common::Rank1;

namespace correlate_detail {

template <class T, int VB>
struct VecOf {
    typedef T type __attribute__((vector_size(VB)));
};
template <class T, int VB>
using vec_t = typename VecOf<T, VB>::type;

// (By reference: returning a vector type from a function compiled for a
// narrower ISA would change the ABI.)
template <class V, class T>
IPT_ALWAYS_INLINE void load(V& v, const T* p) {
    std::memcpy(&v, p, sizeof v);
}
template <class V, class T>
IPT_ALWAYS_INLINE void store(T* p, const V& v) {
    std::memcpy(p, &v, sizeof v);
}

// NV vectors of output starting at s (the padded source at the output's
// first column) and o.
template <class Acc, int VB, int NV>
IPT_ALWAYS_INLINE void chunk(const Acc* s, int64_t stride, const TapKernel<Acc>& k, Acc* o) {
    using V = vec_t<Acc, VB>;
    constexpr int L = VB / static_cast<int>(sizeof(Acc));
    V acc[NV];
    for (int n = 0; n < NV; ++n) acc[n] = V{};
    const int32_t* col = k.col.data();
    const Acc* w = k.w.data();
    for (const auto& kr : k.tap_rows) {
        const Acc* si = s + kr.row * stride;
        if (kr.end - kr.begin == 1) {
            const V wv = V{} + w[kr.begin];
            const Acc* p = si + col[kr.begin];
            for (int n = 0; n < NV; ++n) {
                V x;
                load(x, p + n * L);
                acc[n] += wv * x;
            }
            continue;
        }
        V part[NV];
        for (int n = 0; n < NV; ++n) part[n] = V{};
        for (int32_t t = kr.begin; t < kr.end; ++t) {
            const V wv = V{} + w[t];
            const Acc* p = si + col[t];
            for (int n = 0; n < NV; ++n) {
                V x;
                load(x, p + n * L);
                part[n] += wv * x;
            }
        }
        for (int n = 0; n < NV; ++n) acc[n] += part[n];
    }
    for (int n = 0; n < NV; ++n) store(o + n * L, acc[n]);
}

template <class Acc>
IPT_ALWAYS_INLINE Acc scalar_tap_sum(const Acc* s, int64_t stride, const TapKernel<Acc>& k) {
    Acc acc = 0;
    for (const auto& kr : k.tap_rows) {
        const Acc* si = s + kr.row * stride;
        if (kr.end - kr.begin == 1) {
            acc += k.w[kr.begin] * si[k.col[kr.begin]];
            continue;
        }
        Acc part = 0;
        for (int32_t t = kr.begin; t < kr.end; ++t) part += k.w[t] * si[k.col[t]];
        acc += part;
    }
    return acc;
}

template <class Acc, int VB>
IPT_ALWAYS_INLINE void rows_impl(const Acc* src, int64_t src_stride, const TapKernel<Acc>& k,
                                 int64_t nrows, int64_t ncols, Acc* out, int64_t out_stride) {
    constexpr int L = VB / static_cast<int>(sizeof(Acc));
    constexpr int NV = 4;
    for (int64_t r = 0; r < nrows; ++r) {
        const Acc* s = src + r * src_stride;
        Acc* o = out + r * out_stride;
        if (k.empty()) {
            std::fill(o, o + ncols, Acc(0));
            continue;
        }
        int64_t c = 0;
        for (; c + NV * L <= ncols; c += NV * L) chunk<Acc, VB, NV>(s + c, src_stride, k, o + c);
        for (; c + L <= ncols; c += L) chunk<Acc, VB, 1>(s + c, src_stride, k, o + c);
        for (; c < ncols; ++c) o[c] = scalar_tap_sum(s + c, src_stride, k);
    }
}

template <class Acc>
__attribute__((target("avx512f,avx512dq"))) void rows_avx512(const Acc* src, int64_t ss, const TapKernel<Acc>& k,
                                                    int64_t nr, int64_t nc, Acc* out, int64_t os) {
    rows_impl<Acc, 64>(src, ss, k, nr, nc, out, os);
}
template <class Acc>
__attribute__((target("avx2,fma"))) void rows_avx2(const Acc* src, int64_t ss, const TapKernel<Acc>& k,
                                                   int64_t nr, int64_t nc, Acc* out, int64_t os) {
    rows_impl<Acc, 32>(src, ss, k, nr, nc, out, os);
}
template <class Acc>
void rows_sse2(const Acc* src, int64_t ss, const TapKernel<Acc>& k, int64_t nr, int64_t nc, Acc* out,
               int64_t os) {
    rows_impl<Acc, 16>(src, ss, k, nr, nc, out, os);
}

}  // namespace correlate_detail

// out(r, c) = sum_taps w * src(r + i, c + j) for r < nrows, c < ncols.
// src must have nrows + k.rows - 1 readable rows of ncols + k.cols - 1 values.
template <class Acc>
void correlate_rows(const Acc* src, int64_t src_stride, const TapKernel<Acc>& k, int64_t nrows,
                    int64_t ncols, Acc* out, int64_t out_stride) {
    switch (isa_level()) {
    case 2: correlate_detail::rows_avx512(src, src_stride, k, nrows, ncols, out, out_stride); break;
    case 1: correlate_detail::rows_avx2(src, src_stride, k, nrows, ncols, out, out_stride); break;
    default: correlate_detail::rows_sse2(src, src_stride, k, nrows, ncols, out, out_stride); break;
    }
}

// A filter ready to run: either one 2-D kernel or a column kernel followed by
// a row kernel.
template <class Acc>
struct FilterPlan {
    int64_t krows = 1, kcols = 1;   // support of the whole filter
    bool separable = false;
    TapKernel<Acc> full;            // when !separable
    TapKernel<Acc> column, row;     // when separable: krows x 1 and 1 x kcols
};

// Correlation plan from row-major taps (double), rotated for convolution.
// With allow_separable, a kernel that is exactly rank 1 (to 4 eps per tap)
// and large enough for the two passes to pay runs separably.
template <class Acc, class Src>
FilterPlan<Acc> make_filter_plan(const Src* h, int64_t rows, int64_t cols, bool rotate,
                                 bool allow_separable) {
    FilterPlan<Acc> plan;
    plan.krows = rows;
    plan.kcols = cols;
    // Two passes cost rows + cols taps and an extra sweep; measured to pay
    // from 3x3 up on this engine (see docs/cpu-backend.md).
    if (allow_separable) {
        Rank1 f = ipt::common::separable_route(h, rows, cols, rotate);
        if (f.ok) {
            plan.separable = true;
            plan.column = make_tap_kernel<Acc>(f.u.data(), rows, 1, false);
            plan.row = make_tap_kernel<Acc>(f.v.data(), 1, cols, false);
            return plan;
        }
    }
    plan.full = make_tap_kernel<Acc>(h, rows, cols, rotate);
    return plan;
}

// Separable plan from a column vector u and a row vector v given as
// convolution kernels (conv2(u,v,A)).
template <class Acc, class Src>
FilterPlan<Acc> make_separable_plan(const Src* u, int64_t nu, const Src* v, int64_t nv, bool rotate) {
    FilterPlan<Acc> plan;
    plan.krows = nu;
    plan.kcols = nv;
    plan.separable = true;
    plan.column = make_tap_kernel<Acc>(u, nu, 1, rotate);
    plan.row = make_tap_kernel<Acc>(v, 1, nv, rotate);
    return plan;
}

namespace correlate_detail {

// Per-thread scratch of the band driver, kept between calls (per calling
// thread) so that large calls do not page-fault fresh buffers every time.
template <class Acc>
struct BandScratch {
    std::vector<Acc> padded, mid, out;
};
template <class Acc>
std::vector<BandScratch<Acc>>& band_scratch(size_t workers) {
    thread_local std::vector<BandScratch<Acc>> pool;
    if (pool.size() < workers) pool.resize(workers);
    return pool;
}
template <class Acc>
void ensure(std::vector<Acc>& v, int64_t n) {
    if (static_cast<int64_t>(v.size()) < n) v.resize(static_cast<size_t>(n));
}

template <class Acc, class Fill, class Store>
void run_bands(const FilterPlan<Acc>& plan, int64_t out_rows, int64_t out_cols, Fill& fill, Store& store,
               Acc* direct, int64_t direct_stride) {
    if (out_rows <= 0 || out_cols <= 0) return;
    const int64_t kr = plan.krows, kc = plan.kcols;
    const int64_t pcols = out_cols + kc - 1;
    // Bands of output rows sized so the padded rows stay in L2 (512 KiB), but
    // enough of them for every thread.
    const int threads = thread_count();
    const int64_t row_bytes = pcols * static_cast<int64_t>(sizeof(Acc));
    int64_t band = (512 * 1024) / std::max<int64_t>(row_bytes, 1) - (kr - 1);
    band = std::max<int64_t>(band, std::min<int64_t>(std::max<int64_t>(kr, 8), 256));
    band = std::min(band, (out_rows + threads - 1) / threads);
    band = std::max<int64_t>(band, 1);
    const int64_t nbands = (out_rows + band - 1) / band;
    const int64_t workers = std::min<int64_t>(threads, nbands);

    // Allocation happens here, outside the parallel region (no exception may
    // leave an OpenMP region).
    auto& scratch = band_scratch<Acc>(static_cast<size_t>(workers));
    for (int64_t t = 0; t < workers; ++t) {
        auto& s = scratch[static_cast<size_t>(t)];
        ensure(s.padded, (band + kr - 1) * pcols);
        if (plan.separable) ensure(s.mid, pcols);
        if (!direct) ensure(s.out, band * out_cols);
    }

    parallel_for(0, workers, [&](int64_t t) {
        auto& s = scratch[static_cast<size_t>(t)];
        const int64_t b0 = nbands * t / workers, b1 = nbands * (t + 1) / workers;
        for (int64_t b = b0; b < b1; ++b) {
            const int64_t r0 = b * band;
            const int64_t n = std::min(band, out_rows - r0);
            for (int64_t p = 0; p < n + kr - 1; ++p) fill(r0 + p, s.padded.data() + p * pcols);
            Acc* out = direct ? direct + r0 * direct_stride : s.out.data();
            const int64_t ostride = direct ? direct_stride : out_cols;
            if (plan.separable) {
                // Column pass into one row that stays in L1, then the row pass.
                for (int64_t r = 0; r < n; ++r) {
                    correlate_rows(s.padded.data() + r * pcols, pcols, plan.column, 1, pcols, s.mid.data(), pcols);
                    correlate_rows(s.mid.data(), pcols, plan.row, 1, out_cols, out + r * ostride, ostride);
                }
            } else {
                correlate_rows(s.padded.data(), pcols, plan.full, n, out_cols, out, ostride);
            }
            if (!direct)
                for (int64_t r = 0; r < n; ++r) store(r0 + r, s.out.data() + r * out_cols);
        }
    });
    // Keep at most 64 MiB of scratch between calls (huge kernels need more).
    size_t kept = 0;
    for (const auto& s : scratch) kept += (s.padded.capacity() + s.mid.capacity() + s.out.capacity()) * sizeof(Acc);
    if (kept > (size_t{64} << 20)) scratch.clear();
}

}  // namespace correlate_detail

// Runs a plan over out_rows x out_cols outputs.
//   fill(padded_row, Acc* dst): writes the out_cols + kcols - 1 values of a
//       padded-source row (rows 0 .. out_rows + krows - 2);
//   store(out_row, const Acc* values): takes out_cols finished values.
// Both are called from several threads at once and must not throw.
template <class Acc, class Fill, class Store>
void run_filter_plan(const FilterPlan<Acc>& plan, int64_t out_rows, int64_t out_cols, Fill&& fill,
                     Store&& store) {
    correlate_detail::run_bands(plan, out_rows, out_cols, fill, store, static_cast<Acc*>(nullptr), 0);
}

// The same, writing straight into a row-major output of the accumulation type.
template <class Acc, class Fill>
void run_filter_plan_into(const FilterPlan<Acc>& plan, int64_t out_rows, int64_t out_cols, Fill&& fill,
                          Acc* out, int64_t out_stride) {
    auto no_store = [](int64_t, const Acc*) {};
    correlate_detail::run_bands(plan, out_rows, out_cols, fill, no_store, out, out_stride);
}

}  // namespace ipt::cpu
