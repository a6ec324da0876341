// SPDX-License-Identifier: Apache-2.0
// ipt.imgaussfilt: B = imgaussfilt(A, sigma, ...), the route and the taps as
// the front-end plans them (common/ops/imgaussfilt.hpp,
// docs/matlab-semantics.md#imgaussfilt), on the shared correlation engine
// (common/correlate.hpp), plane by plane.
//
// Direct route: imfilter's arithmetic with the 2-D kernel (single in single,
// every other class in double, the engine's rank-1 split included).
// Separable route: the padded image in the working class, a column pass then
// a row pass in that class (MATLAB's conv2(hcol, hrow, A)), each tap summed in
// order, then rounded to A's class.
//
// A rank-1 plan (either route) skips the padded rows: the column pass reads
// A's rows directly over A's columns (a padded column repeats a column of A,
// or holds the constant, so its column sum is one of those), the border
// columns are copied or take the constant's sum, then the engine's row pass.
// Every value is the same sum of the same products in the same order.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "common/convert.hpp"
#include "common/correlate.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/ops/imgaussfilt.hpp"
#include "common/padding.hpp"
#include "common/single_first.hpp"
#include "common/parallel.hpp"

namespace {

using ipt::cpu::Border;
using ipt::frontend::ImgaussfiltPlan;

// Single-first filtering (common/single_first.hpp) where its margin is below
// this: a wider one would flag more than 2 % of the outputs.
constexpr float kMaxSingleFirstMargin = 0.01f;

template <class Acc, int VB>
using vec_t = ipt::cpu::correlate_detail::vec_t<Acc, VB>;

// out[j] = sum over taps t in order of w[t] * src[t][j] for j < n, from
// +0; a null src[t] is a row of `pad`.
template <class Acc, int VB>
IPT_ALWAYS_INLINE void column_pass_impl(const Acc* const* src, const Acc* w, int64_t taps, Acc pad, int64_t n,
                                        Acc* out) {
    using V = vec_t<Acc, VB>;
    constexpr int L = VB / static_cast<int>(sizeof(Acc));
    constexpr int NV = 4;
    int64_t j = 0;
    for (; j + NV * L <= n; j += NV * L) {
        V acc[NV];
        for (int v = 0; v < NV; ++v) acc[v] = V{};
        for (int64_t t = 0; t < taps; ++t) {
            const V wv = V{} + w[t];
            if (const Acc* s = src[t]) {
                for (int v = 0; v < NV; ++v) {
                    V x;
                    std::memcpy(&x, s + j + v * L, sizeof x);
                    acc[v] += wv * x;
                }
            } else {
                const V pv = V{} + pad;
                for (int v = 0; v < NV; ++v) acc[v] += wv * pv;
            }
        }
        for (int v = 0; v < NV; ++v) std::memcpy(out + j + v * L, &acc[v], sizeof acc[v]);
    }
    for (; j < n; ++j) {
        Acc acc = 0;
        for (int64_t t = 0; t < taps; ++t) acc += w[t] * (src[t] ? src[t][j] : pad);
        out[j] = acc;
    }
}

template <class Acc>
__attribute__((target("avx512f,avx512dq"))) void column_pass_avx512(const Acc* const* src, const Acc* w,
                                                                   int64_t taps, Acc pad, int64_t n, Acc* out) {
    column_pass_impl<Acc, 64>(src, w, taps, pad, n, out);
}
template <class Acc>
__attribute__((target("avx2"))) void column_pass_avx2(const Acc* const* src, const Acc* w, int64_t taps, Acc pad,
                                                      int64_t n, Acc* out) {
    column_pass_impl<Acc, 32>(src, w, taps, pad, n, out);
}
template <class Acc>
void column_pass_base(const Acc* const* src, const Acc* w, int64_t taps, Acc pad, int64_t n, Acc* out) {
    column_pass_impl<Acc, 16>(src, w, taps, pad, n, out);
}

// Integer classes: the image in strips of up to 2048 columns and blocks of
// rows. A's rows are read whole where they fit, in the order the hardware
// prefetcher follows (strips of 256 columns, which kept the work in L1, read A
// in pieces 2 KiB apart and took 15 % longer at 2048² and 8192²); the
// converted rows and column sums of a strip (about 100 KiB a thread) stay in
// L2. The column pass works on several output rows at once (each row read is
// used for all of them), and the row pass rounds in registers. A padded
// column's values are gathered into the strip's rows, so its column sum is the
// one the rank-1 plan above copies or takes as the constant's sum. The sums
// above start from +0 and these from the first product, which changes only the
// sign of a zero sum; an integer output cannot show it. Every other operation
// is the same, in the same order.

// mid[k][j] = sum over taps t in order of w[t] * rows[k + off[t]][j], for
// k < R and the NW vectors of columns from j.
template <class Acc, int VB, int R, int NW>
IPT_ALWAYS_INLINE void column_chunk(const Acc* const* rows, const int64_t* off, const Acc* w, int64_t taps,
                                    int64_t j, Acc* const* mid) {
    using V = vec_t<Acc, VB>;
    constexpr int L = VB / static_cast<int>(sizeof(Acc));
    V acc[R][NW];
    {
        const V wv = V{} + w[0];
        for (int k = 0; k < R; ++k) {
            const Acc* s = rows[k + off[0]] + j;
            for (int v = 0; v < NW; ++v) {
                V x;
                std::memcpy(&x, s + v * L, sizeof x);
                acc[k][v] = wv * x;
            }
        }
    }
    for (int64_t t = 1; t < taps; ++t) {
        const V wv = V{} + w[t];
        for (int k = 0; k < R; ++k) {
            const Acc* s = rows[k + off[t]] + j;
            for (int v = 0; v < NW; ++v) {
                V x;
                std::memcpy(&x, s + v * L, sizeof x);
                acc[k][v] += wv * x;
            }
        }
    }
    for (int k = 0; k < R; ++k)
        for (int v = 0; v < NW; ++v) std::memcpy(mid[k] + j + v * L, &acc[k][v], sizeof acc[k][v]);
}

// The same where the taps are kernel rows 0 .. taps-1: each row is loaded once
// for the R outputs that use it (output k takes row s as tap s - k).
template <class Acc, int VB, int R, int NW>
IPT_ALWAYS_INLINE void column_chunk_dense(const Acc* const* rows, const Acc* w, int64_t taps, int64_t j,
                                          Acc* const* mid) {
    using V = vec_t<Acc, VB>;
    constexpr int L = VB / static_cast<int>(sizeof(Acc));
    V acc[R][NW];
    for (int k = 0; k < R; ++k)
        for (int v = 0; v < NW; ++v) acc[k][v] = V{};
    for (int64_t s = 0; s < taps + R - 1; ++s) {
        V x[NW];
        for (int v = 0; v < NW; ++v) std::memcpy(&x[v], rows[s] + j + v * L, sizeof x[v]);
        for (int k = 0; k < R; ++k) {
            const int64_t t = s - k;
            if (t < 0 || t >= taps) continue;
            const V wv = V{} + w[t];
            if (t == 0)
                for (int v = 0; v < NW; ++v) acc[k][v] = wv * x[v];
            else
                for (int v = 0; v < NW; ++v) acc[k][v] += wv * x[v];
        }
    }
    for (int k = 0; k < R; ++k)
        for (int v = 0; v < NW; ++v) std::memcpy(mid[k] + j + v * L, &acc[k][v], sizeof acc[k][v]);
}

// The column pass of R consecutive output rows over n columns: output row k
// reads rows[k + off[t]].
template <class Acc, int VB, int R>
IPT_ALWAYS_INLINE void column_rows_impl(const Acc* const* rows, const int64_t* off, const Acc* w, int64_t taps,
                                        int64_t n, Acc* const* mid) {
    constexpr int L = VB / static_cast<int>(sizeof(Acc));
    constexpr int NV = VB == 64 ? 4 : 2;
    int64_t j = 0;
    bool dense = R > 1;
    for (int64_t t = 0; t < taps && dense; ++t) dense = off[t] == t;
    if (dense) {
        for (; j + NV * L <= n; j += NV * L) column_chunk_dense<Acc, VB, R, NV>(rows, w, taps, j, mid);
        for (; j + L <= n; j += L) column_chunk_dense<Acc, VB, R, 1>(rows, w, taps, j, mid);
    }
    for (; j + NV * L <= n; j += NV * L) column_chunk<Acc, VB, R, NV>(rows, off, w, taps, j, mid);
    for (; j + L <= n; j += L) column_chunk<Acc, VB, R, 1>(rows, off, w, taps, j, mid);
    for (; j < n; ++j)
        for (int k = 0; k < R; ++k) {
            Acc acc = w[0] * rows[k + off[0]][j];
            for (int64_t t = 1; t < taps; ++t) acc += w[t] * rows[k + off[t]][j];
            mid[k][j] = acc;
        }
}

// T's value of a double: common/convert.hpp's rule (clamp, NaN -> 0, round
// half away from zero), in L lanes.
template <class T, int VB>
IPT_ALWAYS_INLINE void store_rounded(const vec_t<double, VB>& v, T* dst) {
    using V = vec_t<double, VB>;
    constexpr int L = VB / 8;
    using I = std::conditional_t<(sizeof(T) < 4) || std::is_same_v<T, int32_t>, int32_t, int64_t>;
    typedef I IV __attribute__((vector_size(L * sizeof(I))));
    typedef T TV __attribute__((vector_size(L * sizeof(T))));
    const V lo = V{} + static_cast<double>(std::numeric_limits<T>::lowest());
    const V hi = V{} + static_cast<double>(std::numeric_limits<T>::max());
    const V half = V{} + 0.49999999999999994;
    // (NaN takes lo here, then 0; for an unsigned class lo is 0. The sign
    // of half follows c but for c = -0, where both give an integer 0.)
    V c = v > lo ? v : lo;
    c = c < hi ? c : hi;
    if constexpr (std::is_signed_v<T>) {
        c = v == v ? c : V{};
        c += c < V{} ? -half : half;
    } else {
        c += half;
    }
    const TV t = __builtin_convertvector(__builtin_convertvector(c, IV), TV);
    std::memcpy(dst, &t, sizeof t);
}

template <class T>
IPT_ALWAYS_INLINE T rounded(double v) {
    constexpr double lo = static_cast<double>(std::numeric_limits<T>::lowest());
    constexpr double hi = static_cast<double>(std::numeric_limits<T>::max());
    using I = std::conditional_t<(sizeof(T) < 4) || std::is_same_v<T, int32_t>, int32_t, int64_t>;
    double c = v < lo ? lo : v;
    c = c > hi ? hi : c;
    c = v == v ? c : 0.0;
    return static_cast<T>(static_cast<I>(__builtin_trunc(c + __builtin_copysign(0.49999999999999994, c))));
}

// out[c] = T(sum over taps t in order of w[t] * m[c + col[t]]), c < n
// (double); Acc's sums for single, rounded afterwards by convert_row.
template <class T, class Acc, int VB>
IPT_ALWAYS_INLINE void row_pass_impl(const Acc* m, const int32_t* col, const Acc* w, int64_t taps, int64_t n,
                                     T* out, Acc* tmp) {
    using V = vec_t<Acc, VB>;
    constexpr int L = VB / static_cast<int>(sizeof(Acc));
    // Independent sums enough to hide the latency of the additions.
    constexpr int NV = VB == 64 ? 8 : 4;
    constexpr bool fused = std::is_same_v<Acc, double>;
    int64_t c = 0;
    for (; c + NV * L <= n; c += NV * L) {
        V acc[NV];
        const V w0 = V{} + w[0];
        for (int v = 0; v < NV; ++v) {
            V x;
            std::memcpy(&x, m + c + col[0] + v * L, sizeof x);
            acc[v] = w0 * x;
        }
        for (int64_t t = 1; t < taps; ++t) {
            const V wv = V{} + w[t];
            for (int v = 0; v < NV; ++v) {
                V x;
                std::memcpy(&x, m + c + col[t] + v * L, sizeof x);
                acc[v] += wv * x;
            }
        }
        for (int v = 0; v < NV; ++v) {
            if constexpr (fused) store_rounded<T, VB>(acc[v], out + c + v * L);
            else std::memcpy(tmp + c + v * L, &acc[v], sizeof acc[v]);
        }
    }
    for (; c < n; ++c) {
        Acc acc = w[0] * m[c + col[0]];
        for (int64_t t = 1; t < taps; ++t) acc += w[t] * m[c + col[t]];
        if constexpr (fused) out[c] = rounded<T>(acc);
        else tmp[c] = acc;
    }
    if constexpr (!fused) ipt::cpu::convert_row(tmp, out, n);
}

constexpr int kIntRowsAvx512 = 4, kIntRowsAvx2 = 4, kIntRowsBase = 2;

template <class Acc>
__attribute__((target("avx512f,avx512dq"))) void column_rows_avx512(const Acc* const* rows, const int64_t* off,
                                                                   const Acc* w, int64_t taps, int64_t n,
                                                                   Acc* const* mid, bool full) {
    if (full) column_rows_impl<Acc, 64, kIntRowsAvx512>(rows, off, w, taps, n, mid);
    else column_rows_impl<Acc, 64, 1>(rows, off, w, taps, n, mid);
}
template <class Acc>
__attribute__((target("avx2"))) void column_rows_avx2(const Acc* const* rows, const int64_t* off, const Acc* w,
                                                      int64_t taps, int64_t n, Acc* const* mid, bool full) {
    if (full) column_rows_impl<Acc, 32, kIntRowsAvx2>(rows, off, w, taps, n, mid);
    else column_rows_impl<Acc, 32, 1>(rows, off, w, taps, n, mid);
}
template <class Acc>
void column_rows_base(const Acc* const* rows, const int64_t* off, const Acc* w, int64_t taps, int64_t n,
                      Acc* const* mid, bool full) {
    if (full) column_rows_impl<Acc, 16, kIntRowsBase>(rows, off, w, taps, n, mid);
    else column_rows_impl<Acc, 16, 1>(rows, off, w, taps, n, mid);
}
template <class T, class Acc>
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) void row_pass_avx512(
    const Acc* m, const int32_t* col, const Acc* w, int64_t taps, int64_t n, T* out, Acc* tmp) {
    row_pass_impl<T, Acc, 64>(m, col, w, taps, n, out, tmp);
}
template <class T, class Acc>
__attribute__((target("avx2"))) void row_pass_avx2(const Acc* m, const int32_t* col, const Acc* w, int64_t taps,
                                                   int64_t n, T* out, Acc* tmp) {
    row_pass_impl<T, Acc, 32>(m, col, w, taps, n, out, tmp);
}
template <class T, class Acc>
void row_pass_base(const Acc* m, const int32_t* col, const Acc* w, int64_t taps, int64_t n, T* out, Acc* tmp) {
    row_pass_impl<T, Acc, 16>(m, col, w, taps, n, out, tmp);
}

