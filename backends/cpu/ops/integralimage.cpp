// SPDX-License-Identifier: Apache-2.0
// ipt.integralimage: the upright table as cumsum(cumsum(I, 1), 2) in
// MATLAB's order of additions, or in one pass for the classes whose sums are
// exact in any order; the rotated one by its recurrence, row after row (each
// row is independent of the others in it), as the front-end describes
// (common/ops/integralimage.hpp).
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/ops/integralimage.hpp"
#include "common/parallel.hpp"
#include "common/simd.hpp"

namespace {

using ipt::cpu::parallel_for;
using ipt::cpu::simd_dispatch;
using ipt::frontend::IntegralImagePlan;

template <class T>
double value(const T* I, int64_t i) {
    if constexpr (std::is_same_v<T, bool>) return I[i] ? 1.0 : 0.0;
    else return static_cast<double>(I[i]);
}

template <class T>
void rotated(const T* I, int64_t m, int64_t n, double* J) {
    const int64_t w = n + 2;  // columns of J
    std::fill(J, J + (m + 1) * w, 0.0);
    for (int64_t x = 0; x < n; ++x) J[w + x + 1] = value(I, x);
    for (int64_t y = 2; y <= m; ++y) {
        double* row = J + y * w;
        const double* up = row - w;
        const double* up2 = row - 2 * w;
        const T* cur = I + (y - 1) * n;
        const T* north = I + (y - 2) * n;
        row[0] = up[1];
        ipt::cpu::parallel_for(0, n, [&](int64_t k) {
            const int64_t x = k + 1;
            row[x] = (((up[x - 1] + up[x + 1]) - up2[x]) + value(cur, k)) + value(north, k);
        }, 4096);
        row[w - 1] = up[w - 2];
    }
}

// Classes whose partial sums are all exact in double whatever their order:
// integers of at most 16 bits (and logical), |sum| <= 65535 * numel < 2^53.
template <class T>
constexpr bool small_integer_v = std::is_same_v<T, bool> || std::is_same_v<T, uint8_t> ||
                                 std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t>;
constexpr int64_t kExactNumelMax = int64_t{1} << 37;

// Strips of rows for the upright tables: one a thread, each of at least
// about 256 KiB of J.
inline int64_t upright_strips(int64_t m, int64_t w) {
    const int64_t min_rows = std::max<int64_t>(1, (int64_t{1} << 15) / w);
    return std::max<int64_t>(1, std::min<int64_t>(ipt::cpu::thread_count(), m / min_rows));
}

// I's element plus the sum above it: one step of the running sums down the
// columns. A NaN of I is kept as it is (quieted) even when the sum above is
// a NaN too, whichever operand the compiler puts first (x86 keeps the first
// of two NaNs).
inline double column_add(double v, double above) {
    return v + (v != v ? v : above);
}

// out = above + I's row (out is another row than above).
template <class T>
void column_step(const double* above, const T* a, double* out, int64_t n) {
    for (int64_t c = 0; c < n; ++c) out[c] = column_add(value(a, c), above[c]);
}

// C += I's row, in place (a separate loop: a compiler's overlap test would
// send the vectorised one above to its scalar copy).
template <class T>
void column_step_in_place(double* C, const T* a, int64_t n) {
    for (int64_t c = 0; c < n; ++c) C[c] = column_add(value(a, c), C[c]);
}

// Upright J of one plane in MATLAB's order (every class): C(r, :) = C(r-1, :)
// + I(r, :) down the columns (vectorised across columns), then each row of J
// the running sum of C's row, its additions in order (the sum the left
// operand, kept in a register). Rows go by fours: their C rows are formed in
// J, then their running sums run as four independent chains, while the rows
// are still in cache. Strips of rows run across threads; a strip first forms
// C at the row above it by the same additions, in the same order.
template <class T>
void upright_matlab_order(const T* I, int64_t m, int64_t n, double* J) {
    const int64_t w = n + 1;
    std::fill(J, J + w, 0.0);
    const int64_t strips = upright_strips(m, w);
    // Allocated before the parallel region: nothing may throw inside it.
    std::vector<double> carried(static_cast<size_t>(strips * n));
    double* cb = carried.data();
    parallel_for(0, strips, [=](int64_t k) {
        const int64_t r0 = m * k / strips, r1 = m * (k + 1) / strips;
        double* C = cb + k * n;  // C at the row before the next group
        simd_dispatch([=] {
            std::fill(C, C + n, 0.0);
            for (int64_t r = 0; r < r0; ++r) column_step_in_place(C, I + r * n, n);
            constexpr int64_t kRows = 4;
            for (int64_t g = r0; g < r1; g += kRows) {
                const int64_t rows = std::min(kRows, r1 - g);
                double* first = J + (g + 1) * w;
                const double* above = C;
                for (int64_t j = 0; j < rows; ++j) {
                    double* out = first + j * w;
                    out[0] = 0;
                    column_step(above, I + (g + j) * n, out + 1, n);
                    above = out + 1;
                }
                std::copy(above, above + n, C);
                if (rows == kRows) {
                    double* p0 = first;
                    double* p1 = p0 + w;
                    double* p2 = p1 + w;
                    double* p3 = p2 + w;
                    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
                    for (int64_t c = 1; c <= n; ++c) {
                        s0 = s0 + p0[c];
                        s1 = s1 + p1[c];
                        s2 = s2 + p2[c];
                        s3 = s3 + p3[c];
                        p0[c] = s0;
                        p1[c] = s1;
                        p2[c] = s2;
                        p3[c] = s3;
                    }
                } else {
                    for (int64_t j = 0; j < rows; ++j) {
                        double* row = first + j * w;
                        double s = 0;
                        for (int64_t c = 1; c <= n; ++c) row[c] = s = s + row[c];
                    }
                }
            }
        });
    });
}

// One row of the one-pass table: out[c] = above[c] + (a[0] + ... + a[c]).
template <class T>
void exact_row(const T* a, const double* above, double* out, int64_t n) {
    int64_t s = 0;
    for (int64_t c = 0; c < n; ++c) {
        s += static_cast<int64_t>(a[c]);
        out[c] = above[c] + static_cast<double>(s);
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// The same row with AVX2, eight columns at a time: their running sums by
// shifts within the vector plus the sum of the columns before them, in
// int32 lanes (the caller ensures that no running sum of the row can reach
// 2^31), then converted and added to `above` exactly as exact_row does.
template <class T>
__attribute__((target("avx2"))) void exact_row_avx2(const T* a, const double* above, double* out, int64_t n) {
    __m256i carry = _mm256_setzero_si256();
    int64_t c = 0;
    for (; c + 8 <= n; c += 8) {
        __m256i x;
        if constexpr (sizeof(T) == 1)
            x = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(a + c)));
        else if constexpr (std::is_same_v<T, uint16_t>)
            x = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + c)));
        else
            x = _mm256_cvtepi16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + c)));
        x = _mm256_add_epi32(x, _mm256_slli_si256(x, 4));
        x = _mm256_add_epi32(x, _mm256_slli_si256(x, 8));
        // The low half's total into the high half.
        const __m256i low_total = _mm256_shuffle_epi32(x, 0xFF);
        x = _mm256_add_epi32(x, _mm256_permute2x128_si256(low_total, low_total, 0x08));
        x = _mm256_add_epi32(x, carry);
        carry = _mm256_permutevar8x32_epi32(x, _mm256_set1_epi32(7));
        const __m256d lo = _mm256_cvtepi32_pd(_mm256_castsi256_si128(x));
        const __m256d hi = _mm256_cvtepi32_pd(_mm256_extracti128_si256(x, 1));
        _mm256_storeu_pd(out + c, _mm256_add_pd(_mm256_loadu_pd(above + c), lo));
        _mm256_storeu_pd(out + c + 4, _mm256_add_pd(_mm256_loadu_pd(above + c + 4), hi));
    }
    int64_t s = _mm256_cvtsi256_si32(carry);
    for (; c < n; ++c) {
        s += static_cast<int64_t>(a[c]);
        out[c] = above[c] + static_cast<double>(s);
    }
}
#endif

