// ipt.imresize as the front-end plans it (common/ops/imresize.hpp): two
// separable passes, each a weighted sum in double per output element over the
// plan's taps in order, converted to the working class after each pass.
//
// Both passes vectorise across output elements and keep each element's sum in
// the plan's order: the pass along the rows sums whole input rows into a block
// of accumulators; the pass along the columns first lays a strip of kLanes
// rows out column by column (kLanes doubles per column), so that every tap
// reads kLanes rows' values side by side.
#include <algorithm>
#include <cstdint>
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
    if (dim == 0)
        along_rows(src, dst, rows, cols, channels, ax);
    else
        along_cols(src, dst, rows, cols, channels, ax);
}

// A (class T) -> middle (class W) -> B; logical B is the uint8 result > 128.
template <class T, class W>
void resize(const ipt::frontend::ImresizePlan& p, const T* a, T* b) {
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