// The column kernel's taps (one per kernel row, in order) and their rows.
template <class Acc>
void column_taps(const ipt::cpu::TapKernel<Acc>& ck, std::vector<Acc>& w, std::vector<int64_t>& offset) {
    const size_t taps = ck.tap_rows.size();
    w.resize(taps);
    offset.resize(taps);
    for (size_t t = 0; t < taps; ++t) {
        w[t] = ck.w[static_cast<size_t>(ck.tap_rows[t].begin)];
        offset[t] = ck.tap_rows[t].row;
    }
}

// Single-first (common/single_first.hpp) through the rank-1 plan: the
// margin of its column and row taps, whose inputs are A's values and the
// padding constant; 0 where the constant is not exact in single or the
// margin would flag too many outputs (then the double passes run).
template <class T>
float separable_single_first_margin(const ipt::cpu::FilterPlan<double>& plan, double pad) {
    if (!(std::abs(pad) <= 0x1p24) || static_cast<double>(static_cast<float>(pad)) != pad) return 0;
    double col_sum = 0, row_sum = 0;
    for (double w : plan.column.w) col_sum += std::abs(w);
    for (double w : plan.row.w) row_sum += std::abs(w);
    const double magnitude = std::max(ipt::cpu::class_magnitude<T>(), std::abs(pad));
    const float m = ipt::cpu::single_first_margin(magnitude, col_sum * row_sum, plan.krows, plan.kcols);
    return m < kMaxSingleFirstMargin ? m : 0;
}

