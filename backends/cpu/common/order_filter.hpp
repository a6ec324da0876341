// Order-statistic filtering on the CPU, shared by ipt.ordfilt2 and
// ipt.medfilt2 (MATLAB_SEMANTICS.md, ordfilt2 and medfilt2).
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
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "common/image.hpp"
#include "common/padding.hpp"
#include "common/parallel.hpp"
#include "common/simd.hpp"

namespace ipt::cpu::order {

template <class T>
using work_t = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;

// The domain: its size and which cells are set (row-major).
struct Domain {
    int64_t rows = 0, cols = 0;
    std::vector<uint8_t> bits;
    int64_t count() const {
        int64_t n = 0;
        for (uint8_t b : bits) n += b != 0;
        return n;
    }
    bool full() const { return count() == rows * cols; }
};

enum class PadKind { Constant, Symmetric };
struct Padding {
    PadKind kind = PadKind::Constant;
    double value = 0;  // Constant: 0, or 1 for medfilt2's 'indexed' on double
};

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
    const int64_t up = kernel_origin(dom.rows), left = kernel_origin(dom.cols);
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
            for (int64_t j = 0; j < p.cols; ++j) {
                int64_t sc = j - left;
                if (sc >= 0 && sc < cols)
                    d[j] = s[sc];
                else
                    d[j] = pad.kind == PadKind::Constant ? fill : s[symmetric_index(sc, cols)];
            }
        },
        16);
    return p;
}

// ---- sorting networks ------------------------------------------------------

struct Comparator {
    int32_t lo, hi;
    uint8_t need;  // bit 0: the min (into lo) is used; bit 1: the max (into hi)
};
struct Network {
    std::vector<Comparator> ops;
    std::vector<int32_t> rank_slot;  // slot holding each rank at the end
};

// Batcher's odd-even merge sort on nblocks blocks of `block` wires (powers of
// two). Block b < real_blocks holds `real` real values in its lowest wires,
// already sorted (the rest are +Inf). Real wire (b, t) is slot b*real + t.
// Comparators against +Inf are resolved at build time (no-op or a relabel),
// and the list is pruned to what the wanted ranks depend on.
inline Network batcher(int block, int real, int nblocks, int real_blocks, const std::vector<int>& wanted) {
    const int P = block * nblocks;
    std::vector<int32_t> state(static_cast<size_t>(P), -1);
    for (int b = 0; b < real_blocks; ++b)
        for (int t = 0; t < real; ++t) state[static_cast<size_t>(b * block + t)] = b * real + t;
    std::vector<Comparator> ops;
    for (int p = 1; p < P; p <<= 1) {
        if (p < block) continue;  // blocks of `block` wires are sorted already
        for (int k = p; k >= 1; k >>= 1)
            for (int j = k % p; j + k < P; j += 2 * k)
                for (int i = 0; i < std::min(k, P - j - k); ++i) {
                    if ((i + j) / (2 * p) != (i + j + k) / (2 * p)) continue;
                    int32_t& a = state[static_cast<size_t>(i + j)];
                    int32_t& b = state[static_cast<size_t>(i + j + k)];
                    if (b < 0) continue;        // min(x, +Inf) = x: nothing moves
                    if (a < 0) {                // +Inf moves up: relabel
                        std::swap(a, b);
                        continue;
                    }
                    ops.push_back({a, b, 3});
                }
    }
    const int n = real * real_blocks;
    Network net;
    net.rank_slot.assign(state.begin(), state.begin() + n);
    std::vector<uint8_t> needed(static_cast<size_t>(n), 0);
    for (int w : wanted) needed[static_cast<size_t>(net.rank_slot[static_cast<size_t>(w)])] = 1;
    for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
        const uint8_t need = static_cast<uint8_t>((needed[static_cast<size_t>(it->lo)] ? 1 : 0) |
                                                  (needed[static_cast<size_t>(it->hi)] ? 2 : 0));
        if (!need) continue;
        net.ops.push_back({it->lo, it->hi, need});
        needed[static_cast<size_t>(it->lo)] = needed[static_cast<size_t>(it->hi)] = 1;
    }
    std::reverse(net.ops.begin(), net.ops.end());
    return net;
}

