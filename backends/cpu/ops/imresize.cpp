// SPDX-License-Identifier: Apache-2.0
// ipt.imresize as the front-end plans it (common/ops/imresize.hpp): two
// separable passes, each a weighted sum in double per output element over the
// plan's taps in order, converted to the working class after each pass.
//
// Both passes vectorise across output elements and keep each element's sum in
// the plan's order: the pass along the rows sums whole input rows into a block
// of accumulators; the pass along the columns first lays a strip of kLanes
// rows out column by column (kLanes doubles per column), so that every tap
// reads kLanes rows' values side by side.
//
// uint8 axes whose weights are all multiples of a power of two (scales 2, 4,
// 1/2, 1/4 with the nearest, box, bilinear and bicubic kernels) run in 16- or
// 32-bit fixed point instead, which gives the same bits (see FixedAxis).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <type_traits>
#include <vector>

#include "common/convert.hpp"
#include "common/round_finite.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/parallel.hpp"
#include "common/ops/imresize.hpp"

namespace {

using ipt::frontend::ImresizeAxis;

// An element as the passes read it: logical is true = 255 (im2uint8).
template <class S>
IPT_ALWAYS_INLINE IPT_NO_TRAPPING double load(S v) {
    if constexpr (std::is_same_v<S, bool>)
        return v ? ipt::frontend::kImresizeLogicalTrue : 0.0;
    else
        return static_cast<double>(v);
}

// Columns per block of the pass along the rows, and rows per strip of the
// pass along the columns (and output columns per block there).
constexpr int64_t kBlock = 512;
constexpr int64_t kLanes = 8;
constexpr int64_t kOutBlock = 64;
constexpr size_t kKeptScratch = size_t{64} << 20;

// Along dimension 1, one output row: out[c] = sum over k of w[k] * in_row_k[c].
// K > 0: the plan has K taps (unrolled); K == 0: any number.
template <int K, class S, class D>
IPT_ALWAYS_INLINE IPT_NO_TRAPPING void along_rows_impl(const S* plane, D* out, int64_t cols, const double* w,
                                                       const int32_t* idx, int32_t taps) {
    alignas(64) double acc[kBlock];
    if constexpr (K > 0) {
        const S* rows[K];
        double wk[K];
        for (int k = 0; k < K; ++k) {
            rows[k] = plane + static_cast<int64_t>(idx[k]) * cols;
            wk[k] = w[k];
        }
        for (int64_t c0 = 0; c0 < cols; c0 += kBlock) {
            const int64_t n = cols - c0 < kBlock ? cols - c0 : kBlock;
            for (int64_t c = 0; c < n; ++c) {
                double a = 0.0;
                for (int k = 0; k < K; ++k) a += wk[k] * load(rows[k][c0 + c]);
                acc[c] = a;
            }
            ipt::cpu::convert_row_finite<std::is_integral_v<S>>(acc, out + c0, n);
        }
    } else {
        for (int64_t c0 = 0; c0 < cols; c0 += kBlock) {
            const int64_t n = cols - c0 < kBlock ? cols - c0 : kBlock;
            for (int64_t c = 0; c < n; ++c) acc[c] = 0.0;
            for (int32_t k = 0; k < taps; ++k) {
                const double wk = w[k];
                const S* __restrict row = plane + static_cast<int64_t>(idx[k]) * cols + c0;
                for (int64_t c = 0; c < n; ++c) acc[c] += wk * load(row[c]);
            }
            ipt::cpu::convert_row_finite<std::is_integral_v<S>>(acc, out + c0, n);
        }
    }
}

// kLanes doubles side by side (unaligned loads and stores allowed).
typedef double Lanes __attribute__((vector_size(kLanes * sizeof(double)), aligned(sizeof(double))));

// Along dimension 2, rows r0 .. r0 + nl - 1 (nl <= kLanes) of src; t holds
// in_cols * kLanes doubles.
template <int K, class S, class D>
IPT_ALWAYS_INLINE IPT_NO_TRAPPING void along_cols_impl(const S* src, D* dst, int64_t r0, int64_t nl, int64_t in_cols,
                                                       const ImresizeAxis& ax, double* __restrict t) {
    const S* rows[kLanes];
    for (int64_t l = 0; l < kLanes; ++l) rows[l] = src + (r0 + (l < nl ? l : nl - 1)) * in_cols;
    int64_t c = 0;
    if constexpr (!std::is_same_v<S, bool>) {
        // kLanes x kLanes blocks: each row's kLanes values converted as a
        // vector, then transposed in three rounds of pairwise shuffles.
        static_assert(kLanes == 8);
        typedef S SLanes __attribute__((vector_size(kLanes * sizeof(S)), aligned(sizeof(S))));
        typedef int64_t Mask __attribute__((vector_size(kLanes * sizeof(int64_t))));
        constexpr Mask lo1 = {0, 8, 2, 10, 4, 12, 6, 14}, hi1 = {1, 9, 3, 11, 5, 13, 7, 15};
        constexpr Mask lo2 = {0, 1, 8, 9, 4, 5, 12, 13}, hi2 = {2, 3, 10, 11, 6, 7, 14, 15};
        constexpr Mask lo4 = {0, 1, 2, 3, 8, 9, 10, 11}, hi4 = {4, 5, 6, 7, 12, 13, 14, 15};
        for (; c + kLanes <= in_cols; c += kLanes) {
            Lanes r[kLanes], a[kLanes], b[kLanes];
            for (int64_t l = 0; l < kLanes; ++l)
                r[l] = __builtin_convertvector(*reinterpret_cast<const SLanes*>(rows[l] + c), Lanes);
            for (int l = 0; l < 8; l += 2) {
                a[l] = __builtin_shuffle(r[l], r[l + 1], lo1);  // columns 0 2 4 6 of rows l, l + 1
                a[l + 1] = __builtin_shuffle(r[l], r[l + 1], hi1);  // columns 1 3 5 7
            }
            for (int l = 0; l < 8; l += 4)
                for (int h = 0; h < 2; ++h) {
                    b[l + h] = __builtin_shuffle(a[l + h], a[l + h + 2], lo2);  // columns h, h + 4 of rows l .. l + 3
                    b[l + h + 2] = __builtin_shuffle(a[l + h], a[l + h + 2], hi2);  // columns h + 2, h + 6
                }
            // b[m] (m < 4) holds columns m and m + 4 of rows 0-3, b[m + 4] of rows 4-7.
            for (int m = 0; m < 4; ++m) {
                *reinterpret_cast<Lanes*>(t + (c + m) * kLanes) = __builtin_shuffle(b[m], b[m + 4], lo4);
                *reinterpret_cast<Lanes*>(t + (c + m + 4) * kLanes) = __builtin_shuffle(b[m], b[m + 4], hi4);
            }
        }
    }
    for (; c < in_cols; ++c) {
        Lanes v;
        for (int64_t l = 0; l < kLanes; ++l) v[l] = load(rows[l][c]);
        *reinterpret_cast<Lanes*>(t + c * kLanes) = v;
    }
    const int64_t out_cols = ax.out_length;
    const int32_t taps = ax.taps;
    const double* weights = ax.weights.data();
    const int32_t* indices = ax.indices.data();
    alignas(64) double ob[kOutBlock * kLanes];
    D od[kOutBlock * kLanes];
    for (int64_t j0 = 0; j0 < out_cols; j0 += kOutBlock) {
        const int64_t n = out_cols - j0 < kOutBlock ? out_cols - j0 : kOutBlock;
        for (int64_t j = 0; j < n; ++j) {
            const double* w = weights + (j0 + j) * taps;
            const int32_t* idx = indices + (j0 + j) * taps;
            Lanes acc = {};
            for (int32_t k = 0; k < (K > 0 ? K : taps); ++k)
                acc = acc + w[k] * *reinterpret_cast<const Lanes*>(t + static_cast<int64_t>(idx[k]) * kLanes);
            *reinterpret_cast<Lanes*>(ob + j * kLanes) = acc;
        }
        // Whole blocks with constant trip counts, which vectorise without a tail.
        if (n == kOutBlock && nl == kLanes) {
            ipt::cpu::convert_row_finite<std::is_integral_v<S>>(ob, od, kOutBlock * kLanes);
            for (int64_t l = 0; l < kLanes; ++l) {
                D* out = dst + (r0 + l) * out_cols + j0;
                for (int64_t j = 0; j < kOutBlock; ++j) out[j] = od[j * kLanes + l];
            }
        } else {
            ipt::cpu::convert_row_finite<std::is_integral_v<S>>(ob, od, n * kLanes);
            for (int64_t l = 0; l < nl; ++l) {
                D* out = dst + (r0 + l) * out_cols + j0;
                for (int64_t j = 0; j < n; ++j) out[j] = od[j * kLanes + l];
            }
        }
    }
}

// Each pass compiled for AVX-512, AVX2 and the baseline (isa_level chooses),
// unrolled for the common tap counts.
#define IPT_IMRESIZE_TAPS(call)            \
    switch (taps) {                        \
    case 2: call(2); break;                \
    case 3: call(3); break;                \
    case 4: call(4); break;                \
    case 5: call(5); break;                \
    case 6: call(6); break;                \
    case 8: call(8); break;                \
    default: call(0); break;               \
    }
#define IPT_IMRESIZE_ROWS(K) along_rows_impl<K>(plane, out, cols, w, idx, taps)
#define IPT_IMRESIZE_COLS(K) along_cols_impl<K>(src, dst, r0, nl, in_cols, ax, t)
#define IPT_IMRESIZE_ISA(name, attr)                                                                               \
    template <class S, class D>                                                                                  \
    attr IPT_NO_TRAPPING void along_rows_##name(const S* plane, D* out, int64_t cols, const double* w,          \
                                                const int32_t* idx, int32_t taps) {                             \
        IPT_IMRESIZE_TAPS(IPT_IMRESIZE_ROWS)                                                                     \
    }                                                                                                            \
    template <class S, class D>                                                                                  \
    attr IPT_NO_TRAPPING void along_cols_##name(const S* src, D* dst, int64_t r0, int64_t nl, int64_t in_cols,  \
                                                const ImresizeAxis& ax, double* t) {                            \
        const int32_t taps = ax.taps;                                                                            \
        IPT_IMRESIZE_TAPS(IPT_IMRESIZE_COLS)                                                                     \
    }