// The rank-1 plan for an integer class (see above), summed in Work: Acc, or
// single (single-first, with `margin`), each flagged output then summed in
// double from the same converted rows, in the order of the double passes.
template <class T, class Acc, class Work = Acc>
void filter_separable_int(const ImgaussfiltPlan& p, const ipt::cpu::FilterPlan<Acc>& plan, Acc pad,
                          const std::vector<int64_t>& colmap, T* B, float margin = 0) {
    constexpr bool single_first = !std::is_same_v<Work, Acc>;
    const int64_t ma = p.rows, na = p.cols, kc = plan.kcols, kr = plan.krows;
    const Border border = ipt::frontend::border_as<Border>(p.boundary);
    const ipt::cpu::TapKernel<Acc>& ck = plan.column;
    const ipt::cpu::TapKernel<Acc>& rk = plan.row;
    const int64_t taps = static_cast<int64_t>(ck.tap_rows.size());
    std::vector<Acc> w;
    std::vector<int64_t> offset;
    column_taps(ck, w, offset);
    // The row kernel is one kernel row (1 x kc).
    const int32_t* rcol = rk.col.data();
    const int64_t rtaps = static_cast<int64_t>(rk.w.size());
    const std::vector<Work> ww(w.begin(), w.end()), rww(rk.w.begin(), rk.w.end());
    const Work wpad = static_cast<Work>(pad);
    const int level = ipt::cpu::isa_level();
    const int64_t R = level == 2 ? kIntRowsAvx512 : level == 1 ? kIntRowsAvx2 : kIntRowsBase;
    // Strips of kStrip output columns and blocks of kBlock output rows.
    constexpr int64_t kStrip = 2048, kBlock = 64;
    const int64_t strips = (na + kStrip - 1) / kStrip, blocks = (ma + kBlock - 1) / kBlock;
    // Padded columns of a strip, and as many more as make whole vectors of
    // single (zeros, whose sums nothing reads): no scalar tail.
    constexpr int64_t kLanes = 16;
    const int64_t wmax = (std::min(na, kStrip) + kc - 1 + kLanes - 1) / kLanes * kLanes;
    const int64_t win = kr + R - 1;  // padded rows the column pass reads
    const std::vector<Work> pad_row(static_cast<size_t>(wmax), wpad);
    for (int64_t ch = 0; ch < p.channels; ++ch) {
        const T* A = static_cast<const T*>(p.A->data) + ch * ma * na;
        T* Bp = B + ch * ma * na;
        ipt::cpu::parallel_for(0, strips * blocks, [&](int64_t task) {
            const int64_t c0 = (task % strips) * kStrip, c1 = std::min(na, c0 + kStrip);
            const int64_t r0 = (task / strips) * kBlock, r1 = std::min(ma, r0 + kBlock);
            const int64_t wp = c1 - c0 + kc - 1;
            const int64_t wv = std::min(wmax, (wp + kLanes - 1) / kLanes * kLanes);
            thread_local std::vector<Work> store, mids, tmp, sums;
            if (store.size() < static_cast<size_t>(win * wmax)) store.resize(static_cast<size_t>(win * wmax));
            if (mids.size() < static_cast<size_t>(R * wmax)) mids.resize(static_cast<size_t>(R * wmax));
            if (tmp.size() < static_cast<size_t>(kStrip)) tmp.resize(static_cast<size_t>(kStrip));
            if (sums.size() < static_cast<size_t>(kStrip)) sums.resize(static_cast<size_t>(kStrip));
            // The strip's padded columns c0 .. c0 + wp - 1: A's columns
            // c0 + q - left for q in [qa, qb), the border's elsewhere.
            const int64_t* cm = colmap.data() + c0;
            const int64_t qa = std::min(wp, std::max<int64_t>(0, p.left - c0));
            const int64_t qb = std::max(qa, std::min(wp, p.left + na - c0));
            // A ring of the strip's padded rows (converted), padded row i in
            // slot i % win; ring[s] is the slot's row or the constant's row.
            thread_local std::vector<const Work*> ring, rows;
            ring.assign(static_cast<size_t>(win), nullptr);
            rows.resize(static_cast<size_t>(win));
            int64_t next = r0;
            Work* mid[8];
            for (int64_t k = 0; k < R; ++k) mid[k] = mids.data() + k * wmax;
            // Output k of the block at strip column c, in double: each column
            // sum from the first product, then the row sum, as the passes do.
            auto exact_at = [&](int64_t k, int64_t c) {
                Acc acc = 0;
                for (int64_t t = 0; t < rtaps; ++t) {
                    const int64_t q = c + rcol[t];
                    Acc col = w[0] * static_cast<Acc>(rows[static_cast<size_t>(k + offset[0])][q]);
                    for (int64_t u = 1; u < taps; ++u)
                        col += w[static_cast<size_t>(u)] * static_cast<Acc>(rows[static_cast<size_t>(k + offset[static_cast<size_t>(u)])][q]);
                    acc = t == 0 ? rk.w[0] * col : acc + rk.w[static_cast<size_t>(t)] * col;
                }
                return rounded<T>(acc);
            };
            for (int64_t r = r0; r < r1;) {
                const bool full = r + R <= r1;
                const int64_t nr = full ? R : 1;
                // Padded rows r .. r + nr + kr - 2.
                for (; next < r + nr + kr - 1; ++next) {
                    const int64_t s = next % win;
                    const int64_t ar = ipt::cpu::border_index(border, next - p.top, ma);
                    if (ar < 0) {
                        ring[static_cast<size_t>(s)] = pad_row.data();
                        continue;
                    }
                    Work* dst = store.data() + s * wmax;
                    const T* src = A + ar * na;
                    for (int64_t q = 0; q < qa; ++q) dst[q] = cm[q] < 0 ? wpad : static_cast<Work>(src[cm[q]]);
                    if (qb > qa) ipt::cpu::convert_row(src + (c0 + qa - p.left), dst + qa, qb - qa);
                    for (int64_t q = qb; q < wp; ++q) dst[q] = cm[q] < 0 ? wpad : static_cast<Work>(src[cm[q]]);
                    std::fill(dst + wp, dst + wv, Work(0));
                    ring[static_cast<size_t>(s)] = dst;
                }
                for (int64_t i = 0; i < nr + kr - 1; ++i) rows[static_cast<size_t>(i)] = ring[static_cast<size_t>((r + i) % win)];
                switch (level) {
                case 2: column_rows_avx512(rows.data(), offset.data(), ww.data(), taps, wv, mid, full); break;
                case 1: column_rows_avx2(rows.data(), offset.data(), ww.data(), taps, wv, mid, full); break;
                default: column_rows_base(rows.data(), offset.data(), ww.data(), taps, wv, mid, full); break;
                }
                for (int64_t k = 0; k < nr; ++k, ++r) {
                    T* out = Bp + r * na + c0;
                    const int64_t n = c1 - c0;
                    // The row pass into dst: T's values, or the single sums.
                    auto row_pass = [&](auto* dst) {
                        switch (level) {
                        case 2: row_pass_avx512(mid[k], rcol, rww.data(), rtaps, n, dst, tmp.data()); break;
                        case 1: row_pass_avx2(mid[k], rcol, rww.data(), rtaps, n, dst, tmp.data()); break;
                        default: row_pass_base(mid[k], rcol, rww.data(), rtaps, n, dst, tmp.data()); break;
                        }
                    };
                    if constexpr (single_first) {
                        row_pass(sums.data());
                        ipt::cpu::store_single_first(sums.data(), out, n, margin,
                                                     [&](int64_t c) { return exact_at(k, c); });
                    } else {
                        row_pass(out);
                    }
                }
            }
        });
    }
}

