// SPDX-License-Identifier: Apache-2.0
// Order-statistic filtering on the CPU, shared by ipt.ordfilt2 and
// ipt.medfilt2 (docs/matlab-semantics.md#ordfilt2 and #medfilt2).
//
// out(p) = the k-th smallest (0-based) of A(p + d) over the domain offsets d,
// with the domain's origin at floor((size+1)/2) and the image padded with a
// constant (zeros; 'indexed' ones) or its mirror image ('symmetric').
//
// Routes, chosen per call (docs/cpu-morphology.md):
//  - logical: a window count (the k-th smallest is true iff at most k values
//    are false), from row prefix sums;
//  - 3x3 median of a full domain: sort each column of three, then the median
//    of (max of the lows, median of the middles, min of the highs);
//  - small full rectangles: sort each column (shared by the n windows that
//    use it), then a Batcher merge network pruned to the wanted rank, run on
//    a row chunk at a time so the compiler vectorises every comparator;
//  - small arbitrary domains: a pruned Batcher sorting network on the values;
//  - larger windows of uint8: Perreault and Hebert's constant-time median
//    (column histograms, a coarse 16-bin and a lazily updated fine kernel
//    histogram) for full rectangles; uint8/uint16/int16 otherwise: Huang's
//    sliding histogram with two levels and an incremental rank search;
//  - everything else (and floats holding NaN): per pixel nth_element, with NaN
//    sorted last as MATLAB's sort does.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/image.hpp"
#include "common/ops/ordfilt2.hpp"
#include "common/padding.hpp"
#include "common/parallel.hpp"
#include "common/simd.hpp"
#include "common/work_blocks.hpp"

namespace ipt::cpu::order {

template <class T>
using work_t = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;

// Output rows per claimed block (common/work_blocks.hpp).
constexpr int64_t kRowBlock = 32;

// The domain: its size, its centre (the front-end's) and which cells are set
// (row-major).
struct Domain {
    int64_t rows = 0, cols = 0;
    int64_t centre_row = 0, centre_col = 0;
    std::vector<uint8_t> bits;
    int64_t count() const {
        int64_t n = 0;
        for (uint8_t b : bits) n += b != 0;
        return n;
    }
    bool full() const { return count() == rows * cols; }
};

inline Domain domain_of(const ipt::frontend::order::Window& w) {
    return {w.rows, w.cols, w.centre_row, w.centre_col, w.mask};
}
// A full rows x cols rectangle (medfilt2) centred at (centre_row, centre_col).
inline Domain full_domain(int64_t rows, int64_t cols, int64_t centre_row, int64_t centre_col) {
    return {rows, cols, centre_row, centre_col, std::vector<uint8_t>(static_cast<size_t>(rows * cols), 1)};
}

// The front-end's padding (constant value or symmetric).
using PadKind = ipt::frontend::order::Pad;
using Padding = ipt::frontend::order::Padding;

// The image padded by the domain's extent: output (r, c) reads padded
// (r + i, c + j) for domain cell (i, j).
template <class W>
struct Padded {
    std::vector<W> data;
    int64_t rows = 0, cols = 0;
    const W* row(int64_t r) const { return data.data() + r * cols; }
};

template <class T>
Padded<work_t<T>> pad_image(const T* a_in, int64_t rows, int64_t cols, const Domain& dom, const Padding& pad) {
    using W = work_t<T>;
    const W* a = reinterpret_cast<const W*>(a_in);
    const int64_t up = dom.centre_row, left = dom.centre_col;
    Padded<W> p;
    p.rows = rows + dom.rows - 1;
    p.cols = cols + dom.cols - 1;
    p.data.resize(static_cast<size_t>(p.rows * p.cols));
    const W fill = static_cast<W>(pad.value);
    parallel_for(
        0, p.rows,
        [&](int64_t i) {
            W* d = p.data.data() + i * p.cols;
            int64_t sr = i - up;
            if (sr < 0 || sr >= rows) {
                if (pad.kind == PadKind::Constant) {
                    std::fill(d, d + p.cols, fill);
                    return;
                }
                sr = symmetric_index(sr, rows);
            }
            const W* s = a + sr * cols;
            std::memcpy(d + left, s, static_cast<size_t>(cols) * sizeof(W));
            for (int64_t j = 0; j < p.cols; ++j) {
                if (j == left) j = left + cols;
                if (j >= p.cols) break;
                const int64_t sc = j - left;
                d[j] = pad.kind == PadKind::Constant ? fill : s[symmetric_index(sc, cols)];
            }
        },
        16);
    return p;
}

// Rows of the padded image built on demand, columns [c0, c1) of it only, in
// a ring of `cap` rows (a worker walks down its rows, so each padded row is
// built once and read from cache by the windows that use it). Output (r, c)
// reads padded (r + i, c + j) for domain cell (i, j), as with Padded.
template <class W>
class PaddedRows {
public:
    PaddedRows(const W* a, int64_t rows, int64_t cols, const Domain& dom, const Padding& pad, int64_t c0, int64_t c1,
               int64_t cap)
        : a_(a), rows_(rows), cols_(cols), up_(dom.centre_row), left_(dom.centre_col), pad_(pad),
          c0_(c0), width_(c1 - c0), cap_(cap), ring_(static_cast<size_t>(cap * (c1 - c0))),
          tag_(static_cast<size_t>(cap), -1) {}

    // Switches to columns [c0, c1) (at most the width given at construction).
    void retarget(int64_t c0, int64_t c1) {
        c0_ = c0;
        width_ = c1 - c0;
        std::fill(tag_.begin(), tag_.end(), -1);
    }

    // Padded row i; the pointer addresses padded column c0.
    const W* row(int64_t i) {
        const size_t slot = static_cast<size_t>(i % cap_);
        W* d = ring_.data() + static_cast<int64_t>(slot) * width_;
        if (tag_[slot] != i) {
            build(i, d);
            tag_[slot] = i;
        }
        return d;
    }

private:
    const W* a_;
    int64_t rows_, cols_, up_, left_;
    Padding pad_;
    int64_t c0_, width_, cap_;
    std::vector<W> ring_;
    std::vector<int64_t> tag_;