IPT_IMRESIZE_ISA(avx512, __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))))
IPT_IMRESIZE_ISA(avx2, __attribute__((target("avx2,fma"))))
IPT_IMRESIZE_ISA(base, )
#undef IPT_IMRESIZE_TAPS
#undef IPT_IMRESIZE_ROWS
#undef IPT_IMRESIZE_COLS
#undef IPT_IMRESIZE_ISA

// ---- uint8 in fixed point ----------------------------------------------------
//
// When every weight of an axis is m / 2^shift with a small integer m (scales
// 2 and 1/2 with the box, triangle and cubic kernels, for instance), each
// product weight * value of a uint8 pass and each partial sum is exact in
// double, so the double sum is exactly S / 2^shift with S the integer sum of
// m * value, in any order. Rounding half away from zero and saturating to
// uint8 is then (S + 2^(shift - 1)) >> shift clamped to [0, 255]: the same
// bits as the double pass, at integer cost.

struct FixedAxis {
    bool ok = false;
    bool narrow = false;  // int16 sums cannot overflow
    int shift = 0;
    std::vector<int32_t> m;  // out_length x taps
    // Outputs j0 .. j1 - 1 repeat with period p: output j + p reads the
    // inputs of output j moved by q, with the same weights.
    int64_t j0 = 0, j1 = 0;
    int p = 0, q = 0;
};