// The rank-1 plan without padded rows (see the top of the file).
template <class T, class Acc>
void filter_separable(const ImgaussfiltPlan& p, const ipt::cpu::FilterPlan<Acc>& plan, Acc pad,
                      const std::vector<int64_t>& colmap, T* B) {
    const int64_t ma = p.rows, na = p.cols, pcols = na + plan.kcols - 1;
    const Border border = ipt::frontend::border_as<Border>(p.boundary);
    // The column kernel: one tap per kernel row, in order.
    const ipt::cpu::TapKernel<Acc>& ck = plan.column;
    const int64_t taps = static_cast<int64_t>(ck.tap_rows.size());
    std::vector<Acc> w;
    std::vector<int64_t> offset;
    column_taps(ck, w, offset);
    // A padded column that holds the constant throughout.
    Acc pad_sum = 0;
    for (int64_t t = 0; t < taps; ++t) pad_sum += w[static_cast<size_t>(t)] * pad;
    const int level = ipt::cpu::isa_level();
    for (int64_t ch = 0; ch < p.channels; ++ch) {
        const T* A = static_cast<const T*>(p.A->data) + ch * ma * na;
        T* Bp = B + ch * ma * na;
        // Blocks of output rows; A's rows they read converted once into a
        // per-thread buffer (kept between calls) that stays in L2.
        constexpr int64_t kRows = 32;
        const int64_t kr = plan.krows;
        ipt::cpu::parallel_for(0, (ma + kRows - 1) / kRows, [&](int64_t blk) {
            const int64_t r0 = blk * kRows, r1 = std::min(ma, r0 + kRows);
            thread_local std::vector<Acc> mid, row, rows;
            if (mid.size() < static_cast<size_t>(pcols)) mid.resize(static_cast<size_t>(pcols));
            if (row.size() < static_cast<size_t>(na)) row.resize(static_cast<size_t>(na));
            // Padded row r0 + i, converted, or null where it holds the constant.
            std::vector<const Acc*> padded(static_cast<size_t>(r1 - r0 + kr - 1));
            if constexpr (!std::is_same_v<T, Acc>) {
                if (rows.size() < padded.size() * static_cast<size_t>(na)) rows.resize(padded.size() * static_cast<size_t>(na));
            }
            for (size_t i = 0; i < padded.size(); ++i) {
                const int64_t ar = ipt::cpu::border_index(border, r0 + static_cast<int64_t>(i) - p.top, ma);
                if (ar < 0) {
                    padded[i] = nullptr;
                } else if constexpr (std::is_same_v<T, Acc>) {
                    padded[i] = A + ar * na;
                } else {
                    Acc* dst = rows.data() + i * static_cast<size_t>(na);
                    ipt::cpu::convert_row(A + ar * na, dst, na);
                    padded[i] = dst;
                }
            }
            std::vector<const Acc*> src(static_cast<size_t>(taps));
            for (int64_t r = r0; r < r1; ++r) {
                for (int64_t t = 0; t < taps; ++t)
                    src[static_cast<size_t>(t)] = padded[static_cast<size_t>(r - r0 + offset[static_cast<size_t>(t)])];
                Acc* m = mid.data();
                switch (level) {
                case 2: column_pass_avx512(src.data(), w.data(), taps, pad, na, m + p.left); break;
                case 1: column_pass_avx2(src.data(), w.data(), taps, pad, na, m + p.left); break;
                default: column_pass_base(src.data(), w.data(), taps, pad, na, m + p.left); break;
                }
                for (int64_t q = 0; q < pcols; ++q) {
                    if (q == p.left) q += na;
                    if (q >= pcols) break;
                    const int64_t s = colmap[static_cast<size_t>(q)];
                    m[q] = s < 0 ? pad_sum : m[p.left + s];
                }
                if constexpr (std::is_same_v<T, Acc>) {
                    ipt::cpu::correlate_rows(m, pcols, plan.row, 1, na, Bp + r * na, na);
                } else {
                    ipt::cpu::correlate_rows(m, pcols, plan.row, 1, na, row.data(), na);
                    ipt::cpu::convert_row(row.data(), Bp + r * na, na);
                }
            }
        });
    }
}