// Upright J of one plane for small_integer_v classes, whose sums are exact
// in any order: row after row, J(r+1, c+1) = J(r, c+1) + (I(r, 0) + ... +
// I(r, c)), the row's running sum in integers, as OpenCV's integral does.
// Strips of rows run across threads: a first pass sums the columns of each
// strip, from which each strip forms J at its first row (the sums over all
// rows above it) in a buffer of its own, then fills its rows in order.
template <class T>
void upright_exact(const T* I, int64_t m, int64_t n, double* J) {
    const int64_t w = n + 1;
    std::fill(J, J + w, 0.0);
    const int64_t strips = upright_strips(m, w);
    // Allocated before the parallel regions: nothing may throw inside them.
    // sums[k]: the column sums of strips 0..k (strip k's own sums at first).
    std::vector<int64_t> sums(static_cast<size_t>((strips - 1) * n), 0);
    std::vector<double> firsts(static_cast<size_t>((strips - 1) * n));
    int64_t* cs = sums.data();
    double* fs = firsts.data();
    if (strips > 1) {
        // Tasks of kSumCols columns of one strip; int32 sums over at most
        // kSumRows rows (65535 * 32768 < 2^31) added into the int64 ones.
        constexpr int64_t kSumCols = 512, kSumRows = 32768;
        const int64_t col_blocks = (n + kSumCols - 1) / kSumCols;
        parallel_for(0, (strips - 1) * col_blocks, [=](int64_t task) {
            const int64_t k = task / col_blocks, c0 = task % col_blocks * kSumCols;
            const int64_t cols = std::min(n - c0, kSumCols);
            const int64_t r0 = m * k / strips, r1 = m * (k + 1) / strips;
            simd_dispatch([=] {
                int64_t* sum = cs + k * n + c0;
                int32_t part[kSumCols];
                for (int64_t g = r0; g < r1; g += kSumRows) {
                    std::fill(part, part + cols, 0);
                    for (int64_t r = g; r < std::min(r1, g + kSumRows); ++r) {
                        const T* a = I + r * n + c0;
                        for (int64_t c = 0; c < cols; ++c) part[c] += static_cast<int32_t>(a[c]);
                    }
                    for (int64_t c = 0; c < cols; ++c) sum[c] += part[c];
                }
            });
        });
        for (int64_t k = 1; k < strips - 1; ++k)
            for (int64_t c = 0; c < n; ++c) cs[k * n + c] += cs[(k - 1) * n + c];
    }
    // Whether every running sum along a row fits in an int32 lane.
    const int64_t largest = std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t> ? 65535 : 255;
    const bool int32_rows = largest * n < (int64_t{1} << 31);
    parallel_for(0, strips, [=](int64_t k) {
        const int64_t r0 = m * k / strips, r1 = m * (k + 1) / strips;
        const double* above = J + 1;  // row 0: zeros
        if (k > 0) {
            const int64_t* sum = cs + (k - 1) * n;
            double* first = fs + (k - 1) * n;
            int64_t s = 0;
            for (int64_t c = 0; c < n; ++c) {
                s += sum[c];
                first[c] = static_cast<double>(s);
            }
            above = first;
        }
        for (int64_t r = r0; r < r1; ++r) {
            const T* a = I + r * n;
            double* out = J + (r + 1) * w + 1;
            out[-1] = 0;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
            if (int32_rows && ipt::cpu::cpu_has_avx2()) exact_row_avx2(a, above, out, n);
            else exact_row(a, above, out, n);
#else
            exact_row(a, above, out, n);
#endif
            above = out;
        }
    });
}