    void build(int64_t i, W* d) const {
        const W fill = static_cast<W>(pad_.value);
        int64_t sr = i - up_;
        if (sr < 0 || sr >= rows_) {
            if (pad_.kind == PadKind::Constant) {
                std::fill(d, d + width_, fill);
                return;
            }
            sr = symmetric_index(sr, rows_);
        }
        const W* s = a_ + sr * cols_;
        // Padded column c0 + j is source column c0 + j - left.
        const int64_t first = std::max<int64_t>(0, left_ - c0_);                   // first in-image j
        const int64_t last = std::min<int64_t>(width_, cols_ + left_ - c0_);       // one past
        for (int64_t j = 0; j < std::min(first, width_); ++j)
            d[j] = pad_.kind == PadKind::Constant ? fill : s[symmetric_index(c0_ + j - left_, cols_)];
        if (last > first) std::memcpy(d + first, s + (c0_ + first - left_), static_cast<size_t>(last - first) * sizeof(W));
        for (int64_t j = std::max(first, last); j < width_; ++j)
            d[j] = pad_.kind == PadKind::Constant ? fill : s[symmetric_index(c0_ + j - left_, cols_)];
    }
};

// ---- sorting networks ------------------------------------------------------

struct Comparator {
    int32_t lo = 0, hi = 0;
    uint8_t need = 0;  // bit 0: the min (into lo) is used; bit 1: the max (into hi)
};

// Networks here have at most 256 virtual wires (81 cells give at most 16 x 16
// blocks) and fewer comparators than Batcher's 3839 for 256.
constexpr int kMaxWires = 256;
constexpr int kMaxComparators = 4096;

struct FixedNetwork {
    std::array<Comparator, kMaxComparators> ops{};
    int count = 0;
    std::array<int32_t, kMaxWires> rank_slot{};  // slot holding each rank at the end
    int n = 0;                                   // real wires
};

// Batcher's odd-even merge sort on nblocks blocks of `block` wires (powers of
// two). Block b < real_blocks holds `real` real values in its lowest wires,
// already sorted (the rest are +Inf). Real wire (b, t) is slot b*real + t.
// Comparators against +Inf are resolved at build time (no-op or a relabel),
// and the list is pruned to what ranks want_lo..want_hi depend on. constexpr:
// the same generator builds the networks compiled into kernels.
constexpr FixedNetwork generate_network(int block, int real, int nblocks, int real_blocks, int want_lo,
                                        int want_hi) {
    const int P = block * nblocks;
    if (P > kMaxWires) throw std::logic_error("sorting network: too many wires");
    std::array<int32_t, kMaxWires> state{};
    for (int i = 0; i < P; ++i) state[static_cast<size_t>(i)] = -1;
    for (int b = 0; b < real_blocks; ++b)
        for (int t = 0; t < real; ++t) state[static_cast<size_t>(b * block + t)] = b * real + t;
    std::array<Comparator, kMaxComparators> all{};
    int count = 0;
    for (int p = 1; p < P; p <<= 1) {
        if (p < block) continue;  // blocks of `block` wires are sorted already
        for (int k = p; k >= 1; k >>= 1)
            for (int j = k % p; j + k < P; j += 2 * k)
                for (int i = 0; i < (k < P - j - k ? k : P - j - k); ++i) {
                    if ((i + j) / (2 * p) != (i + j + k) / (2 * p)) continue;
                    int32_t& a = state[static_cast<size_t>(i + j)];
                    int32_t& b = state[static_cast<size_t>(i + j + k)];
                    if (b < 0) continue;  // min(x, +Inf) = x: nothing moves
                    if (a < 0) {          // +Inf moves up: relabel
                        const int32_t t = a;
                        a = b;
                        b = t;
                        continue;
                    }
                    if (count == kMaxComparators) throw std::logic_error("sorting network: too many comparators");
                    all[static_cast<size_t>(count++)] = {a, b, 3};
                }
    }
    FixedNetwork net;
    net.n = real * real_blocks;
    for (int w = 0; w < net.n; ++w) net.rank_slot[static_cast<size_t>(w)] = state[static_cast<size_t>(w)];
    std::array<bool, kMaxWires> needed{};
    for (int w = want_lo; w <= want_hi; ++w) needed[static_cast<size_t>(net.rank_slot[static_cast<size_t>(w)])] = true;
    // Walk back from the outputs; kept comparators fill net.ops from the end.
    int first = count;
    for (int i = count - 1; i >= 0; --i) {
        const Comparator c = all[static_cast<size_t>(i)];
        const uint8_t need = static_cast<uint8_t>((needed[static_cast<size_t>(c.lo)] ? 1 : 0) |
                                                  (needed[static_cast<size_t>(c.hi)] ? 2 : 0));
        if (!need) continue;
        net.ops[static_cast<size_t>(--first)] = {c.lo, c.hi, need};
        needed[static_cast<size_t>(c.lo)] = needed[static_cast<size_t>(c.hi)] = true;
    }
    net.count = count - first;
    for (int i = 0; i < net.count; ++i) net.ops[static_cast<size_t>(i)] = net.ops[static_cast<size_t>(first + i)];
    return net;
}

struct Network {
    std::vector<Comparator> ops;
    std::vector<int32_t> rank_slot;  // slot holding each rank at the end
};

inline Network batcher(int block, int real, int nblocks, int real_blocks, int want_lo, int want_hi) {
    const FixedNetwork f = generate_network(block, real, nblocks, real_blocks, want_lo, want_hi);
    Network net;
    net.ops.assign(f.ops.begin(), f.ops.begin() + f.count);
    net.rank_slot.assign(f.rank_slot.begin(), f.rank_slot.begin() + f.n);
    return net;
}

constexpr int pow2_ceil(int64_t v) {
    int w = 1;
    while (w < v) w *= 2;
    return w;
}

// min and max written so that the compiler emits packed min/max (no NaN here).
template <class W>
inline W vmin(W a, W b) {
    return b < a ? b : a;
}
template <class W>
inline W vmax(W a, W b) {
    return b > a ? b : a;
}

// Runs a network on slot arrays (slot s at wires + s*stride), n lanes each.
template <class W>
inline void run_network(const Network& net, W* wires, int64_t stride, int64_t n) {
    for (const Comparator& c : net.ops) {
        W* __restrict lo = wires + c.lo * stride;
        W* __restrict hi = wires + c.hi * stride;
        if (c.need == 3) {
            for (int64_t x = 0; x < n; ++x) {
                const W u = lo[x], v = hi[x];
                lo[x] = vmin(u, v);
                hi[x] = vmax(u, v);
            }
        } else if (c.need == 1) {
            for (int64_t x = 0; x < n; ++x) lo[x] = vmin(lo[x], hi[x]);
        } else {
            for (int64_t x = 0; x < n; ++x) hi[x] = vmax(lo[x], hi[x]);
        }
    }
}

// Lanes per chunk: about 512 bytes per wire, so that 49 wires sit in L1.
template <class W>
constexpr int64_t chunk_lanes() {
    return std::max<int64_t>(32, 512 / static_cast<int64_t>(sizeof(W)));
}
// Distance between wires: the chunk plus one cache line, so that wires do
// not sit at multiples of 4 KiB from each other (loads would falsely wait on
// stores to other wires: 4K aliasing).
template <class W>
constexpr int64_t wire_stride() {
    return chunk_lanes<W>() + 64 / static_cast<int64_t>(sizeof(W));
}

// Full m x n rectangle by sorted columns and a merge network. `out` gets rank k.
template <class W>
void rect_network(const W* a, int64_t rows, int64_t cols, const Domain& dom, const Padding& pad, int64_t k,
                  W* out) {
    const int64_t m = dom.rows, n = dom.cols;
    const int bm = pow2_ceil(m), bn = pow2_ceil(n);
    const Network colsort = batcher(1, 1, bm, static_cast<int>(m), 0, static_cast<int>(m) - 1);
    const Network merge = batcher(bm, static_cast<int>(m), bn, static_cast<int>(n), static_cast<int>(k), static_cast<int>(k));
    const int64_t X = chunk_lanes<W>(), WS = wire_stride<W>();
    const int64_t colw = X + n - 1 + 64 / static_cast<int64_t>(sizeof(W));
    const int64_t workers = std::max<int64_t>(1, std::min<int64_t>(thread_count(), rows));
    std::vector<std::vector<W>> colbufs(static_cast<size_t>(workers), std::vector<W>(static_cast<size_t>(m * colw)));
    std::vector<std::vector<W>> wirebufs(static_cast<size_t>(workers), std::vector<W>(static_cast<size_t>(m * n * WS)));
    std::vector<PaddedRows<W>> src(static_cast<size_t>(workers),
                                   PaddedRows<W>(a, rows, cols, dom, pad, 0, cols + n - 1, m));
    for_claimed_blocks(workers, rows, kRowBlock, [&](int64_t wk, int64_t r0, int64_t r1) {
        W* colbuf = colbufs[static_cast<size_t>(wk)].data();
        W* wires = wirebufs[static_cast<size_t>(wk)].data();
        PaddedRows<W>& p = src[static_cast<size_t>(wk)];
        simd_dispatch([&] {
            std::vector<const W*> in(static_cast<size_t>(m));
            for (int64_t r = r0; r < r1; ++r) {
                for (int64_t t = 0; t < m; ++t) in[static_cast<size_t>(t)] = p.row(r + t);
                for (int64_t c0 = 0; c0 < cols; c0 += X) {
                    const int64_t len = std::min(X, cols - c0);
                    const int64_t clen = len + n - 1;
                    for (int64_t t = 0; t < m; ++t)
                        std::memcpy(colbuf + t * colw, in[static_cast<size_t>(t)] + c0, static_cast<size_t>(clen) * sizeof(W));
                    run_network(colsort, colbuf, colw, clen);
                    for (int64_t c = 0; c < n; ++c)
                        for (int64_t t = 0; t < m; ++t)
                            std::memcpy(wires + (c * m + t) * WS,
                                        colbuf + colsort.rank_slot[static_cast<size_t>(t)] * colw + c,
                                        static_cast<size_t>(len) * sizeof(W));
                    run_network(merge, wires, WS, len);
                    std::memcpy(out + r * cols + c0, wires + merge.rank_slot[static_cast<size_t>(k)] * WS,
                                static_cast<size_t>(len) * sizeof(W));
                }
            }
        });
    });
}

#if defined(__GNUC__) || defined(__clang__)
#define IPT_ORDER_FIXED_NETWORKS 1
// Medians of small full rectangles with the merge network compiled in, so
// that the wires live in vector registers (GCC/Clang vector extension of 32
// bytes: one AVX2 register, two SSE2 ones) instead of memory.
namespace fixed {

template <int M, int N>
struct MedianNet {
    static constexpr FixedNetwork merge =
        generate_network(pow2_ceil(M), M, pow2_ceil(N), N, (M * N - 1) / 2, (M * N - 1) / 2);
};

template <class W>
struct vec_of;
#define IPT_ORDER_VEC(T)                                          \
    template <>                                                   \
    struct vec_of<T> {                                            \
        typedef T type __attribute__((vector_size(32)));          \
    };
IPT_ORDER_VEC(uint8_t)
IPT_ORDER_VEC(uint16_t)
IPT_ORDER_VEC(int16_t)
IPT_ORDER_VEC(int32_t)
IPT_ORDER_VEC(uint32_t)
IPT_ORDER_VEC(float)
IPT_ORDER_VEC(double)
#undef IPT_ORDER_VEC
template <class W>
using vec = typename vec_of<W>::type;

template <class Net, size_t I, class V>
inline void step(V* w) {
    constexpr Comparator c = Net::merge.ops[I];
    const V a = w[c.lo], b = w[c.hi];
    if constexpr ((c.need & 1) != 0) w[c.lo] = a < b ? a : b;
    if constexpr ((c.need & 2) != 0) w[c.hi] = a < b ? b : a;
}
template <class Net, class V, size_t... I>
inline void run(V* w, std::index_sequence<I...>) {
    (step<Net, I>(w), ...);
}

}  // namespace fixed

template <class W, int M, int N>
void rect_median_fixed(const W* a, int64_t rows, int64_t cols, const Domain& dom, const Padding& pad, W* out) {
    using Net = fixed::MedianNet<M, N>;
    using V = fixed::vec<W>;
    constexpr int64_t L = static_cast<int64_t>(sizeof(V) / sizeof(W));
    const int64_t pc = cols + N - 1;
    // Room for the last vector's over-read; those lanes are computed, not stored.
    const int64_t colw = (cols + L - 1) / L * L + N - 1 + L;
    const Network colsort = batcher(1, 1, pow2_ceil(M), M, 0, M - 1);
    const int64_t workers = std::max<int64_t>(1, std::min<int64_t>(thread_count(), rows));
    std::vector<std::vector<W>> colbufs(static_cast<size_t>(workers), std::vector<W>(static_cast<size_t>(M * colw)));
    std::vector<PaddedRows<W>> src(static_cast<size_t>(workers), PaddedRows<W>(a, rows, cols, dom, pad, 0, pc, M));
    for_claimed_blocks(workers, rows, kRowBlock, [&](int64_t wk, int64_t r0, int64_t r1) {
        W* colbuf = colbufs[static_cast<size_t>(wk)].data();
        PaddedRows<W>& p = src[static_cast<size_t>(wk)];
        simd_dispatch([&] {
            const W* ranked[M];
            for (int t = 0; t < M; ++t) ranked[t] = colbuf + colsort.rank_slot[static_cast<size_t>(t)] * colw;
            for (int64_t r = r0; r < r1; ++r) {
                for (int64_t t = 0; t < M; ++t)
                    std::memcpy(colbuf + t * colw, p.row(r + t), static_cast<size_t>(pc) * sizeof(W));
                run_network(colsort, colbuf, colw, pc);
                W* o = out + r * cols;
                for (int64_t x = 0; x < cols; x += L) {
                    V w[M * N];
#pragma GCC unroll 16
                    for (int c = 0; c < N; ++c)
#pragma GCC unroll 16
                        for (int t = 0; t < M; ++t) std::memcpy(&w[c * M + t], ranked[t] + x + c, sizeof(V));
                    fixed::run<Net>(w, std::make_index_sequence<static_cast<size_t>(Net::merge.count)>{});
                    const int64_t len = std::min(L, cols - x);
                    std::memcpy(o + x, &w[Net::merge.rank_slot[static_cast<size_t>((M * N - 1) / 2)]],
                                static_cast<size_t>(len) * sizeof(W));
                }
            }
        });
    });
}
#endif

// 3x3 median: per column sort of three, then med3(max lows, med3 mids, min highs).
template <class W>
inline void sort_columns3(const W* __restrict a, const W* __restrict b, const W* __restrict c, W* __restrict lo,
                          W* __restrict mid, W* __restrict hi, int64_t n) {
    for (int64_t j = 0; j < n; ++j) {
        const W x = a[j], y = b[j], z = c[j];
        const W mn = vmin(x, y), mx = vmax(x, y);
        lo[j] = vmin(mn, z);
        hi[j] = vmax(mx, z);
        mid[j] = vmax(mn, vmin(mx, z));
    }
}
template <class W>
inline void median_of_columns3(const W* __restrict lo, const W* __restrict mid, const W* __restrict hi,
                               W* __restrict o, int64_t n) {
    for (int64_t j = 0; j < n; ++j) {
        const W l = vmax(vmax(lo[j], lo[j + 1]), lo[j + 2]);
        const W h = vmin(vmin(hi[j], hi[j + 1]), hi[j + 2]);
        const W u = mid[j], v = mid[j + 1], w = mid[j + 2];
        const W m = vmax(vmin(u, v), vmin(vmax(u, v), w));
        o[j] = vmax(vmin(l, m), vmin(vmax(l, m), h));
    }
}
template <class W>
void median3x3(const W* a, int64_t rows, int64_t cols, const Domain& dom, const Padding& pad, W* out) {
    const int64_t workers = std::max<int64_t>(1, std::min<int64_t>(thread_count(), rows));
    const int64_t pc = cols + 2;
    std::vector<std::vector<W>> bufs(static_cast<size_t>(workers), std::vector<W>(static_cast<size_t>(3 * pc)));
    std::vector<PaddedRows<W>> src(static_cast<size_t>(workers), PaddedRows<W>(a, rows, cols, dom, pad, 0, pc, 3));
    for_claimed_blocks(workers, rows, kRowBlock, [&](int64_t wk, int64_t r0, int64_t r1) {
        W* lo = bufs[static_cast<size_t>(wk)].data();
        W* mid = lo + pc;
        W* hi = mid + pc;
        PaddedRows<W>& p = src[static_cast<size_t>(wk)];
        simd_dispatch([&] {
            for (int64_t r = r0; r < r1; ++r) {
                const W* x = p.row(r);
                const W* y = p.row(r + 1);
                const W* z = p.row(r + 2);
                sort_columns3(x, y, z, lo, mid, hi, pc);
                median_of_columns3(lo, mid, hi, out + r * cols, cols);
            }
        });
    });
}

// Arbitrary domain with few cells: a pruned sorting network on the values
// (plus the offsets S, when given, for a double result). `s`, where given,
// holds S at the domain's set cells in row-major order.
template <class W, class V>
void domain_network(const W* a, int64_t rows, int64_t cols, const Domain& dom, const Padding& pad, int64_t k,
                    const double* s, V* out) {
    std::vector<int64_t> di, dj;
    std::vector<double> add;
    for (int64_t i = 0; i < dom.rows; ++i)
        for (int64_t j = 0; j < dom.cols; ++j)
            if (dom.bits[static_cast<size_t>(i * dom.cols + j)]) {
                di.push_back(i);
                dj.push_back(j);
                add.push_back(s ? s[add.size()] : 0.0);
            }
    const int64_t nw = static_cast<int64_t>(di.size());
    const Network net = batcher(1, 1, pow2_ceil(nw), static_cast<int>(nw), static_cast<int>(k), static_cast<int>(k));
    const int64_t X = chunk_lanes<V>(), WS = wire_stride<V>();
    const int64_t workers = std::max<int64_t>(1, std::min<int64_t>(thread_count(), rows));
    std::vector<std::vector<V>> wirebufs(static_cast<size_t>(workers), std::vector<V>(static_cast<size_t>(nw * WS)));
    std::vector<PaddedRows<W>> srcs(static_cast<size_t>(workers),
                                    PaddedRows<W>(a, rows, cols, dom, pad, 0, cols + dom.cols - 1, dom.rows));
    for_claimed_blocks(workers, rows, kRowBlock, [&](int64_t wk, int64_t r0, int64_t r1) {
        V* wires = wirebufs[static_cast<size_t>(wk)].data();
        PaddedRows<W>& p = srcs[static_cast<size_t>(wk)];
        simd_dispatch([&] {
            std::vector<const W*> in(static_cast<size_t>(dom.rows));
            for (int64_t r = r0; r < r1; ++r) {
                for (int64_t i = 0; i < dom.rows; ++i) in[static_cast<size_t>(i)] = p.row(r + i);
                for (int64_t c0 = 0; c0 < cols; c0 += X) {
                    const int64_t len = std::min(X, cols - c0);
                    for (int64_t w = 0; w < nw; ++w) {
                        const W* src = in[static_cast<size_t>(di[static_cast<size_t>(w)])] + c0 + dj[static_cast<size_t>(w)];
                        V* dst = wires + w * WS;
                        if (s) {
                            const double h = add[static_cast<size_t>(w)];
                            for (int64_t x = 0; x < len; ++x) dst[x] = static_cast<V>(static_cast<double>(src[x]) + h);
                        } else {
                            for (int64_t x = 0; x < len; ++x) dst[x] = static_cast<V>(src[x]);
                        }
                    }
                    run_network(net, wires, WS, len);
                    std::memcpy(out + r * cols + c0, wires + net.rank_slot[static_cast<size_t>(k)] * WS,
                                static_cast<size_t>(len) * sizeof(V));
                }
            }
        });
    });
}

// ---- histograms ----------------------------------------------------------------

// Branchless search of the bucket that holds rank k in 16 counts after
// `below` smaller values: returns the bucket and updates `below`.
template <class C>
inline int find_bucket16(const C* h, uint32_t k, uint32_t& below) {
    uint32_t acc = below;
    int b = 0;
    for (int i = 0; i < 16; ++i) {
        acc += h[i];
        const bool le = acc <= k;
        b += le;
        below = le ? acc : below;
    }
    return b;
}
// 16 counts at once (GCC/Clang vector extension: one AVX2 operation, two SSE2
// ones); 16-bit counts wrap consistently, so add-then-subtract is exact.
#if defined(__GNUC__) || defined(__clang__)
typedef uint16_t u16x16 __attribute__((vector_size(32)));
inline void add_sub16(uint16_t* h, const uint16_t* add, const uint16_t* sub) {
    u16x16 a, b, c;
    std::memcpy(&a, h, sizeof a);
    std::memcpy(&b, add, sizeof b);
    std::memcpy(&c, sub, sizeof c);
    a += b - c;
    std::memcpy(h, &a, sizeof a);
}
inline void add16(uint16_t* h, const uint16_t* add) {
    u16x16 a, b;
    std::memcpy(&a, h, sizeof a);
    std::memcpy(&b, add, sizeof b);
    a += b;
    std::memcpy(h, &a, sizeof a);
}
#else
inline void add_sub16(uint16_t* __restrict h, const uint16_t* __restrict add, const uint16_t* __restrict sub) {
    for (int i = 0; i < 16; ++i) h[i] = static_cast<uint16_t>(h[i] + add[i] - sub[i]);
}
inline void add16(uint16_t* __restrict h, const uint16_t* __restrict add) {
    for (int i = 0; i < 16; ++i) h[i] = static_cast<uint16_t>(h[i] + add[i]);
}
#endif
inline void add_sub16(uint32_t* __restrict h, const uint16_t* __restrict add, const uint16_t* __restrict sub) {
    for (int i = 0; i < 16; ++i) h[i] += static_cast<uint32_t>(add[i]) - sub[i];
}
inline void add16(uint32_t* __restrict h, const uint16_t* __restrict add) {
    for (int i = 0; i < 16; ++i) h[i] += add[i];
}

// Perreault and Hebert's constant-time filter for uint8 and a full m x n
// rectangle, any rank k. The image is cut in vertical strips whose column
// histograms (fine 256 bins, coarse 16) stay in L2; each strip is swept top
// to bottom, and the kernel's fine histograms are brought up to date only
// for the coarse bucket that holds the rank. C counts the kernel (16 bits
// when m*n fits).
template <class C>
void perreault_u8(const uint8_t* a, int64_t rows, int64_t cols, const Domain& dom, const Padding& pad, int64_t k,
                  uint8_t* out) {
    const int64_t m = dom.rows, n = dom.cols;
    // Strips of at most ~256 padded columns (fine histograms of 128 KiB),
    // their count a multiple of the workers so that the shares are even.
    const int64_t widest = std::max<int64_t>(64, 256 - (n - 1));
    const int64_t threads = thread_count();
    int64_t nstrips = (cols + widest - 1) / widest;
    if (nstrips >= threads) nstrips = (nstrips + threads - 1) / threads * threads;
    const int64_t strip = (cols + nstrips - 1) / nstrips;
    nstrips = (cols + strip - 1) / strip;
    const int64_t pw_max = strip + n - 1;
    const int64_t workers = block_workers(nstrips);
    struct State {
        std::vector<uint16_t> fine, coarse;  // per padded column: 256 and 16 counts (<= m <= 4096)
    };
    std::vector<State> st(static_cast<size_t>(workers));
    for (auto& s : st) {
        s.fine.resize(static_cast<size_t>(pw_max * 256));
        s.coarse.resize(static_cast<size_t>(pw_max * 16));
    }
    std::vector<PaddedRows<uint8_t>> srcs(static_cast<size_t>(workers),
                                          PaddedRows<uint8_t>(a, rows, cols, dom, pad, 0, pw_max, m + 1));
    const auto kk = static_cast<uint32_t>(k);
    for_claimed_blocks(workers, nstrips, 1, [&](int64_t wk, int64_t s0, int64_t s1) {
        State& s = st[static_cast<size_t>(wk)];
        PaddedRows<uint8_t>& p = srcs[static_cast<size_t>(wk)];
        simd_dispatch([&] {
            uint16_t* fine = s.fine.data();
            uint16_t* coarse = s.coarse.data();
            alignas(32) C hc[16];
            alignas(32) C hf[16][16];
            int64_t luc[16];
            for (int64_t si = s0; si < s1; ++si) {
                const int64_t x0 = si * strip, x1 = std::min(cols, x0 + strip);
                const int64_t pw = x1 - x0 + n - 1;
                p.retarget(x0, x0 + pw);
                std::fill(fine, fine + pw * 256, uint16_t{0});
                std::fill(coarse, coarse + pw * 16, uint16_t{0});
                for (int64_t t = 0; t < m; ++t) {
                    const uint8_t* src = p.row(t);
                    for (int64_t j = 0; j < pw; ++j) {
                        ++fine[j * 256 + src[j]];
                        ++coarse[j * 16 + (src[j] >> 4)];
                    }
                }
                for (int64_t r = 0; r < rows; ++r) {
                    if (r > 0) {
                        const uint8_t* gone = p.row(r - 1);
                        const uint8_t* come = p.row(r + m - 1);
                        for (int64_t j = 0; j < pw; ++j) {
                            --fine[j * 256 + gone[j]];
                            --coarse[j * 16 + (gone[j] >> 4)];
                            ++fine[j * 256 + come[j]];
                            ++coarse[j * 16 + (come[j] >> 4)];
                        }
                    }
                    for (int b = 0; b < 16; ++b) {
                        hc[b] = 0;
                        luc[b] = std::numeric_limits<int64_t>::min() / 2;
                    }
                    for (int64_t j = 0; j < n; ++j) add16(hc, coarse + j * 16);
                    uint8_t* o = out + r * cols + x0;
                    for (int64_t x = 0; x < x1 - x0; ++x) {
                        if (x > 0) add_sub16(hc, coarse + (x + n - 1) * 16, coarse + (x - 1) * 16);
                        uint32_t below = 0;
                        const int b = find_bucket16(hc, kk, below);
                        // Bring the fine histogram of bucket b up to column x.
                        C* h = hf[b];
                        if (x - luc[b] >= n) {
                            for (int i = 0; i < 16; ++i) h[i] = 0;
                            for (int64_t j = x; j < x + n; ++j) add16(h, fine + j * 256 + b * 16);
                        } else {
                            for (int64_t j = luc[b]; j < x; ++j)
                                add_sub16(h, fine + (j + n) * 256 + b * 16, fine + j * 256 + b * 16);
                        }
                        luc[b] = x;
                        const int i = find_bucket16(h, kk, below);
                        o[x] = static_cast<uint8_t>(b * 16 + i);
                    }
                }
            }
        });
    });
}

// Huang's sliding histogram for 8- and 16-bit classes and any domain: per
// row, the window moves right by removing the cells that leave and adding the
// ones that enter; the rank is found by walking from the previous answer
// (coarse buckets of 256, or 16 for 8 bits, skip empty stretches).
template <class T>
void huang(const T* a_in, int64_t rows, int64_t cols, const Domain& dom, const Padding& pad, int64_t k, T* out_t) {
    using W = work_t<T>;
    const W* a = reinterpret_cast<const W*>(a_in);
    constexpr int64_t bins = sizeof(W) == 1 ? 256 : 65536;
    constexpr int64_t cshift = sizeof(W) == 1 ? 4 : 8;
    constexpr int64_t cbins = bins >> cshift;
    constexpr int64_t bias = std::is_same_v<W, int16_t> ? 32768 : 0;
    W* out = reinterpret_cast<W*>(out_t);
    // Cells of the domain, and those that leave / enter when moving right.
    struct Cell {
        int64_t i, j;
    };
    std::vector<Cell> cells, leave, enter;
    auto set = [&](int64_t i, int64_t j) {
        return i >= 0 && i < dom.rows && j >= 0 && j < dom.cols && dom.bits[static_cast<size_t>(i * dom.cols + j)];
    };
    for (int64_t i = 0; i < dom.rows; ++i)
        for (int64_t j = 0; j < dom.cols; ++j) {
            if (!set(i, j)) continue;
            cells.push_back({i, j});
            if (!set(i, j - 1)) leave.push_back({i, j});  // at x it is (i, j + x); gone at x + 1
            if (!set(i, j + 1)) enter.push_back({i, j});  // (i, j + x + 1) joins at x + 1
        }
    const int64_t workers = std::max<int64_t>(1, std::min<int64_t>(thread_count(), rows));
    std::vector<std::vector<uint32_t>> hists(static_cast<size_t>(workers),
                                             std::vector<uint32_t>(static_cast<size_t>(bins + cbins)));
    std::vector<PaddedRows<W>> srcs(static_cast<size_t>(workers),
                                    PaddedRows<W>(a, rows, cols, dom, pad, 0, cols + dom.cols - 1, dom.rows));
    for_claimed_blocks(workers, rows, kRowBlock, [&](int64_t wk, int64_t r0, int64_t r1) {
        PaddedRows<W>& p = srcs[static_cast<size_t>(wk)];
        uint32_t* fine = hists[static_cast<size_t>(wk)].data();
        uint32_t* coarse = fine + bins;
        std::vector<const W*> in(static_cast<size_t>(dom.rows));
        for (int64_t r = r0; r < r1; ++r) {
            for (int64_t i = 0; i < dom.rows; ++i) in[static_cast<size_t>(i)] = p.row(r + i);
            std::fill(fine, fine + bins + cbins, 0u);
            for (const Cell& c : cells) {
                const int64_t v = static_cast<int64_t>(in[static_cast<size_t>(c.i)][c.j]) + bias;
                ++fine[v];
                ++coarse[v >> cshift];
            }
            // Invariant: `below` = number of values < cur.
            int64_t cur = 0, below = 0;
            W* o = out + r * cols;
            for (int64_t x = 0; x < cols; ++x) {
                if (x > 0) {
                    for (const Cell& c : leave) {
                        const int64_t v = static_cast<int64_t>(in[static_cast<size_t>(c.i)][c.j + x - 1]) + bias;
                        --fine[v];
                        --coarse[v >> cshift];
                        below -= v < cur;
                    }
                    for (const Cell& c : enter) {
                        const int64_t v = static_cast<int64_t>(in[static_cast<size_t>(c.i)][c.j + x]) + bias;
                        ++fine[v];
                        ++coarse[v >> cshift];
                        below += v < cur;
                    }
                }
                // Down while the rank lies below cur.
                while (below > k) {
                    if ((cur & ((int64_t{1} << cshift) - 1)) == 0 && below - coarse[(cur >> cshift) - 1] > k) {
                        below -= coarse[(cur >> cshift) - 1];
                        cur -= int64_t{1} << cshift;
                    } else {
                        --cur;
                        below -= fine[cur];
                    }
                }
                // Up while cur holds too few.
                while (below + fine[cur] <= k) {
                    if ((cur & ((int64_t{1} << cshift) - 1)) == 0 && below + coarse[cur >> cshift] <= k) {
                        below += coarse[cur >> cshift];
                        cur += int64_t{1} << cshift;
                    } else {
                        below += fine[cur];
                        ++cur;
                    }
                }
                o[x] = static_cast<W>(cur - bias);
            }
        }
    });
}

inline void add_run_counts(int32_t* __restrict cnt, const int32_t* __restrict hi, const int32_t* __restrict lo,
                           int64_t n) {
    for (int64_t x = 0; x < n; ++x) cnt[x] += hi[x] - lo[x];
}
inline void threshold_counts(uint8_t* __restrict o, const int32_t* __restrict cnt, int32_t need, int64_t n) {
    for (int64_t x = 0; x < n; ++x) o[x] = cnt[x] >= need;
}

// Logical: the k-th smallest is true iff at most k of the values are false,
// i.e. count(true) >= N - k. Counts from row prefix sums over the runs.
inline void logical_count(const Padded<uint8_t>& p, int64_t rows, int64_t cols, const Domain& dom, int64_t k,
                          uint8_t* out) {
    struct RunCells {
        int64_t i, j0, j1;  // row i, columns j0..j1 inclusive
    };
    std::vector<RunCells> runs;
    for (int64_t i = 0; i < dom.rows; ++i)
        for (int64_t j = 0; j < dom.cols;) {
            if (!dom.bits[static_cast<size_t>(i * dom.cols + j)]) {
                ++j;
                continue;
            }
            int64_t e = j;
            while (e + 1 < dom.cols && dom.bits[static_cast<size_t>(i * dom.cols + e + 1)]) ++e;
            runs.push_back({i, j, e});
            j = e + 1;
        }
    const int64_t need = dom.count() - k;
    std::vector<int32_t> pre(static_cast<size_t>(p.rows * (p.cols + 1)));
    parallel_for(
        0, p.rows,
        [&](int64_t i) {
            int32_t* q = pre.data() + i * (p.cols + 1);
            const uint8_t* s = p.row(i);
            q[0] = 0;
            for (int64_t j = 0; j < p.cols; ++j) q[j + 1] = q[j] + (s[j] != 0);
        },
        16);
    const int64_t workers = std::max<int64_t>(1, std::min<int64_t>(thread_count(), rows));
    std::vector<std::vector<int32_t>> counts(static_cast<size_t>(workers), std::vector<int32_t>(static_cast<size_t>(cols)));
    for_claimed_blocks(workers, rows, kRowBlock, [&](int64_t wk, int64_t r0, int64_t r1) {
        int32_t* cnt = counts[static_cast<size_t>(wk)].data();
        simd_dispatch([&] {
            for (int64_t r = r0; r < r1; ++r) {
                std::fill(cnt, cnt + cols, 0);
                for (const RunCells& run : runs) {
                    const int32_t* q = pre.data() + (r + run.i) * (p.cols + 1);
                    add_run_counts(cnt, q + run.j1 + 1, q + run.j0, cols);
                }
                threshold_counts(out + r * cols, cnt, static_cast<int32_t>(need), cols);
            }
        });
    });
}

// ---- fallback ------------------------------------------------------------------

// NaN sorts last (MATLAB's sort); values compare as usual otherwise.
template <class V>
inline bool nan_last_less(V a, V b) {
    if constexpr (std::is_floating_point_v<V>)
        return a < b || (b != b && a == a);
    else
        return a < b;
}

// Per pixel nth_element of the gathered window (plus S when given).
template <class W, class V>
void select_fallback(const Padded<W>& p, int64_t rows, int64_t cols, const Domain& dom, int64_t k, const double* s,
                     V* out) {
    std::vector<int64_t> off;
    std::vector<double> add;
    for (int64_t i = 0; i < dom.rows; ++i)
        for (int64_t j = 0; j < dom.cols; ++j)
            if (dom.bits[static_cast<size_t>(i * dom.cols + j)]) {
                off.push_back(i * p.cols + j);
                add.push_back(s ? s[add.size()] : 0.0);
            }
    const size_t nw = off.size();
    const int64_t workers = std::max<int64_t>(1, std::min<int64_t>(thread_count(), rows));
    std::vector<std::vector<V>> bufs(static_cast<size_t>(workers), std::vector<V>(nw));
    for_claimed_blocks(workers, rows, kRowBlock, [&](int64_t wk, int64_t r0, int64_t r1) {
        V* buf = bufs[static_cast<size_t>(wk)].data();
        for (int64_t r = r0; r < r1; ++r)
            for (int64_t c = 0; c < cols; ++c) {
                const W* base = p.data.data() + r * p.cols + c;
                if (s)
                    for (size_t w = 0; w < nw; ++w)
                        buf[w] = static_cast<V>(static_cast<double>(base[off[w]]) + add[w]);
                else
                    for (size_t w = 0; w < nw; ++w) buf[w] = static_cast<V>(base[off[w]]);
                std::nth_element(buf, buf + k, buf + nw, nan_last_less<V>);
                out[r * cols + c] = buf[k];
            }
    });
}

// ---- ranks ---------------------------------------------------------------------

// A total order for the values (NaN excluded): -0 sorts before +0, so that
// mapping back returns the bits of a value that is in the window.
template <class W>
inline bool total_less(W a, W b) {
    if constexpr (std::is_floating_point_v<W>)
        return a < b || (a == b && std::signbit(a) && !std::signbit(b));
    else
        return a < b;
}
template <class W>
inline bool same_bits(W a, W b) {
    return !total_less(a, b) && !total_less(b, a);
}

template <class T>
void filter(const T* a_in, T* out_t, int64_t rows, int64_t cols, const Domain& dom, int64_t k, const Padding& pad);

// Classes without a histogram of their own (32-bit integers, floats): when
// the image and the pad value hold at most 65536 distinct values, filter
// their ranks as uint16 (networks or Huang's histogram) and map back. Exact:
// order statistics commute with an increasing relabelling. Returns false
// when there are too many distinct values.
template <class W>
bool filter_by_ranks(const W* a, int64_t rows, int64_t cols, const Domain& dom, int64_t k, const Padding& pad,
                     W* out) {
    const int64_t n = rows * cols;
    std::vector<W> values(a, a + n);
    if (pad.kind == PadKind::Constant) values.push_back(static_cast<W>(pad.value));
    std::sort(values.begin(), values.end(), total_less<W>);
    values.erase(std::unique(values.begin(), values.end(), same_bits<W>), values.end());
    if (values.size() > 65536) return false;
    auto rank_of = [&](W v) {
        return static_cast<uint16_t>(std::lower_bound(values.begin(), values.end(), v, total_less<W>) - values.begin());
    };
    std::vector<uint16_t> ranks(static_cast<size_t>(n)), picked(static_cast<size_t>(n));
    parallel_for(
        0, rows,
        [&](int64_t r) {
            for (int64_t c = 0; c < cols; ++c) ranks[static_cast<size_t>(r * cols + c)] = rank_of(a[r * cols + c]);
        },
        16);
    Padding rank_pad = pad;
    if (pad.kind == PadKind::Constant) rank_pad.value = rank_of(static_cast<W>(pad.value));
    filter<uint16_t>(ranks.data(), picked.data(), rows, cols, dom, k, rank_pad);
    parallel_for(
        0, rows,
        [&](int64_t r) {
            for (int64_t c = 0; c < cols; ++c)
                out[r * cols + c] = values[picked[static_cast<size_t>(r * cols + c)]];
        },
        16);
    return true;
}

// ---- entry points ----------------------------------------------------------------

// Windows with at most this many cells go to sorting networks. Classes with
// a histogram route (8 and 16 bits) switch to it sooner.
constexpr int64_t kRectNetworkMax = 49;
constexpr int64_t kDomainNetworkMax = 25;
constexpr int64_t kRectNetworkMaxWide = 81;
constexpr int64_t kDomainNetworkMaxWide = 49;

template <class W>
bool has_nan(const W* a, int64_t n) {
    if constexpr (std::is_floating_point_v<W>) {
        bool any = false;
        for (int64_t i = 0; i < n; ++i) any |= a[i] != a[i];
        return any;
    } else {
        (void)a;
        (void)n;
        return false;
    }
}

// out = rank k (0-based) of each window, class of A.
template <class T>
void filter(const T* a_in, T* out_t, int64_t rows, int64_t cols, const Domain& dom, int64_t k, const Padding& pad) {
    using W = work_t<T>;
    if (rows == 0 || cols == 0) return;
    const W* a = reinterpret_cast<const W*>(a_in);
    W* out = reinterpret_cast<W*>(out_t);
    if constexpr (std::is_same_v<T, bool>) {
        logical_count(pad_image(a_in, rows, cols, dom, pad), rows, cols, dom, k, out);
        return;
    } else {
        const int64_t count = dom.count();
        const bool full = dom.full();
        if (has_nan(a, rows * cols)) {
            select_fallback<W, W>(pad_image(a_in, rows, cols, dom, pad), rows, cols, dom, k, nullptr, out);
            return;
        }
        if (full && dom.rows == 3 && dom.cols == 3 && k == 4) {
            median3x3(a, rows, cols, dom, pad, out);
            return;
        }
#ifdef IPT_ORDER_FIXED_NETWORKS
        if (full && dom.rows == 5 && dom.cols == 5 && k == 12) {
            rect_median_fixed<W, 5, 5>(a, rows, cols, dom, pad, out);
            return;
        }
#endif
        constexpr bool histograms = sizeof(W) <= 2;
        if (full && count <= (histograms ? kRectNetworkMax : kRectNetworkMaxWide)) {
            rect_network(a, rows, cols, dom, pad, k, out);
            return;
        }
        if (!full && count <= (histograms ? kDomainNetworkMax : kDomainNetworkMaxWide)) {
            domain_network<W, W>(a, rows, cols, dom, pad, k, nullptr, out);
            return;
        }
        if constexpr (std::is_same_v<W, uint8_t>) {
            if (full) {
                if (count <= 65535)
                    perreault_u8<uint16_t>(a, rows, cols, dom, pad, k, out);
                else
                    perreault_u8<uint32_t>(a, rows, cols, dom, pad, k, out);
                return;
            }
        }
        if constexpr (std::is_same_v<W, uint8_t> || std::is_same_v<W, uint16_t> || std::is_same_v<W, int16_t>) {
            huang<T>(a_in, rows, cols, dom, pad, k, out_t);
            return;
        } else {
            if (filter_by_ranks(a, rows, cols, dom, k, pad, out)) return;
        }
        select_fallback<W, W>(pad_image(a_in, rows, cols, dom, pad), rows, cols, dom, k, nullptr, out);
    }
}

// out = rank k of double(A(p + d)) + S(d) (ordfilt2 with offsets); `s` holds
// S at the domain's set cells in row-major order.
template <class T>
void filter_offsets(const T* a_in, double* out, int64_t rows, int64_t cols, const Domain& dom, int64_t k,
                    const double* s, const Padding& pad) {
    using W = work_t<T>;
    if (rows == 0 || cols == 0) return;
    const W* a = reinterpret_cast<const W*>(a_in);
    bool finite_offsets = true;
    for (int64_t i = 0; i < dom.count(); ++i)
        if (!std::isfinite(s[i])) finite_offsets = false;
    if (finite_offsets && dom.count() <= kRectNetworkMax && !has_nan(a, rows * cols))
        domain_network<W, double>(a, rows, cols, dom, pad, k, s, out);
    else
        select_fallback<W, double>(pad_image(a_in, rows, cols, dom, pad), rows, cols, dom, k, s, out);
}

}  // namespace ipt::cpu::order