FixedAxis make_fixed_axis(const ImresizeAxis& ax) {
    FixedAxis f;
    const int64_t n = ax.out_length, taps = ax.taps;
    // The least shift (at most 12) that makes every weight an integer.
    int64_t bits = 0;  // OR of all weights * 2^12
    for (double w : ax.weights) {
        const double s = w * 4096.0;  // exact: a power of two
        if (!(std::fabs(s) <= double{1 << 24}) || s != std::floor(s)) return f;
        bits |= static_cast<int64_t>(s);
    }
    f.ok = true;
    f.shift = 12;
    while (f.shift > 0 && bits % 2 == 0 && bits != 0) {
        bits /= 2;
        --f.shift;
    }
    f.m.resize(ax.weights.size());
    int64_t widest = 0;
    for (int64_t j = 0; j < n; ++j) {
        int64_t sum = 0;
        for (int64_t k = 0; k < taps; ++k) {
            f.m[j * taps + k] = static_cast<int32_t>(ax.weights[j * taps + k] * static_cast<double>(1 << f.shift));
            sum += std::abs(f.m[j * taps + k]);
        }
        widest = std::max(widest, sum);
    }
    if (widest * 255 + (int64_t{1} << f.shift) > 2147483647) {
        f.ok = false;
        return f;
    }
    f.narrow = widest * 255 + (int64_t{1} << f.shift) <= 32767;
    // The periodic run around the middle output, for the (p, q) that
    // fixed_cols_impl is compiled for.
    auto same = [&](int64_t a, int64_t b, int64_t d) {  // output b reads output a's inputs moved by d
        for (int64_t k = 0; k < taps; ++k)
            if (ax.weights[a * taps + k] != ax.weights[b * taps + k] ||
                int64_t{ax.indices[a * taps + k]} + d != ax.indices[b * taps + k])
                return false;
        return true;
    };
    for (int p : {1, 2, 4}) {
        if (f.p != 0) break;
        const int64_t mid = (n / 2) / p * p;
        if (mid + p >= n || taps == 0) break;
        const int64_t q = int64_t{ax.indices[(mid + p) * taps]} - ax.indices[mid * taps];
        if (!(p == 1 && (q == 1 || q == 2 || q == 4)) && !(q == 1 && (p == 2 || p == 4))) continue;
        int64_t j0 = mid, j1 = mid + p;  // [j0, j1) in whole periods; each output checked against one period on
        bool ok = true;
        for (int r = 0; r < p && ok; ++r) ok = mid + p + r < n && same(mid + r, mid + p + r, q);
        if (!ok) continue;
        while (j0 - p >= 0) {
            bool all = true;
            for (int r = 0; r < p && all; ++r) all = same(j0 - p + r, j0 + r, q);
            if (!all) break;
            j0 -= p;
        }
        while (j1 + p <= n) {
            bool all = true;
            for (int r = 0; r < p && all; ++r) all = same(j1 - p + r, j1 + r, q);
            if (!all) break;
            j1 += p;
        }
        if (j1 - j0 >= 16) {
            f.p = p;
            f.q = static_cast<int>(q);
            f.j0 = j0;
            f.j1 = j1;
        }
    }
    return f;
}

