// SPDX-License-Identifier: Apache-2.0
// Flat and non-flat grayscale morphology on the CPU, shared by ipt.imdilate
// and ipt.imerode (docs/matlab-semantics.md#centre and #dilation-reflects).
//
// The front-end (backends/common/ops/imdilate.hpp) plans both as out(p) = op
// over the members d of A(p + d) (+ add(d)); pixels outside the image hold
// the plan's pad (the identity of op, never chosen), and NaN pixels are
// skipped like MATLAB's max/min do (treated as the identity).
//
// A flat SE runs as one pass per factor of the plan's decomposition: a factor
// that is a line (any direction, any period) is a line pass, anything else
// one pass over its horizontal runs. Each pass is a running
// max/min: short ones directly, longer ones by doubling (op over 2w from two
// windows of w, so a window of L costs log2(L) vector operations per pixel).
// Passes run on horizontal bands of the image padded with the identity by the
// whole SE extent (MATLAB pads the same way before applying a decomposed SE,
// so the result equals the one of the full neighbourhood), sized to stay in
// the L2 cache; the bands are shared among the threads.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "common/image.hpp"
#include "common/parallel.hpp"
#include "common/rounding.hpp"
#include "common/simd.hpp"
#include "common/work_blocks.hpp"
#include "common/ops/imdilate.hpp"
#include "strel.hpp"