template <class T, class Acc>
void filter(const ImgaussfiltPlan& p, const ipt::cpu::FilterPlan<Acc>& plan, T* B) {
    const int64_t ma = p.rows, na = p.cols;
    const Border border = ipt::frontend::border_as<Border>(p.boundary);
    // The constant in the class the padding happens in (A's or the working
    // class), then in the accumulation type.
    const Acc pad = p.separable ? static_cast<Acc>(p.pad_value)
                                : static_cast<Acc>(ipt::cpu::to_class<T>(p.pad_value));
    const int64_t pcols = na + p.kc - 1;
    std::vector<int64_t> colmap(static_cast<size_t>(pcols));
    for (int64_t q = 0; q < pcols; ++q) colmap[static_cast<size_t>(q)] = ipt::cpu::border_index(border, q - p.left, na);
    if (plan.separable) {
        // (An empty column or row kernel, all of whose taps are 0, stays
        // with the generic pass.)
        if constexpr (std::is_integral_v<T>) {
            if (!plan.column.empty() && plan.row.tap_rows.size() == 1) {
                if constexpr (ipt::cpu::kSingleFirst<T> && std::is_same_v<Acc, double>) {
                    if (const float margin = separable_single_first_margin<T>(plan, pad); margin > 0) {
                        filter_separable_int<T, Acc, float>(p, plan, pad, colmap, B, margin);
                        return;
                    }
                }
                filter_separable_int<T, Acc>(p, plan, pad, colmap, B);
                return;
            }
        }
        filter_separable<T, Acc>(p, plan, pad, colmap, B);
        return;
    }
    for (int64_t ch = 0; ch < p.channels; ++ch) {
        const T* A = static_cast<const T*>(p.A->data) + ch * ma * na;
        auto fill = [&](int64_t row, Acc* dst) {
            const int64_t r = ipt::cpu::border_index(border, row - p.top, ma);
            if (r < 0) {
                std::fill(dst, dst + pcols, pad);
                return;
            }
            const T* src = A + r * na;
            for (int64_t q = 0; q < pcols; ++q) {
                const int64_t s = colmap[static_cast<size_t>(q)];
                dst[q] = s < 0 ? pad : static_cast<Acc>(src[s]);
            }
        };
        T* Bp = B + ch * ma * na;
        if constexpr (std::is_same_v<T, Acc>) {
            ipt::cpu::run_filter_plan_into(plan, ma, na, fill, Bp, na);
        } else {
            auto store = [&](int64_t o, const Acc* v) { ipt::cpu::convert_row(v, Bp + o * na, na); };
            ipt::cpu::run_filter_plan(plan, ma, na, fill, store);
        }
    }
}

