// Flat and non-flat grayscale morphology on the CPU, shared by ipt.imdilate
// and ipt.imerode (MATLAB_SEMANTICS.md, pitfalls 3 and 6).
//
// Both are written as out(p) = op over d in D of A(p + d) (+ h(d)), with op =
// max and D the reflected SE for dilation, op = min and D the SE for erosion;
// pixels outside the image are the identity of op (-Inf / +Inf, i.e. they are
// never chosen), and NaN pixels are skipped like MATLAB's max/min do (treated
// as the identity).
//
// Flat SEs are planned from the offset set alone (kernels receive no strel
// object): a full rectangle becomes a row pass and a column pass, a line (any
// direction, any period) one pass, a neighbourhood that equals one of MATLAB's
// decomposed strels (disk, diamond, octagon) the passes of its factors, and
// anything else one pass over its horizontal runs. Each pass is a running
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
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "common/image.hpp"
#include "common/parallel.hpp"
#include "common/rounding.hpp"
#include "common/simd.hpp"
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

// The value outside the image: never chosen by op.
template <class T, bool IsMax>
work_t<T> identity() {
    using W = work_t<T>;
    if constexpr (std::is_same_v<T, bool>)
        return IsMax ? 0 : 1;
    else if constexpr (std::is_floating_point_v<W>)
        return IsMax ? -std::numeric_limits<W>::infinity() : std::numeric_limits<W>::infinity();
    else
        return IsMax ? std::numeric_limits<W>::lowest() : std::numeric_limits<W>::max();
}

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

// The passes for an offset set D (sorted, row-major). Empty D: no pass.
inline std::vector<Pass> plan(const std::vector<StrelOffset>& sorted) {
    std::vector<Pass> passes;
    if (sorted.empty()) return passes;
    int64_t r0 = sorted.front().dr, r1 = sorted.back().dr, c0 = sorted.front().dc, c1 = c0;
    for (const auto& o : sorted) {
        c0 = std::min(c0, o.dc);
        c1 = std::max(c1, o.dc);
    }
    const int64_t h = r1 - r0 + 1, w = c1 - c0 + 1;
    if (static_cast<int64_t>(sorted.size()) == h * w && h > 1 && w > 1) {
        // Full rectangle: separable.
        passes.push_back(line_pass({{0, c0}, {0, 1}, w}));
        passes.push_back(line_pass({{r0, 0}, {1, 0}, h}));
        return passes;
    }
    if (auto line = common::strel_as_line(sorted)) {
        passes.push_back(line_pass(*line));
        return passes;
    }
    if (auto factors = common::strel_known_decomposition(sorted)) {
        for (const auto& f : *factors)
            if (f.size() > 1 || f.front().dr != 0 || f.front().dc != 0) passes.push_back(pass_for(f));
        if (!passes.empty()) return passes;
    }
    passes.push_back(runs_pass(sorted));
    return passes;
}

namespace detail {

// Rectangle [r0, r1) x [c0, c1) of a band buffer whose values are exact.
struct Region {
    int64_t r0, r1, c0, c1;
};

template <class W>
struct Buffer {
    W* data = nullptr;
    int64_t cols = 0;
    W* row(int64_t r) const { return data + r * cols; }
};

// Row primitives the compiler vectorises. `out` never aliases the inputs.
template <class W, bool IsMax>
inline void row_select2(W* __restrict out, const W* a, const W* b, int64_t n) {
    for (int64_t j = 0; j < n; ++j) out[j] = Select<IsMax>::apply(a[j], b[j]);
}
template <class W, bool IsMax>
inline void row_select_into(W* __restrict out, const W* a, int64_t n) {
    for (int64_t j = 0; j < n; ++j) out[j] = Select<IsMax>::apply(out[j], a[j]);
}

// Windows of up to this many points are taken directly; longer ones by doubling.
constexpr int64_t kDirectMax = 4;

inline int64_t pow2_floor(int64_t v) {
    int64_t w = 1;
    while (w * 2 <= v) w *= 2;
    return w;
}

// Scratch of one worker: the band buffers and two rows.
template <class W>
struct Scratch {
    std::vector<std::vector<W>> buffers;  // [0], [1]: ping-pong; [2], [3]: doubling; [4..]: powers
    std::vector<W> row_a, row_b;
};

template <class W, bool IsMax>
class BandRunner {
public:
    BandRunner(const std::vector<Pass>& passes, int64_t buf_cols, Scratch<W>& s)
        : passes_(passes), cols_(buf_cols), s_(s) {}