// Along dimension 2 fixed point pays only on a periodic run with unrolled
// taps: output by output (the ends of a row) it is slower than the double
// pass's strips.
bool fixed_cols_fast(const FixedAxis& f, int32_t taps) {
    return f.ok && f.p != 0 && (taps == 1 || taps == 2 || taps == 4 || taps == 8);
}

// make_fixed_axis through a cache keyed by the front-end's tables (which it
// shares between calls of one geometry): the scan costs about a tenth of a
// 2048^2 halving. An entry holds its tables, so their address is not reused
// while it lives.
std::shared_ptr<const FixedAxis> fixed_axis(const ImresizeAxis& ax) {
    struct Entry {
        std::shared_ptr<const ipt::frontend::ImresizeTables> tables;
        std::shared_ptr<const FixedAxis> fixed;
    };
    constexpr size_t kEntries = 8;
    static std::mutex mutex;
    static std::vector<Entry> recent;  // most recently used last
    if (!ax.tables) return std::make_shared<const FixedAxis>(make_fixed_axis(ax));
    {
        std::lock_guard<std::mutex> lock(mutex);
        for (size_t e = 0; e < recent.size(); ++e)
            if (recent[e].tables == ax.tables) {
                std::shared_ptr<const FixedAxis> f = recent[e].fixed;
                std::rotate(recent.begin() + static_cast<std::ptrdiff_t>(e),
                            recent.begin() + static_cast<std::ptrdiff_t>(e) + 1, recent.end());
                return f;
            }
    }
    auto f = std::make_shared<const FixedAxis>(make_fixed_axis(ax));
    std::lock_guard<std::mutex> lock(mutex);
    if (recent.size() == kEntries) recent.erase(recent.begin());
    recent.push_back(Entry{ax.tables, f});
    return f;
}

// 32 narrow (int16) sums at a time as GCC vectors: one source for the AVX2
// build (two ymm operations) and the AVX-512 build (one zmm). Left to itself
// the compiler widens the int16 shift of the scalar loops to int32 and back.
typedef int16_t I16x32 __attribute__((vector_size(64)));
typedef uint16_t U16x32 __attribute__((vector_size(64), aligned(1)));
typedef uint8_t U8x32 __attribute__((vector_size(32), aligned(1)));

// out[0 .. 31] = the sums in a rounded (their rounding term included) and saturated.
IPT_ALWAYS_INLINE void store_narrow(uint8_t* out, const I16x32& sums, int shift) {
    const I16x32 zero = {}, top = zero + 255;
    I16x32 a = sums >> shift;
    a = a < zero ? zero : a;
    a = a > top ? top : a;
    *reinterpret_cast<U8x32*>(out) = __builtin_convertvector(a, U8x32);
}

template <class A>
IPT_ALWAYS_INLINE uint8_t fixed_round(A s, int shift) {
    const int v = (static_cast<int>(s) + ((1 << shift) >> 1)) >> shift;
    return static_cast<uint8_t>(v < 0 ? 0 : (v > 255 ? 255 : v));
}