void run_integralimage(const ipt::plugin::KernelArgs& args) {
    const IntegralImagePlan p = ipt::frontend::plan_integralimage(args);
    const ipt_tensor* J = args.output("J", IPT_DOUBLE, p.out_rows, p.out_cols, p.channels);
    const int64_t plane = p.out_rows * p.out_cols;
    if (plane * p.channels == 0) return;
    double* out = static_cast<double*>(J->data);
    ipt::cpu::visit_dtype(p.I->dtype, [&](auto tag) {
        using T = decltype(tag);
        const T* I = static_cast<const T*>(p.I->data);
        for (int64_t ch = 0; ch < p.channels; ++ch) {
            const T* src = I + ch * p.rows * p.cols;
            double* dst = out + ch * plane;
            if (p.rotated) {
                rotated(src, p.rows, p.cols, dst);
            } else if constexpr (std::is_same_v<T, bool>) {
                // Logical as 0/1 uint8 (the same storage).
                const uint8_t* bytes = reinterpret_cast<const uint8_t*>(src);
                if (p.rows * p.cols < kExactNumelMax) upright_exact(bytes, p.rows, p.cols, dst);
                else upright_matlab_order(bytes, p.rows, p.cols, dst);
            } else if constexpr (small_integer_v<T>) {
                if (p.rows * p.cols < kExactNumelMax) upright_exact(src, p.rows, p.cols, dst);
                else upright_matlab_order(src, p.rows, p.cols, dst);
            } else {
                upright_matlab_order(src, p.rows, p.cols, dst);
            }
        }
    });
}

}  // namespace

IPT_CPU_OP("ipt.integralimage", "", 100, run_integralimage)