    // Applies every pass to buffers[0] (whole region valid); returns the
    // buffer that holds the result.
    Buffer<W> run(Region& region) {
        Buffer<W> cur{s_.buffers[0].data(), cols_};
        int which = 0;
        for (const Pass& p : passes_) {
            Region next{region.r0 + std::max<int64_t>(0, -p.rmin), region.r1 - std::max<int64_t>(0, p.rmax),
                        region.c0 + std::max<int64_t>(0, -p.cmin), region.c1 - std::max<int64_t>(0, p.cmax)};
            Buffer<W> out{s_.buffers[static_cast<size_t>(1 - which)].data(), cols_};
            if (next.r1 > next.r0 && next.c1 > next.c0) {
                if (p.is_line)
                    line(p.line, cur, region, out, next);
                else
                    runs(p, cur, region, out, next);
            }
            cur = out;
            which = 1 - which;
            region = next;
        }
        return cur;
    }

private:
    const std::vector<Pass>& passes_;
    int64_t cols_;
    Scratch<W>& s_;

    // out(p) = op_k in(p + start + k*step) over `dst`.
    void line(const common::StrelLine& l, Buffer<W> in, const Region& src, Buffer<W> out,
              const Region& dst) {
        const int64_t n = dst.c1 - dst.c0;
        if (l.count == 1) {
            for (int64_t r = dst.r0; r < dst.r1; ++r)
                std::memcpy(out.row(r) + dst.c0, in.row(r + l.start.dr) + dst.c0 + l.start.dc,
                            static_cast<size_t>(n) * sizeof(W));
            return;
        }
        if (l.step.dr == 0) {
            horizontal(l, in, out, dst);
            return;
        }
        if (l.count <= kDirectMax) {
            for (int64_t r = dst.r0; r < dst.r1; ++r) {
                W* o = out.row(r) + dst.c0;
                const W* a = in.row(r + l.start.dr) + dst.c0 + l.start.dc;
                const W* b = in.row(r + l.start.dr + l.step.dr) + dst.c0 + l.start.dc + l.step.dc;
                row_select2<W, IsMax>(o, a, b, n);
                for (int64_t k = 2; k < l.count; ++k)
                    row_select_into<W, IsMax>(
                        o, in.row(r + l.start.dr + k * l.step.dr) + dst.c0 + l.start.dc + k * l.step.dc, n);
            }
            return;
        }
        // Doubling across rows: B_2w(p) = op(B_w(p), B_w(p + w*step)).
        // B_w is exact on `src` shrunk by (w-1)*step on the far side.
        const int64_t vr = l.step.dr, vc = l.step.dc;  // vr > 0 after normalising
        Buffer<W> cur = in;
        Region reg = src;
        int t = 2;
        int64_t w = 1;
        while (2 * w <= l.count) {
            Buffer<W> nxt{s_.buffers[static_cast<size_t>(t)].data(), cols_};
            Region nreg{reg.r0, reg.r1 - w * vr, reg.c0 + (vc < 0 ? -w * vc : 0), reg.c1 - (vc > 0 ? w * vc : 0)};
            // Only rows and columns that a later step reads are needed, but
            // the band is small: compute the whole valid region.
            const int64_t m = nreg.c1 - nreg.c0;
            if (m > 0)
                for (int64_t r = nreg.r0; r < nreg.r1; ++r)
                    row_select2<W, IsMax>(nxt.row(r) + nreg.c0, cur.row(r) + nreg.c0,
                                          cur.row(r + w * vr) + nreg.c0 + w * vc, m);
            cur = nxt;
            reg = nreg;
            t = t == 2 ? 3 : 2;
            w *= 2;
        }
        const int64_t tail = l.count - w;
        for (int64_t r = dst.r0; r < dst.r1; ++r)
            row_select2<W, IsMax>(out.row(r) + dst.c0, cur.row(r + l.start.dr) + dst.c0 + l.start.dc,
                                  cur.row(r + l.start.dr + tail * vr) + dst.c0 + l.start.dc + tail * vc, n);
    }