// The input rows that output row i + 1 reads beyond those of row i (at most
// four). The pass along dimension 1 (its 16-bit vector loop) prefetches them
// while it makes row i: an image that has left the caches then streams from
// memory, where the hardware prefetcher, following four rows at once, leaves
// each row's first lines to wait on memory.
struct RowsAhead {
    const uint8_t* first = nullptr;
    int count = 0;
};

RowsAhead rows_ahead(const uint8_t* plane, int64_t cols, const ImresizeAxis& ax, int64_t i) {
    RowsAhead a;
    if (i + 1 >= ax.out_length || ax.taps == 0) return a;
    int32_t last = ax.indices[i * ax.taps], next = ax.indices[(i + 1) * ax.taps];
    for (int32_t k = 1; k < ax.taps; ++k) {
        last = std::max(last, ax.indices[i * ax.taps + k]);
        next = std::max(next, ax.indices[(i + 1) * ax.taps + k]);
    }
    if (next > last) {
        a.first = plane + (static_cast<int64_t>(last) + 1) * cols;
        a.count = std::min(next - last, 4);
    }
    return a;
}

// Along dimension 1, one output row in fixed point; A is the sum's type.
template <int K, class A>
IPT_ALWAYS_INLINE void fixed_rows_impl(const uint8_t* plane, uint8_t* __restrict out, int64_t cols,
                                       const int32_t* m, const int32_t* idx, int32_t taps, int shift,
                                       RowsAhead ahead) {
    if constexpr (K > 0) {
        const uint8_t* rows[K];
        A mk[K];
        for (int k = 0; k < K; ++k) {
            rows[k] = plane + static_cast<int64_t>(idx[k]) * cols;
            mk[k] = static_cast<A>(m[k]);
        }
        const A half = static_cast<A>((1 << shift) >> 1);
        int64_t c = 0;
        if constexpr (std::is_same_v<A, int16_t>)
            for (; c + 32 <= cols; c += 32) {
                for (int r = 0; r < ahead.count; ++r) __builtin_prefetch(ahead.first + r * cols + c);
                I16x32 a = I16x32{} + half;
                for (int k = 0; k < K; ++k)
                    a += mk[k] * __builtin_convertvector(*reinterpret_cast<const U8x32*>(rows[k] + c), I16x32);
                store_narrow(out + c, a, shift);
            }
        for (; c < cols; ++c) {
            A a = half;
            for (int k = 0; k < K; ++k) a = static_cast<A>(a + mk[k] * static_cast<A>(rows[k][c]));
            a = static_cast<A>(a >> shift);
            a = a < 0 ? A(0) : a;
            out[c] = static_cast<uint8_t>(a > 255 ? A(255) : a);
        }
    } else {
        alignas(64) int32_t acc[kBlock];
        for (int64_t c0 = 0; c0 < cols; c0 += kBlock) {
            const int64_t n = cols - c0 < kBlock ? cols - c0 : kBlock;
            for (int64_t c = 0; c < n; ++c) acc[c] = (1 << shift) >> 1;
            for (int32_t k = 0; k < taps; ++k) {
                const int32_t mk = m[k];
                const uint8_t* __restrict row = plane + static_cast<int64_t>(idx[k]) * cols + c0;
                for (int64_t c = 0; c < n; ++c) acc[c] += mk * row[c];
            }
            for (int64_t c = 0; c < n; ++c) {
                const int32_t v = acc[c] >> shift;
                out[c0 + c] = static_cast<uint8_t>(v < 0 ? 0 : (v > 255 ? 255 : v));
            }
        }
    }
}