inline int pow2_ceil(int64_t v) {
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

// Full m x n rectangle by sorted columns and a merge network. `out` gets rank k.
template <class W>
void rect_network(const Padded<W>& p, int64_t rows, int64_t cols, int64_t m, int64_t n, int64_t k, W* out) {
    const int bm = pow2_ceil(m), bn = pow2_ceil(n);
    std::vector<int> all_ranks;
    for (int t = 0; t < m; ++t) all_ranks.push_back(t);
    const Network colsort = batcher(1, 1, bm, static_cast<int>(m), all_ranks);
    const Network merge = batcher(bm, static_cast<int>(m), bn, static_cast<int>(n), {static_cast<int>(k)});
    const int64_t X = chunk_lanes<W>();
    const int64_t colw = X + n - 1;
    const int64_t workers = std::max<int64_t>(1, std::min<int64_t>(thread_count(), rows));
    std::vector<std::vector<W>> colbufs(static_cast<size_t>(workers), std::vector<W>(static_cast<size_t>(m * colw)));
    std::vector<std::vector<W>> wirebufs(static_cast<size_t>(workers), std::vector<W>(static_cast<size_t>(m * n * X)));
    parallel_for(0, workers, [&](int64_t wk) {
        W* colbuf = colbufs[static_cast<size_t>(wk)].data();
        W* wires = wirebufs[static_cast<size_t>(wk)].data();
        const int64_t r0 = rows * wk / workers, r1 = rows * (wk + 1) / workers;
        simd_dispatch([&] {
            for (int64_t r = r0; r < r1; ++r)
                for (int64_t c0 = 0; c0 < cols; c0 += X) {
                    const int64_t len = std::min(X, cols - c0);
                    const int64_t clen = len + n - 1;
                    for (int64_t t = 0; t < m; ++t)
                        std::memcpy(colbuf + t * colw, p.row(r + t) + c0, static_cast<size_t>(clen) * sizeof(W));
                    run_network(colsort, colbuf, colw, clen);
                    for (int64_t c = 0; c < n; ++c)
                        for (int64_t t = 0; t < m; ++t)
                            std::memcpy(wires + (c * m + t) * X,
                                        colbuf + colsort.rank_slot[static_cast<size_t>(t)] * colw + c,
                                        static_cast<size_t>(len) * sizeof(W));
                    run_network(merge, wires, X, len);
                    std::memcpy(out + r * cols + c0, wires + merge.rank_slot[static_cast<size_t>(k)] * X,
                                static_cast<size_t>(len) * sizeof(W));
                }
        });
    });
}

// 3x3 median: per column sort of three, then med3(max lows, med3 mids, min highs).
template <class W>
void median3x3(const Padded<W>& p, int64_t rows, int64_t cols, W* out) {
    const int64_t workers = std::max<int64_t>(1, std::min<int64_t>(thread_count(), rows));
    std::vector<std::vector<W>> bufs(static_cast<size_t>(workers), std::vector<W>(static_cast<size_t>(3 * p.cols)));
    parallel_for(0, workers, [&](int64_t wk) {
        W* lo = bufs[static_cast<size_t>(wk)].data();
        W* mid = lo + p.cols;
        W* hi = mid + p.cols;
        const int64_t r0 = rows * wk / workers, r1 = rows * (wk + 1) / workers;
        simd_dispatch([&] {
            for (int64_t r = r0; r < r1; ++r) {
                const W* a = p.row(r);
                const W* b = p.row(r + 1);
                const W* c = p.row(r + 2);
                for (int64_t j = 0; j < p.cols; ++j) {
                    const W x = a[j], y = b[j], z = c[j];
                    const W mn = vmin(x, y), mx = vmax(x, y);
                    lo[j] = vmin(mn, z);
                    hi[j] = vmax(mx, z);
                    mid[j] = vmax(mn, vmin(mx, z));
                }
                W* o = out + r * cols;
                for (int64_t j = 0; j < cols; ++j) {
                    const W l = vmax(vmax(lo[j], lo[j + 1]), lo[j + 2]);
                    const W h = vmin(vmin(hi[j], hi[j + 1]), hi[j + 2]);
                    const W u = mid[j], v = mid[j + 1], w = mid[j + 2];
                    const W mn = vmin(u, v), mx = vmax(u, v);
                    const W m = vmax(mn, vmin(mx, w));
                    const W mn2 = vmin(l, m), mx2 = vmax(l, m);
                    o[j] = vmax(mn2, vmin(mx2, h));
                }
            }
        });
    });
}

// Arbitrary domain with few cells: a pruned sorting network on the values
// (plus the offsets S, when given, for a double result).
template <class W, class V>
void domain_network(const Padded<W>& p, int64_t rows, int64_t cols, const Domain& dom, int64_t k,
                    const double* s, V* out) {
    std::vector<int64_t> di, dj;
    std::vector<double> add;
    for (int64_t i = 0; i < dom.rows; ++i)
        for (int64_t j = 0; j < dom.cols; ++j)
            if (dom.bits[static_cast<size_t>(i * dom.cols + j)]) {
                di.push_back(i);
                dj.push_back(j);
                add.push_back(s ? s[i * dom.cols + j] : 0.0);
            }
    const int64_t nw = static_cast<int64_t>(di.size());
    const Network net = batcher(1, 1, pow2_ceil(nw), static_cast<int>(nw), {static_cast<int>(k)});
    const int64_t X = chunk_lanes<V>();
    const int64_t workers = std::max<int64_t>(1, std::min<int64_t>(thread_count(), rows));
    std::vector<std::vector<V>> wirebufs(static_cast<size_t>(workers), std::vector<V>(static_cast<size_t>(nw * X)));
    parallel_for(0, workers, [&](int64_t wk) {
        V* wires = wirebufs[static_cast<size_t>(wk)].data();
        const int64_t r0 = rows * wk / workers, r1 = rows * (wk + 1) / workers;
        simd_dispatch([&] {
            for (int64_t r = r0; r < r1; ++r)
                for (int64_t c0 = 0; c0 < cols; c0 += X) {
                    const int64_t len = std::min(X, cols - c0);
                    for (int64_t w = 0; w < nw; ++w) {
                        const W* src = p.row(r + di[static_cast<size_t>(w)]) + c0 + dj[static_cast<size_t>(w)];
                        V* dst = wires + w * X;
                        if (s) {
                            const double h = add[static_cast<size_t>(w)];
                            for (int64_t x = 0; x < len; ++x) dst[x] = static_cast<V>(static_cast<double>(src[x]) + h);
                        } else {
                            for (int64_t x = 0; x < len; ++x) dst[x] = static_cast<V>(src[x]);
                        }
                    }
                    run_network(net, wires, X, len);
                    std::memcpy(out + r * cols + c0, wires + net.rank_slot[static_cast<size_t>(k)] * X,
                                static_cast<size_t>(len) * sizeof(V));
                }
        });
    });
}

// ---- histograms ----------------------------------------------------------------

// Perreault and Hebert's constant-time filter for uint8 and a full m x n
// rectangle, any rank k. Rows are split among the workers; each keeps the
// column histograms of its rows (fine 256 bins, coarse 16).
inline void perreault_u8(const Padded<uint8_t>& p, int64_t rows, int64_t cols, int64_t m, int64_t n, int64_t k,
                         uint8_t* out) {
    const int64_t pc = p.cols;
    const int64_t workers = std::max<int64_t>(1, std::min<int64_t>(thread_count(), rows));
    struct State {
        std::vector<uint16_t> fine, coarse;  // per padded column: 256 and 16 counts (<= m <= 4096)
    };
    std::vector<State> st(static_cast<size_t>(workers));
    for (auto& s : st) {
        s.fine.assign(static_cast<size_t>(pc * 256), 0);
        s.coarse.assign(static_cast<size_t>(pc * 16), 0);
    }
    parallel_for(0, workers, [&](int64_t wk) {
        State& s = st[static_cast<size_t>(wk)];
        const int64_t r0 = rows * wk / workers, r1 = rows * (wk + 1) / workers;
        if (r0 >= r1) return;
        simd_dispatch([&] {
            uint16_t* fine = s.fine.data();
            uint16_t* coarse = s.coarse.data();
            for (int64_t t = 0; t < m; ++t) {
                const uint8_t* src = p.row(r0 + t);
                for (int64_t j = 0; j < pc; ++j) {
                    ++fine[j * 256 + src[j]];
                    ++coarse[j * 16 + (src[j] >> 4)];
                }
            }
            uint32_t hc[16];
            uint32_t hf[16][16];
            int64_t luc[16];
            for (int64_t r = r0; r < r1; ++r) {
                if (r > r0) {
                    const uint8_t* gone = p.row(r - 1);
                    const uint8_t* come = p.row(r + m - 1);
                    for (int64_t j = 0; j < pc; ++j) {
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
                for (int64_t j = 0; j < n; ++j)
                    for (int b = 0; b < 16; ++b) hc[b] += coarse[j * 16 + b];
                uint8_t* o = out + r * cols;
                for (int64_t x = 0; x < cols; ++x) {
                    if (x > 0) {
                        const uint16_t* add = coarse + (x + n - 1) * 16;
                        const uint16_t* sub = coarse + (x - 1) * 16;
                        for (int b = 0; b < 16; ++b) hc[b] += static_cast<uint32_t>(add[b]) - sub[b];
                    }
                    int b = 0;
                    uint64_t below = 0;
                    while (below + hc[b] <= static_cast<uint64_t>(k)) below += hc[b++];
                    // Bring the fine histogram of bucket b up to column x.
                    uint32_t* h = hf[b];
                    if (x - luc[b] >= n) {
                        for (int i = 0; i < 16; ++i) h[i] = 0;
                        for (int64_t j = x; j < x + n; ++j) {
                            const uint16_t* f = fine + j * 256 + b * 16;
                            for (int i = 0; i < 16; ++i) h[i] += f[i];
                        }
                    } else {
                        for (int64_t j = luc[b]; j < x; ++j) {
                            const uint16_t* add = fine + (j + n) * 256 + b * 16;
                            const uint16_t* sub = fine + j * 256 + b * 16;
                            for (int i = 0; i < 16; ++i) h[i] += static_cast<uint32_t>(add[i]) - sub[i];
                        }
                    }
                    luc[b] = x;
                    int i = 0;
                    while (below + h[i] <= static_cast<uint64_t>(k)) below += h[i++];
                    o[x] = static_cast<uint8_t>(b * 16 + i);
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
void huang(const Padded<work_t<T>>& p, int64_t rows, int64_t cols, const Domain& dom, int64_t k, T* out_t) {
    using W = work_t<T>;
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
    parallel_for(0, workers, [&](int64_t wk) {
        uint32_t* fine = hists[static_cast<size_t>(wk)].data();
        uint32_t* coarse = fine + bins;
        const int64_t r0 = rows * wk / workers, r1 = rows * (wk + 1) / workers;
        for (int64_t r = r0; r < r1; ++r) {
            std::fill(fine, fine + bins + cbins, 0u);
            for (const Cell& c : cells) {
                const int64_t v = static_cast<int64_t>(p.row(r + c.i)[c.j]) + bias;
                ++fine[v];
                ++coarse[v >> cshift];
            }
            // Invariant: `below` = number of values < cur.
            int64_t cur = 0, below = 0;
            W* o = out + r * cols;
            for (int64_t x = 0; x < cols; ++x) {
                if (x > 0) {
                    for (const Cell& c : leave) {
                        const int64_t v = static_cast<int64_t>(p.row(r + c.i)[c.j + x - 1]) + bias;
                        --fine[v];
                        --coarse[v >> cshift];
                        below -= v < cur;
                    }
                    for (const Cell& c : enter) {
                        const int64_t v = static_cast<int64_t>(p.row(r + c.i)[c.j + x]) + bias;
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
    parallel_for(0, workers, [&](int64_t wk) {
        int32_t* cnt = counts[static_cast<size_t>(wk)].data();
        const int64_t r0 = rows * wk / workers, r1 = rows * (wk + 1) / workers;
        simd_dispatch([&] {
            for (int64_t r = r0; r < r1; ++r) {
                std::fill(cnt, cnt + cols, 0);
                for (const RunCells& run : runs) {
                    const int32_t* q = pre.data() + (r + run.i) * (p.cols + 1);
                    const int32_t* hi = q + run.j1 + 1;
                    const int32_t* lo = q + run.j0;
                    for (int64_t x = 0; x < cols; ++x) cnt[x] += hi[x] - lo[x];
                }
                uint8_t* o = out + r * cols;
                for (int64_t x = 0; x < cols; ++x) o[x] = cnt[x] >= need;
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
                add.push_back(s ? s[i * dom.cols + j] : 0.0);
            }
    const size_t nw = off.size();
    const int64_t workers = std::max<int64_t>(1, std::min<int64_t>(thread_count(), rows));
    std::vector<std::vector<V>> bufs(static_cast<size_t>(workers), std::vector<V>(nw));
    parallel_for(0, workers, [&](int64_t wk) {
        V* buf = bufs[static_cast<size_t>(wk)].data();
        const int64_t r0 = rows * wk / workers, r1 = rows * (wk + 1) / workers;
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

// ---- entry points ----------------------------------------------------------------

// Windows with at most this many cells go to sorting networks.
constexpr int64_t kRectNetworkMax = 49;
constexpr int64_t kDomainNetworkMax = 25;

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
    const Padded<W> p = pad_image(a_in, rows, cols, dom, pad);
    W* out = reinterpret_cast<W*>(out_t);
    if constexpr (std::is_same_v<T, bool>) {
        logical_count(p, rows, cols, dom, k, out);
        return;
    } else {
        const int64_t count = dom.count();
        const bool full = dom.full();
        if (has_nan(p.data.data(), static_cast<int64_t>(p.data.size()))) {
            select_fallback<W, W>(p, rows, cols, dom, k, nullptr, out);
            return;
        }
        if (full && dom.rows == 3 && dom.cols == 3 && k == 4) {
            median3x3(p, rows, cols, out);
            return;
        }
        if (full && count <= kRectNetworkMax) {
            rect_network(p, rows, cols, dom.rows, dom.cols, k, out);
            return;
        }
        if (!full && count <= kDomainNetworkMax) {
            domain_network<W, W>(p, rows, cols, dom, k, nullptr, out);
            return;
        }
        if constexpr (std::is_same_v<W, uint8_t>) {
            if (full && dom.rows <= 4096) {
                perreault_u8(p, rows, cols, dom.rows, dom.cols, k, out);
                return;
            }
        }
        if constexpr (std::is_same_v<W, uint8_t> || std::is_same_v<W, uint16_t> || std::is_same_v<W, int16_t>) {
            huang<T>(p, rows, cols, dom, k, out_t);
            return;
        }
        select_fallback<W, W>(p, rows, cols, dom, k, nullptr, out);
    }
}

// out = rank k of A(p + d) + S(d) in double (ordfilt2 with offsets).
template <class T>
void filter_offsets(const T* a_in, double* out, int64_t rows, int64_t cols, const Domain& dom, int64_t k,
                    const double* s, const Padding& pad) {
    using W = work_t<T>;
    if (rows == 0 || cols == 0) return;
    const Padded<W> p = pad_image(a_in, rows, cols, dom, pad);
    bool finite_offsets = true;
    for (int64_t i = 0; i < dom.rows * dom.cols; ++i)
        if (dom.bits[static_cast<size_t>(i)] && !std::isfinite(s[i])) finite_offsets = false;
    if (finite_offsets && dom.count() <= kRectNetworkMax && !has_nan(p.data.data(), static_cast<int64_t>(p.data.size())))
        domain_network<W, double>(p, rows, cols, dom, k, s, out);
    else
        select_fallback<W, double>(p, rows, cols, dom, k, s, out);
}

}  // namespace ipt::cpu::order