    // A progression along a row (step (0, s), s > 0): per row, in the row
    // scratch.
    void horizontal(const common::StrelLine& l, Buffer<W> in, Buffer<W> out, const Region& dst) {
        const int64_t n = dst.c1 - dst.c0, s = l.step.dc;
        const int64_t span = n + (l.count - 1) * s;  // source columns needed
        W* ta = s_.row_a.data();
        W* tb = s_.row_b.data();
        for (int64_t r = dst.r0; r < dst.r1; ++r) {
            const W* src = in.row(r + l.start.dr) + dst.c0 + l.start.dc;
            W* o = out.row(r) + dst.c0;
            if (l.count <= kDirectMax) {
                row_select2<W, IsMax>(o, src, src + s, n);
                for (int64_t k = 2; k < l.count; ++k) row_select_into<W, IsMax>(o, src + k * s, n);
                continue;
            }
            const W* cur = src;
            int64_t len = span, w = 1;
            W* dstrow = ta;
            while (2 * w <= l.count) {
                const int64_t m = len - w * s;
                row_select2<W, IsMax>(dstrow, cur, cur + w * s, m);
                cur = dstrow;
                dstrow = dstrow == ta ? tb : ta;
                len = m;
                w *= 2;
            }
            row_select2<W, IsMax>(o, cur, cur + (l.count - w) * s, n);
        }
    }

    // Horizontal runs: powers P_w (op over w consecutive columns) by
    // doubling, then each run (dr, dc, len) is op(P_w(p + (dr, dc)),
    // P_w(p + (dr, dc + len - w))) with w the largest power of two <= len.
    void runs(const Pass& p, Buffer<W> in, const Region& src, Buffer<W> out, const Region& dst) {
        const int64_t n = dst.c1 - dst.c0;
        std::vector<Buffer<W>> powers{in};  // powers[i] = P_(2^i)
        {
            Region reg = src;
            int64_t w = 1;
            size_t next = 4;
            while (2 * w <= p.max_run) {
                Buffer<W> nxt{s_.buffers[next++].data(), cols_};
                const Buffer<W>& cur = powers.back();
                const int64_t m = reg.c1 - reg.c0 - w;
                const int64_t rlo = dst.r0 + p.rmin, rhi = dst.r1 + p.rmax;  // rows read
                if (m > 0)
                    for (int64_t r = rlo; r < rhi; ++r)
                        row_select2<W, IsMax>(nxt.row(r) + reg.c0, cur.row(r) + reg.c0, cur.row(r) + reg.c0 + w, m);
                powers.push_back(nxt);
                reg.c1 -= w;
                w *= 2;
            }
        }
        for (int64_t r = dst.r0; r < dst.r1; ++r) {
            W* o = out.row(r) + dst.c0;
            bool first = true;
            for (const Run& run : p.runs) {
                int64_t w = 1, level = 0;
                while (w * 2 <= run.len) {
                    w *= 2;
                    ++level;
                }
                const W* a = powers[static_cast<size_t>(level)].row(r + run.dr) + dst.c0 + run.dc;
                if (w == run.len) {
                    if (first)
                        std::memcpy(o, a, static_cast<size_t>(n) * sizeof(W));
                    else
                        row_select_into<W, IsMax>(o, a, n);
                } else {
                    const W* b = a + (run.len - w);
                    if (first)
                        row_select2<W, IsMax>(o, a, b, n);
                    else {
                        row_select_into<W, IsMax>(o, a, n);
                        row_select_into<W, IsMax>(o, b, n);
                    }
                }
                first = false;
            }
        }
    }
};

}  // namespace detail