namespace ipt::cpu::morph {

using common::StrelOffset;

// Element type the kernels compute in (logical is stored as bytes 0/1).
template <class T>
using work_t = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;

// max or min, written so that the compiler emits the packed max/min
// instructions (for floats: maxps(b, a) == (b > a ? b : a)).
template <bool IsMax>
struct Select {
    template <class W>
    static W apply(W a, W b) {
        if constexpr (IsMax)
            return b > a ? b : a;
        else
            return b < a ? b : a;
    }
};

// One pass: out(p) = op over d of in(p + d), where the offsets d are either a
// progression (start + k*step) or a list of horizontal runs.
struct Run {
    int64_t dr, dc, len;  // offsets (dr, dc .. dc+len-1)
};
struct Pass {
    bool is_line = true;
    common::StrelLine line;
    std::vector<Run> runs;
    int64_t rmin = 0, rmax = 0, cmin = 0, cmax = 0;  // extents of the offsets
    int64_t max_run = 1;
};

inline Pass line_pass(const common::StrelLine& line) {
    Pass p;
    p.is_line = true;
    p.line = line;
    // Normalise so that the progression goes down (or right on a row).
    if (p.line.step.dr < 0 || (p.line.step.dr == 0 && p.line.step.dc < 0)) {
        p.line.start = {line.start.dr + (line.count - 1) * line.step.dr,
                        line.start.dc + (line.count - 1) * line.step.dc};
        p.line.step = {-line.step.dr, -line.step.dc};
    }
    const StrelOffset end{p.line.start.dr + (p.line.count - 1) * p.line.step.dr,
                          p.line.start.dc + (p.line.count - 1) * p.line.step.dc};
    p.rmin = std::min(p.line.start.dr, end.dr);
    p.rmax = std::max(p.line.start.dr, end.dr);
    p.cmin = std::min(p.line.start.dc, end.dc);
    p.cmax = std::max(p.line.start.dc, end.dc);
    return p;
}

// Horizontal runs of a sorted (row-major) offset set.
inline Pass runs_pass(const std::vector<StrelOffset>& sorted) {
    Pass p;
    p.is_line = false;
    p.rmin = p.cmin = std::numeric_limits<int64_t>::max();
    p.rmax = p.cmax = std::numeric_limits<int64_t>::min();
    for (size_t i = 0; i < sorted.size();) {
        size_t j = i + 1;
        while (j < sorted.size() && sorted[j].dr == sorted[i].dr &&
               sorted[j].dc == sorted[j - 1].dc + 1)
            ++j;
        const Run run{sorted[i].dr, sorted[i].dc, static_cast<int64_t>(j - i)};
        p.runs.push_back(run);
        p.max_run = std::max(p.max_run, run.len);
        p.rmin = std::min(p.rmin, run.dr);
        p.rmax = std::max(p.rmax, run.dr);
        p.cmin = std::min(p.cmin, run.dc);
        p.cmax = std::max(p.cmax, run.dc + run.len - 1);
        i = j;
    }
    return p;
}

inline Pass pass_for(const std::vector<StrelOffset>& sorted) {
    if (auto line = common::strel_as_line(sorted)) return line_pass(*line);
    return runs_pass(sorted);
}

// One pass per factor of the plan's decomposition. No factor: no pass.
inline std::vector<Pass> plan(const std::vector<std::vector<StrelOffset>>& factors) {
    std::vector<Pass> passes;
    for (const auto& f : factors) passes.push_back(pass_for(f));
    return passes;
}

namespace detail {

// Rectangle [r0, r1) x [c0, c1) of band coordinates whose values are exact.
struct Region {
    int64_t r0, r1, c0, c1;
};

// Rows of a band: a band buffer, or the output image seen in band
// coordinates (base is band row r0, column c0).
template <class W>
struct View {
    W* base = nullptr;
    int64_t stride = 0, r0 = 0, c0 = 0;
    W* at(int64_t r, int64_t c) const { return base + ((r - r0) * stride + (c - c0)); }
};

// Row primitives the compiler vectorises. `out` never aliases the inputs.
template <class W, bool IsMax>
inline void sel2(W* __restrict out, const W* __restrict a, const W* __restrict b, int64_t n) {
    for (int64_t j = 0; j < n; ++j) out[j] = Select<IsMax>::apply(a[j], b[j]);
}
template <class W, bool IsMax>
inline void sel3(W* __restrict out, const W* __restrict a, const W* __restrict b, const W* __restrict c, int64_t n) {
    for (int64_t j = 0; j < n; ++j) out[j] = Select<IsMax>::apply(Select<IsMax>::apply(a[j], b[j]), c[j]);
}
template <class W, bool IsMax>
inline void sel4(W* __restrict out, const W* __restrict a, const W* __restrict b, const W* __restrict c,
                 const W* __restrict d, int64_t n) {
    for (int64_t j = 0; j < n; ++j)
        out[j] = Select<IsMax>::apply(Select<IsMax>::apply(a[j], b[j]), Select<IsMax>::apply(c[j], d[j]));
}
template <class W, bool IsMax>
inline void sel_into(W* __restrict out, const W* __restrict a, int64_t n) {
    for (int64_t j = 0; j < n; ++j) out[j] = Select<IsMax>::apply(out[j], a[j]);
}
template <class W>
inline void copy_row(W* __restrict out, const W* __restrict a, int64_t n) {
    std::memcpy(out, a, static_cast<size_t>(n) * sizeof(W));
}

// Windows of up to this many points are taken directly (one fused loop);
// longer ones by doubling.
constexpr int64_t kDirectMax = 4;

// out[j] = op over k < count of src[k] [j] (count <= kDirectMax).
template <class W, bool IsMax>
inline void direct(W* out, const W* const* src, int64_t count, int64_t n) {
    switch (count) {
    case 1: copy_row(out, src[0], n); break;
    case 2: sel2<W, IsMax>(out, src[0], src[1], n); break;
    case 3: sel3<W, IsMax>(out, src[0], src[1], src[2], n); break;
    default: sel4<W, IsMax>(out, src[0], src[1], src[2], src[3], n); break;
    }
}

// op over windows of `count` points spaced `s` along one row: out[j] = op_k
// src[j + k*s], j < n. ta, tb: scratch rows of n + (count-1)*s.
template <class W, bool IsMax>
inline void row_window(W* out, const W* src, int64_t count, int64_t s, int64_t n, W* ta, W* tb) {
    if (count <= kDirectMax) {
        const W* p[kDirectMax] = {src, src + s, src + 2 * s, src + 3 * s};
        direct<W, IsMax>(out, p, count, n);
        return;
    }
    const W* cur = src;
    int64_t len = n + (count - 1) * s, w = 1;
    W* dst = ta;
    while (2 * w <= count) {
        const int64_t m = len - w * s;
        sel2<W, IsMax>(dst, cur, cur + w * s, m);
        cur = dst;
        dst = dst == ta ? tb : ta;
        len = m;
        w *= 2;
    }
    sel2<W, IsMax>(out, cur, cur + (count - w) * s, n);
}

// Scratch of one worker: band buffers and rows.
template <class W>
struct Scratch {
    std::vector<std::vector<W>> buffers;  // [0], [1]: ping-pong; [2], [3]: doubling; [4..]: powers
    std::vector<W> row_a, row_b, row_c;
};

inline Region shrink(const Region& r, const Pass& p) {
    return {r.r0 + std::max<int64_t>(0, -p.rmin), r.r1 - std::max<int64_t>(0, p.rmax),
            r.c0 + std::max<int64_t>(0, -p.cmin), r.c1 - std::max<int64_t>(0, p.cmax)};
}

template <class W, bool IsMax>
class BandRunner {
public:
    BandRunner(const std::vector<Pass>& passes, int64_t buf_cols, Scratch<W>& s)
        : passes_(passes), cols_(buf_cols), s_(s) {}