// Along dimension 2, one row: the periodic run [f.j0, f.j1) with period P and
// input step Q, every other output from its table.
template <int P, int Q, int K, class A>
IPT_ALWAYS_INLINE void fixed_cols_impl(const uint8_t* in, uint8_t* __restrict out, const ImresizeAxis& ax,
                                       const FixedAxis& f) {
    const int32_t taps = ax.taps;
    const int shift = f.shift;
    auto one = [&](int64_t j) {
        int32_t a = 0;
        for (int32_t k = 0; k < taps; ++k) a += f.m[j * taps + k] * in[ax.indices[j * taps + k]];
        out[j] = fixed_round(a, shift);
    };
    for (int64_t j = 0; j < f.j0; ++j) one(j);
    if constexpr (P > 0) {
        const uint8_t* src[P][K];
        A mk[P][K];
        for (int r = 0; r < P; ++r)
            for (int k = 0; k < K; ++k) {
                src[r][k] = in + ax.indices[(f.j0 + r) * taps + k];
                mk[r][k] = static_cast<A>(f.m[(f.j0 + r) * taps + k]);
            }
        const A half = static_cast<A>((1 << shift) >> 1);
        uint8_t* o = out + f.j0;
        const int64_t groups = (f.j1 - f.j0) / P;
        int64_t g = 0;
        if constexpr (P == 1 && Q == 2 && std::is_same_v<A, int16_t>) {
            // Output f.j0 + g reads byte b + 2g for a tap at b: the low (b
            // even) or high byte of the 16-bit word at in + (b & ~1) + 2g, so
            // 32 outputs take one unaligned 64-byte load a tap.
            const uint8_t* words[K];
            int high[K];
            int64_t last = 0;  // the largest first byte of a tap's word at g = 0
            for (int k = 0; k < K; ++k) {
                const int64_t b = src[0][k] - in;
                words[k] = in + (b & ~int64_t{1});
                high[k] = static_cast<int>(b & 1) * 8;
                last = std::max(last, b & ~int64_t{1});
            }
            const I16x32 low_byte = I16x32{} + 255;
            for (; g + 32 <= groups && last + 2 * (g + 31) + 1 < ax.in_length; g += 32) {
                I16x32 a = I16x32{} + half;
                for (int k = 0; k < K; ++k) {
                    const U16x32 w = *reinterpret_cast<const U16x32*>(words[k] + 2 * g);
                    a += mk[0][k] * (reinterpret_cast<I16x32>(w >> high[k]) & low_byte);
                }
                store_narrow(o + g, a, shift);
            }
        }
        for (; g < groups; ++g)
            for (int r = 0; r < P; ++r) {
                A a = half;
                for (int k = 0; k < K; ++k) a = static_cast<A>(a + mk[r][k] * static_cast<A>(src[r][k][Q * g]));
                a = static_cast<A>(a >> shift);
                a = a < 0 ? A(0) : a;
                o[P * g + r] = static_cast<uint8_t>(a > 255 ? A(255) : a);
            }
    } else {
        for (int64_t j = f.j0; j < f.j1; ++j) one(j);
    }
    for (int64_t j = f.j1; j < ax.out_length; ++j) one(j);
}

#define IPT_FIXED_TAPS(call)  \
    switch (taps) {           \
    case 1: call(1); break;   \
    case 2: call(2); break;   \
    case 4: call(4); break;   \
    case 8: call(8); break;   \
    default: call(0); break;  \
    }
#define IPT_FIXED_ROWS(K)                                                         \
    (narrow ? fixed_rows_impl<K, int16_t>(plane, out, cols, m, idx, taps, shift, ahead) \
            : fixed_rows_impl<K, int32_t>(plane, out, cols, m, idx, taps, shift, ahead))
#define IPT_FIXED_PQ(P, Q, K)                                             \
    (f.narrow ? fixed_cols_impl<P, Q, K, int16_t>(in, out, ax, f)        \
              : fixed_cols_impl<P, Q, K, int32_t>(in, out, ax, f))
#define IPT_FIXED_COLS(K)                                  \
    if (K > 0 && f.p == 1 && f.q == 2)                     \
        IPT_FIXED_PQ(1, 2, K);                             \
    else if (K > 0 && f.p == 2 && f.q == 1)                \
        IPT_FIXED_PQ(2, 1, K);                             \
    else if (K > 0 && f.p == 1 && f.q == 1)                \
        IPT_FIXED_PQ(1, 1, K);                             \
    else if (K > 0 && f.p == 1 && f.q == 4)                \
        IPT_FIXED_PQ(1, 4, K);                             \
    else if (K > 0 && f.p == 4 && f.q == 1)                \
        IPT_FIXED_PQ(4, 1, K);                             \
    else                                                   \
        fixed_cols_impl<0, 0, 0, int32_t>(in, out, ax, f);
#define IPT_FIXED_ISA(name, attr)                                                                              \
    attr void fixed_rows_##name(const uint8_t* plane, uint8_t* out, int64_t cols, const int32_t* m,           \
                                const int32_t* idx, int32_t taps, int shift, bool narrow,                     \
                                RowsAhead ahead) {                                                             \
        IPT_FIXED_TAPS(IPT_FIXED_ROWS)                                                                         \
    }                                                                                                          \
    attr void fixed_cols_##name(const uint8_t* in, uint8_t* out, const ImresizeAxis& ax, const FixedAxis& f) { \
        const int32_t taps = ax.taps;                                                                          \
        IPT_FIXED_TAPS(IPT_FIXED_COLS)                                                                         \
    }