// Flat morphology of one plane: out(p) = op over D of A(p + d). `passes` from
// plan(D); no passes means D is empty and every output is the identity.
template <class T, bool IsMax>
void flat(const T* a_in, T* out_t, int64_t rows, int64_t cols, const std::vector<Pass>& passes) {
    using W = work_t<T>;
    const W* a = reinterpret_cast<const W*>(a_in);
    W* out = reinterpret_cast<W*>(out_t);
    const W id = identity<T, IsMax>();
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
    }

    parallel_for(0, workers, [&](int64_t wk) {
        detail::Scratch<W>& s = scratch[static_cast<size_t>(wk)];
        const int64_t b0 = nbands * wk / workers, b1 = nbands * (wk + 1) / workers;
        simd_dispatch([&] {
            for (int64_t b = b0; b < b1; ++b) {
                const int64_t R0 = b * band, R1 = std::min(rows, R0 + band);
                const int64_t nr = R1 - R0 + halo;
                W* buf = s.buffers[0].data();
                // Copy in, padded with the identity; NaN counts as the identity.
                for (int64_t i = 0; i < nr; ++i) {
                    W* d = buf + i * buf_cols;
                    const int64_t ir = R0 - up + i;
                    if (ir < 0 || ir >= rows) {
                        std::fill(d, d + buf_cols, id);
                        continue;
                    }
                    std::fill(d, d + left, id);
                    const W* srow = a + ir * cols;
                    W* drow = d + left;
                    if constexpr (std::is_floating_point_v<W>) {
                        for (int64_t j = 0; j < cols; ++j) {
                            const W v = srow[j];
                            drow[j] = v != v ? id : v;
                        }
                    } else {
                        std::memcpy(drow, srow, static_cast<size_t>(cols) * sizeof(W));
                    }
                    std::fill(d + left + cols, d + buf_cols, id);
                }
                detail::Region region{0, nr, 0, buf_cols};
                detail::BandRunner<W, IsMax> runner(passes, buf_cols, s);
                detail::Buffer<W> res = runner.run(region);
                for (int64_t r = R0; r < R1; ++r)
                    std::memcpy(out + r * cols, res.row(r - R0 + up) + left, static_cast<size_t>(cols) * sizeof(W));
            }
        });
    });
}

// Non-flat morphology of one plane, directly: out(p) = op over the offsets
// of A(p + d) + add(d), computed in double (NaN sums are skipped), then
// converted to the class (rounded half away from zero and saturated for
// integers). Offsets outside the image are skipped; a pixel with none gets
// the identity (-Inf / +Inf, i.e. the class's lowest / highest value).
struct WeightedOffset {
    int64_t dr, dc;
    double add;
};