    // Runs the passes on one band of `nr` rows; fill_row(i, dst) writes band
    // row i (padded, buf_cols wide). The last pass writes `central` of `out`.
    template <class FillRow>
    void run(FillRow&& fill_row, int64_t nr, const View<W>& out, const Region& central) {
        Region region{0, nr, 0, cols_};
        View<W> cur;
        int which = 0;
        size_t first = 0;
        const Pass& p0 = passes_.front();
        if (p0.is_line && p0.line.step.dr == 0 && p0.line.count > 1) {
            // A first pass along rows reads each padded source row from L1:
            // the copy-in costs nothing extra.
            const bool last = passes_.size() == 1;
            const Region next = shrink(region, p0);
            const View<W> dst = last ? out : buffer(1);
            const Region reg = last ? central : next;
            const int64_t n = reg.c1 - reg.c0;
            W* row = s_.row_c.data();
            for (int64_t r = reg.r0; r < reg.r1; ++r) {
                fill_row(r + p0.line.start.dr, row);
                row_window<W, IsMax>(dst.at(r, reg.c0), row + reg.c0 + p0.line.start.dc, p0.line.count,
                                     p0.line.step.dc, n, s_.row_a.data(), s_.row_b.data());
            }
            if (last) return;
            cur = buffer(1);
            which = 1;
            region = next;
            first = 1;
        } else {
            for (int64_t i = 0; i < nr; ++i) fill_row(i, s_.buffers[0].data() + i * cols_);
            cur = buffer(0);
        }
        for (size_t k = first; k < passes_.size(); ++k) {
            const Pass& p = passes_[k];
            const Region next = shrink(region, p);
            const bool last = k + 1 == passes_.size();
            const View<W> dst = last ? out : buffer(1 - which);
            const Region reg = last ? central : next;
            if (reg.r1 > reg.r0 && reg.c1 > reg.c0) {
                if (p.is_line)
                    line(p.line, cur, region, dst, reg);
                else
                    runs(p, cur, region, dst, reg);
            }
            cur = buffer(1 - which);
            which = 1 - which;
            region = next;
        }
    }

private:
    const std::vector<Pass>& passes_;
    int64_t cols_;
    Scratch<W>& s_;

    View<W> buffer(size_t i) const { return {s_.buffers[i].data(), cols_, 0, 0}; }