IPT_FIXED_ISA(avx512, __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))))
IPT_FIXED_ISA(avx2, __attribute__((target("avx2,fma"))))
#undef IPT_FIXED_TAPS
#undef IPT_FIXED_ROWS
#undef IPT_FIXED_PQ
#undef IPT_FIXED_COLS
#undef IPT_FIXED_ISA

// The fixed-point pass where it applies (uint8 to uint8, exact weights, a
// machine with AVX2); false: the double pass must run.
template <class S, class D>
bool fixed_pass(int dim, const S* src, D* dst, int64_t rows, int64_t cols, int64_t channels,
                const ImresizeAxis& ax) {
    if constexpr (!std::is_same_v<S, uint8_t> || !std::is_same_v<D, uint8_t>) {
        return false;
    } else {
        const int isa = ipt::cpu::isa_level();
        if (isa < 1 || ax.taps == 0) return false;
        const std::shared_ptr<const FixedAxis> fp = fixed_axis(ax);
        const FixedAxis& f = *fp;
        if (!f.ok || (dim == 1 && !fixed_cols_fast(f, ax.taps))) return false;
        const int64_t out_len = ax.out_length;
        if (dim == 0) {
            ipt::cpu::parallel_for(0, channels * out_len, [&](int64_t job) {
                const int64_t ch = job / out_len, i = job % out_len;
                const uint8_t* plane = src + ch * rows * cols;
                uint8_t* out = dst + (ch * out_len + i) * cols;
                const int32_t* m = &f.m[i * ax.taps];
                const int32_t* idx = &ax.indices[i * ax.taps];
                const RowsAhead ahead = rows_ahead(plane, cols, ax, i);
                if (isa == 2)
                    fixed_rows_avx512(plane, out, cols, m, idx, ax.taps, f.shift, f.narrow, ahead);
                else
                    fixed_rows_avx2(plane, out, cols, m, idx, ax.taps, f.shift, f.narrow, ahead);
            });
        } else {
            ipt::cpu::parallel_for(0, channels * rows, [&](int64_t r) {
                if (isa == 2)
                    fixed_cols_avx512(src + r * cols, dst + r * out_len, ax, f);
                else
                    fixed_cols_avx2(src + r * cols, dst + r * out_len, ax, f);
            });
        }
        return true;
    }
}

// Both passes in fixed point when rows go first: each output row's middle
// row is made in a small per-thread buffer and resized along dimension 2 at
// once, so the middle image never goes through memory. The same sums as the
// two passes one after the other.
bool fixed_both(const ipt::frontend::ImresizePlan& p, const uint8_t* a, uint8_t* b) {
    const int isa = ipt::cpu::isa_level();
    const ImresizeAxis& ax0 = p.axis[0];
    const ImresizeAxis& ax1 = p.axis[1];
    if (isa < 1 || p.first != 0 || ax0.taps == 0 || ax1.taps == 0) return false;
    const std::shared_ptr<const FixedAxis> f0p = fixed_axis(ax0);
    const FixedAxis& f0 = *f0p;
    if (!f0.ok) return false;
    const std::shared_ptr<const FixedAxis> f1p = fixed_axis(ax1);
    const FixedAxis& f1 = *f1p;
    if (!fixed_cols_fast(f1, ax1.taps)) return false;
    const int64_t rows = p.rows, cols = p.cols, out_rows = ax0.out_length, out_cols = ax1.out_length;
    ipt::cpu::parallel_for(0, p.channels * out_rows, [&](int64_t job) {
        thread_local std::vector<uint8_t> middle;
        if (middle.size() < static_cast<size_t>(cols)) middle.resize(static_cast<size_t>(cols));
        const int64_t ch = job / out_rows, i = job % out_rows;
        const uint8_t* plane = a + ch * rows * cols;
        uint8_t* out = b + (ch * out_rows + i) * out_cols;
        const int32_t* m = &f0.m[i * ax0.taps];
        const int32_t* idx = &ax0.indices[i * ax0.taps];
        const RowsAhead ahead = rows_ahead(plane, cols, ax0, i);
        if (isa == 2) {
            fixed_rows_avx512(plane, middle.data(), cols, m, idx, ax0.taps, f0.shift, f0.narrow, ahead);
            fixed_cols_avx512(middle.data(), out, ax1, f1);
        } else {
            fixed_rows_avx2(plane, middle.data(), cols, m, idx, ax0.taps, f0.shift, f0.narrow, ahead);
            fixed_cols_avx2(middle.data(), out, ax1, f1);
        }
    });
    return true;
}