template <class T, bool IsMax>
void nonflat(const T* a, T* out, int64_t rows, int64_t cols, const std::vector<WeightedOffset>& offsets) {
    if (rows == 0 || cols == 0) return;
    const double id = IsMax ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    const int64_t workers = std::max<int64_t>(1, std::min<int64_t>(thread_count(), rows));
    std::vector<std::vector<double>> acc(static_cast<size_t>(workers), std::vector<double>(static_cast<size_t>(cols)));
    parallel_for(0, workers, [&](int64_t wk) {
        double* o = acc[static_cast<size_t>(wk)].data();
        const int64_t r0 = rows * wk / workers, r1 = rows * (wk + 1) / workers;
        simd_dispatch([&] {
            for (int64_t r = r0; r < r1; ++r) {
                std::fill(o, o + cols, id);
                for (const WeightedOffset& d : offsets) {
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

// ipt.imdilate / ipt.imerode: checks, then the flat or non-flat kernel for
// every plane. Dilation uses the reflected SE (pitfall 6).
template <bool IsDilate>
void run_operator(const ipt::plugin::KernelArgs& args) {
    const char* op = IsDilate ? "ipt.imdilate" : "ipt.imerode";
    const ipt_tensor* a = args.image("A");
    const ipt_tensor* nh = args.image("nhood");
    const ipt_tensor* ht = args.image("heights");
    if (nh->dtype != IPT_LOGICAL || nh->channels != 1)
        ipt::plugin::invalid(std::string(op) + ": parameter 'nhood' must be a 2-D logical array");
    common::StrelMask mask(nh->rows, nh->cols);
    const auto* nb = static_cast<const uint8_t*>(nh->data);
    for (int64_t i = 0; i < nh->rows * nh->cols; ++i) mask.bits[static_cast<size_t>(i)] = nb[i] != 0;

    // Heights count only where the neighbourhood is set; all zero is flat.
    bool flat_se = true;
    if (ht) {
        if (ht->dtype != IPT_DOUBLE || ht->rows != nh->rows || ht->cols != nh->cols || ht->channels != 1)
            ipt::plugin::invalid(std::string(op) + ": parameter 'heights' must be a double array of the size of nhood");
        const auto* h = static_cast<const double*>(ht->data);
        for (int64_t i = 0; i < nh->rows * nh->cols; ++i) {
            if (!mask.bits[static_cast<size_t>(i)]) continue;
            if (std::isnan(h[i])) ipt::plugin::invalid(std::string(op) + ": parameter 'heights' must not contain NaN");
            if (h[i] != 0) flat_se = false;
        }
        if (!flat_se && a->dtype == IPT_LOGICAL)
            ipt::plugin::invalid(std::string(op) +
                                 ": parameter 'heights' must be zero for a logical image "
                                 "(binary morphology needs a flat structuring element)");
    }

    const ipt_tensor* b = args.output("B", a->dtype, a->rows, a->cols, a->channels);
    const int64_t plane = a->rows * a->cols;
    if (plane == 0) return;

    if (flat_se) {
        std::vector<StrelOffset> d = IsDilate ? common::strel_reflected_offsets(mask) : common::strel_offsets(mask);
        std::sort(d.begin(), d.end());
        const std::vector<Pass> passes = plan(d);
        visit_dtype(a->dtype, [&](auto tag) {
            using T = decltype(tag);
            for (int64_t ch = 0; ch < a->channels; ++ch)
                flat<T, IsDilate>(static_cast<const T*>(a->data) + ch * plane, static_cast<T*>(b->data) + ch * plane,
                                  a->rows, a->cols, passes);
        });
        return;
    }
    std::vector<WeightedOffset> offsets;
    const auto* h = static_cast<const double*>(ht->data);
    const int64_t r0 = mask.origin_row(), c0 = mask.origin_col();
    for (int64_t r = 0; r < mask.rows; ++r)
        for (int64_t c = 0; c < mask.cols; ++c) {
            if (!mask.at(r, c)) continue;
            const double hv = h[r * mask.cols + c];
            if (IsDilate)
                offsets.push_back({r0 - r, c0 - c, hv});
            else
                offsets.push_back({r - r0, c - c0, -hv});
        }
    visit_dtype(a->dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (!std::is_same_v<T, bool>)
            for (int64_t ch = 0; ch < a->channels; ++ch)
                nonflat<T, IsDilate>(static_cast<const T*>(a->data) + ch * plane, static_cast<T*>(b->data) + ch * plane,
                                     a->rows, a->cols, offsets);
    });
}

}  // namespace ipt::cpu::morph