template <class T>
void run_class(const ImgaussfiltPlan& p, T* B) {
    if (p.separable) {
        if (p.work_class == IPT_SINGLE)
            filter<T, float>(p, ipt::cpu::make_separable_plan<float>(p.hcol.data(), p.kr, p.hrow.data(), p.kc, true),
                             B);
        else
            filter<T, double>(p, ipt::cpu::make_separable_plan<double>(p.hcol.data(), p.kr, p.hrow.data(), p.kc, true),
                              B);
    } else if (p.work_class == IPT_SINGLE) {
        filter<T, float>(p, ipt::cpu::make_filter_plan<float>(p.h.data(), p.kr, p.kc, true, true), B);
    } else {
        filter<T, double>(p, ipt::cpu::make_filter_plan<double>(p.h.data(), p.kr, p.kc, true, true), B);
    }
}

void run_imgaussfilt(const ipt::plugin::KernelArgs& args) {
    const ImgaussfiltPlan p = ipt::frontend::plan_imgaussfilt(args);
    const ipt_tensor* B = args.output("B", p.out_class, p.rows, p.cols, p.channels);
    if (p.rows * p.cols * p.channels == 0) return;
    ipt::cpu::visit_dtype(p.out_class, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (!std::is_same_v<T, bool>) run_class<T>(p, static_cast<T*>(B->data));
    });
}

}  // namespace

IPT_CPU_OP("ipt.imgaussfilt", "", 100, run_imgaussfilt)