    // out(p) = op_k in(p + start + k*step) over `dst`; `src` is where `in` is exact.
    void line(const common::StrelLine& l, const View<W>& in, const Region& src, const View<W>& out,
              const Region& dst) {
        const int64_t n = dst.c1 - dst.c0;
        if (l.step.dr == 0) {
            for (int64_t r = dst.r0; r < dst.r1; ++r)
                row_window<W, IsMax>(out.at(r, dst.c0), in.at(r + l.start.dr, dst.c0 + l.start.dc), l.count,
                                     l.step.dc, n, s_.row_a.data(), s_.row_b.data());
            return;
        }
        if (l.count <= kDirectMax) {
            for (int64_t r = dst.r0; r < dst.r1; ++r) {
                const W* p[kDirectMax];
                for (int64_t k = 0; k < l.count; ++k)
                    p[k] = in.at(r + l.start.dr + k * l.step.dr, dst.c0 + l.start.dc + k * l.step.dc);
                direct<W, IsMax>(out.at(r, dst.c0), p, l.count, n);
            }
            return;
        }
        // Doubling across rows: B_2w(p) = op(B_w(p), B_w(p + w*step)), exact on
        // `src` shrunk by (w-1)*step on the far side (step.dr > 0).
        const int64_t vr = l.step.dr, vc = l.step.dc;
        View<W> cur = in;
        Region reg = src;
        size_t t = 2;
        int64_t w = 1;
        while (2 * w <= l.count) {
            const View<W> nxt = buffer(t);
            const Region nreg{reg.r0, reg.r1 - w * vr, reg.c0 + (vc < 0 ? -w * vc : 0),
                              reg.c1 - (vc > 0 ? w * vc : 0)};
            const int64_t m = nreg.c1 - nreg.c0;
            if (m > 0)
                for (int64_t r = nreg.r0; r < nreg.r1; ++r)
                    sel2<W, IsMax>(nxt.at(r, nreg.c0), cur.at(r, nreg.c0), cur.at(r + w * vr, nreg.c0 + w * vc), m);
            cur = nxt;
            reg = nreg;
            t = t == 2 ? 3 : 2;
            w *= 2;
        }
        const int64_t tail = l.count - w;
        for (int64_t r = dst.r0; r < dst.r1; ++r)
            sel2<W, IsMax>(out.at(r, dst.c0), cur.at(r + l.start.dr, dst.c0 + l.start.dc),
                           cur.at(r + l.start.dr + tail * vr, dst.c0 + l.start.dc + tail * vc), n);
    }