// Along dimension 1: output row i mixes input rows indices[i][k], every column alike.
template <class S, class D>
void along_rows(const S* src, D* dst, int64_t in_rows, int64_t cols, int64_t channels, const ImresizeAxis& ax) {
    const int64_t out_rows = ax.out_length;
    ipt::cpu::parallel_for(0, channels * out_rows, [&](int64_t job) {
        const int64_t ch = job / out_rows, i = job % out_rows;
        const S* plane = src + ch * in_rows * cols;
        D* out = dst + (ch * out_rows + i) * cols;
        const double* w = &ax.weights[i * ax.taps];
        const int32_t* idx = &ax.indices[i * ax.taps];
        switch (ipt::cpu::isa_level()) {
        case 2: along_rows_avx512(plane, out, cols, w, idx, ax.taps); break;
        case 1: along_rows_avx2(plane, out, cols, w, idx, ax.taps); break;
        default: along_rows_base(plane, out, cols, w, idx, ax.taps); break;
        }
    });
}

// Along dimension 2: output column j mixes input columns indices[j][k] of the same row.
template <class S, class D>
void along_cols(const S* src, D* dst, int64_t rows, int64_t in_cols, int64_t channels, const ImresizeAxis& ax) {
    const int64_t all_rows = channels * rows;
    const int64_t strips = (all_rows + kLanes - 1) / kLanes;
    ipt::cpu::parallel_for(0, strips, [&](int64_t s) {
        // One strip's columns per thread, kept between calls (no page faults).
        thread_local std::vector<double> t;
        if (t.size() < static_cast<size_t>(in_cols * kLanes)) t.resize(static_cast<size_t>(in_cols * kLanes));
        const int64_t r0 = s * kLanes, nl = std::min(kLanes, all_rows - r0);
        switch (ipt::cpu::isa_level()) {
        case 2: along_cols_avx512(src, dst, r0, nl, in_cols, ax, t.data()); break;
        case 1: along_cols_avx2(src, dst, r0, nl, in_cols, ax, t.data()); break;
        default: along_cols_base(src, dst, r0, nl, in_cols, ax, t.data()); break;
        }
    });
}

template <class S, class D>
void pass(int dim, const S* src, D* dst, int64_t rows, int64_t cols, int64_t channels, const ImresizeAxis& ax) {
    if (fixed_pass(dim, src, dst, rows, cols, channels, ax)) return;
    if (dim == 0)
        along_rows(src, dst, rows, cols, channels, ax);
    else
        along_cols(src, dst, rows, cols, channels, ax);
}

// A (class T) -> middle (class W) -> B; logical B is the uint8 result > 128.
template <class T, class W>
void resize(const ipt::frontend::ImresizePlan& p, const T* a, T* b) {
    if constexpr (std::is_same_v<T, uint8_t>)
        if (fixed_both(p, a, b)) return;
    int64_t mid_rows, mid_cols;
    ipt::frontend::imresize_middle_size(p, &mid_rows, &mid_cols);
    // The middle image lives in this thread's scratch, kept between calls up
    // to kKeptScratch bytes: a fresh buffer every call costs its page faults.
    thread_local std::vector<W> scratch;
    const size_t n_mid = static_cast<size_t>(mid_rows * mid_cols * p.channels);
    if (scratch.size() < n_mid) {
        scratch.clear();
        scratch.shrink_to_fit();
        scratch.resize(n_mid);
    }
    W* middle = scratch.data();
    pass(p.first, a, middle, p.rows, p.cols, p.channels, p.axis[p.first]);
    const int second = 1 - p.first;
    if constexpr (std::is_same_v<T, W>) {
        pass(second, middle, b, mid_rows, mid_cols, p.channels, p.axis[second]);
    } else {
        const int64_t n = p.out_rows * p.out_cols * p.channels;
        std::vector<W> last(static_cast<size_t>(n));
        pass(second, middle, last.data(), mid_rows, mid_cols, p.channels, p.axis[second]);
        for (int64_t i = 0; i < n; ++i) b[i] = last[i] > ipt::frontend::kImresizeLogicalThreshold;
    }
    if (scratch.size() * sizeof(W) > kKeptScratch) {
        scratch.clear();
        scratch.shrink_to_fit();
    }
}

void run_imresize(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::ImresizePlan plan = ipt::frontend::plan_imresize(args);
    const ipt_tensor* B = args.output("B", plan.dtype, plan.out_rows, plan.out_cols, plan.channels);
    ipt::cpu::visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        using W = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;
        resize<T, W>(plan, static_cast<const T*>(plan.A->data), static_cast<T*>(B->data));
    });
}

}  // namespace

IPT_CPU_OP("ipt.imresize", "", 100, run_imresize)