    // Horizontal runs: powers P_w (op over w consecutive columns) by
    // doubling, then each run (dr, dc, len) is op(P_w(p + (dr, dc)),
    // P_w(p + (dr, dc + len - w))) with w the largest power of two <= len.
    void runs(const Pass& p, const View<W>& in, const Region& src, const View<W>& out, const Region& dst) {
        const int64_t n = dst.c1 - dst.c0;
        std::vector<View<W>> powers{in};  // powers[i] = P_(2^i)
        {
            Region reg = src;
            int64_t w = 1;
            size_t next = 4;
            const int64_t rlo = dst.r0 + p.rmin, rhi = dst.r1 + p.rmax;  // rows read
            while (2 * w <= p.max_run) {
                const View<W> nxt = buffer(next++);
                const View<W> cur = powers.back();
                const int64_t m = reg.c1 - reg.c0 - w;
                if (m > 0)
                    for (int64_t r = rlo; r < rhi; ++r) sel2<W, IsMax>(nxt.at(r, reg.c0), cur.at(r, reg.c0), cur.at(r, reg.c0 + w), m);
                powers.push_back(nxt);
                reg.c1 -= w;
                w *= 2;
            }
        }
        for (int64_t r = dst.r0; r < dst.r1; ++r) {
            W* o = out.at(r, dst.c0);
            bool first = true;
            for (const Run& run : p.runs) {
                int64_t w = 1;
                size_t level = 0;
                while (w * 2 <= run.len) {
                    w *= 2;
                    ++level;
                }
                const W* a = powers[level].at(r + run.dr, dst.c0 + run.dc);
                if (w == run.len) {
                    if (first)
                        copy_row(o, a, n);
                    else
                        sel_into<W, IsMax>(o, a, n);
                } else {
                    const W* b = a + (run.len - w);
                    if (first) {
                        sel2<W, IsMax>(o, a, b, n);
                    } else {
                        sel_into<W, IsMax>(o, a, n);
                        sel_into<W, IsMax>(o, b, n);
                    }
                }
                first = false;
            }
        }
    }
};

// Band row i (image row R0 - up + i) padded with the identity; NaN counts as
// the identity.
template <class W>
inline void fill_band_row(W* __restrict d, const W* __restrict a, int64_t rows, int64_t cols, int64_t ir,
                          int64_t left, int64_t right, W id) {
    const int64_t n = left + cols + right;
    if (ir < 0 || ir >= rows) {
        for (int64_t j = 0; j < n; ++j) d[j] = id;
        return;
    }
    for (int64_t j = 0; j < left; ++j) d[j] = id;
    const W* __restrict s = a + ir * cols;
    W* __restrict m = d + left;
    if constexpr (std::is_floating_point_v<W>) {
        for (int64_t j = 0; j < cols; ++j) {
            const W v = s[j];
            m[j] = v != v ? id : v;
        }
    } else {
        std::memcpy(m, s, static_cast<size_t>(cols) * sizeof(W));
    }
    for (int64_t j = left + cols; j < n; ++j) d[j] = id;
}

}  // namespace detail

// Flat morphology of one plane: out(p) = op over D of A(p + d). `passes` from
// plan(factors of D); no passes means D is empty and every output is `pad`.
template <class T, bool IsMax>
void flat(const T* a_in, T* out_t, int64_t rows, int64_t cols, const std::vector<Pass>& passes, double pad) {
    using W = work_t<T>;
    const W* a = reinterpret_cast<const W*>(a_in);
    W* out = reinterpret_cast<W*>(out_t);
    const W id = static_cast<W>(pad);
    if (rows == 0 || cols == 0) return;
    if (passes.empty()) {
        std::fill(out, out + rows * cols, id);
        return;
    }
    int64_t up = 0, down = 0, left = 0, right = 0, max_run = 1;
    bool doubling_rows = false;
    for (const Pass& p : passes) {
        up += std::max<int64_t>(0, -p.rmin);
        down += std::max<int64_t>(0, p.rmax);
        left += std::max<int64_t>(0, -p.cmin);
        right += std::max<int64_t>(0, p.cmax);
        if (!p.is_line) max_run = std::max(max_run, p.max_run);
        if (p.is_line && p.line.step.dr != 0 && p.line.count > detail::kDirectMax) doubling_rows = true;
    }
    const int64_t buf_cols = cols + left + right;
    const int64_t halo = up + down;
    const int64_t row_bytes = buf_cols * static_cast<int64_t>(sizeof(W));
    int64_t band = std::max<int64_t>({4 * halo, (int64_t{128} << 10) / std::max<int64_t>(1, row_bytes), 8});
    band = std::min(band, rows);
    const int64_t nbands = (rows + band - 1) / band;
    const int64_t workers = std::max<int64_t>(1, std::min<int64_t>(thread_count(), nbands));
    const int64_t buf_rows = band + halo;

    int levels = 0;
    for (int64_t w = 1; w * 2 <= max_run; w *= 2) ++levels;
    const size_t nbuf = static_cast<size_t>(4 + levels);
    // Allocated before the parallel region: nothing may throw inside it.
    std::vector<detail::Scratch<W>> scratch(static_cast<size_t>(workers));
    for (auto& s : scratch) {
        s.buffers.resize(nbuf);
        for (size_t i = 0; i < nbuf; ++i)
            if (i < 2 || (i < 4 && doubling_rows) || i >= 4)
                s.buffers[i].assign(static_cast<size_t>(buf_rows * buf_cols), id);
        s.row_a.assign(static_cast<size_t>(buf_cols), id);
        s.row_b.assign(static_cast<size_t>(buf_cols), id);
        s.row_c.assign(static_cast<size_t>(buf_cols), id);
    }

    for_claimed_blocks(workers, nbands, 1, [&](int64_t wk, int64_t b0, int64_t b1) {
        detail::Scratch<W>& s = scratch[static_cast<size_t>(wk)];
        simd_dispatch([&] {
            detail::BandRunner<W, IsMax> runner(passes, buf_cols, s);
            for (int64_t b = b0; b < b1; ++b) {
                const int64_t R0 = b * band, R1 = std::min(rows, R0 + band);
                const int64_t nr = R1 - R0 + halo;
                auto fill_row = [&](int64_t i, W* dst) {
                    detail::fill_band_row(dst, a, rows, cols, R0 - up + i, left, right, id);
                };
                const detail::View<W> view{out + R0 * cols, cols, up, left};
                runner.run(fill_row, nr, view, detail::Region{up, up + (R1 - R0), left, left + cols});
            }
        });
    });
}

// Non-flat morphology of one plane, directly: out(p) = op over the members
// of A(p + d) + add(d), computed in double (NaN sums are skipped), then
// converted to the class (rounded half away from zero and saturated for
// integers). Members outside the image are skipped; a pixel with none gets
// `pad` (starting from the pad instead of +-Inf changes nothing once the
// result is saturated into the class).
// Rows per claimed block of the non-flat kernel.
constexpr int64_t kRowBlock = 32;

template <class T, bool IsMax>
void nonflat(const T* a, T* out, int64_t rows, int64_t cols, const std::vector<frontend::MorphMember>& offsets,
             double pad) {
    if (rows == 0 || cols == 0) return;
    const double id = pad;
    const int64_t workers = std::max<int64_t>(1, std::min<int64_t>(thread_count(), rows));
    std::vector<std::vector<double>> acc(static_cast<size_t>(workers), std::vector<double>(static_cast<size_t>(cols)));
    for_claimed_blocks(workers, rows, kRowBlock, [&](int64_t wk, int64_t r0, int64_t r1) {
        double* o = acc[static_cast<size_t>(wk)].data();
        simd_dispatch([&] {
            for (int64_t r = r0; r < r1; ++r) {
                std::fill(o, o + cols, id);
                for (const frontend::MorphMember& d : offsets) {
                    const int64_t sr = r + d.dr;
                    if (sr < 0 || sr >= rows) continue;
                    const int64_t j0 = std::max<int64_t>(0, -d.dc), j1 = std::min<int64_t>(cols, cols - d.dc);
                    const T* src = a + sr * cols + d.dc;
                    const double h = d.add;
                    for (int64_t j = j0; j < j1; ++j) {
                        const double v = static_cast<double>(src[j]) + h;
                        o[j] = Select<IsMax>::apply(o[j], v);
                    }
                }
                T* dst = out + r * cols;
                for (int64_t j = 0; j < cols; ++j) dst[j] = saturate_round<T>(o[j]);
            }
        });
    });
}

// ipt.imdilate / ipt.imerode: the flat or non-flat kernel for the plan.
template <bool IsMax>
void run_plan(const ipt_tensor* a, const ipt_tensor* b, const frontend::MorphologyPlan& plan) {
    if (plan.flat) {
        const std::vector<Pass> passes = morph::plan(plan.factors);
        visit_dtype(plan.dtype, [&](auto tag) {
            using T = decltype(tag);
            flat<T, IsMax>(static_cast<const T*>(a->data), static_cast<T*>(b->data), plan.rows, plan.cols, passes,
                           plan.pad);
        });
        return;
    }
    visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (!std::is_same_v<T, bool>)  // the front-end admits no non-flat logical call
            nonflat<T, IsMax>(static_cast<const T*>(a->data), static_cast<T*>(b->data), plan.rows, plan.cols,
                              plan.members, plan.pad);
    });
}

inline void run_operator(const ipt::plugin::KernelArgs& args, const frontend::MorphologyPlan& plan) {
    const ipt_tensor* a = args.image("A");
    const ipt_tensor* b = args.output("B", plan.dtype, plan.rows, plan.cols, 1);
    if (plan.rows == 0 || plan.cols == 0) return;
    if (plan.dilate)
        run_plan<true>(a, b, plan);
    else
        run_plan<false>(a, b, plan);
}

}  // namespace ipt::cpu::morph
