// SPDX-License-Identifier: Apache-2.0
// ipt.mean2 as the front-end plans it (common/ops/mean2.hpp): the sum of
// every element divided by their count.
//
// Integer and logical classes are summed exactly in integers (64-bit per
// thread, 128-bit in total) and rounded once when divided, so they match
// MATLAB's double sum wherever that one is exact (sums below 2^53) and are
// better beyond. Floating classes are summed in double with compensated
// (two-sum) accumulation in 8 lanes, which the compiler vectorises: the
// error is about eps * |sum| + n eps^2 sum|A|, independent of the order.
// Any Inf or NaN makes the plain sum (what MATLAB returns) the result.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/parallel.hpp"
#include "common/ops/mean2.hpp"

namespace {

using ipt::plugin::KernelArgs;

constexpr int64_t kChunk = 1 << 16;

struct Compensated {
    double sum = 0, err = 0;
    void add(double x) {
        const double t = sum + x;
        const double bp = t - sum;
        err += (sum - (t - bp)) + (x - bp);
        sum = t;
    }
};

template <class T>
Compensated sum_floats(const T* p, int64_t n) {
    constexpr int L = 8;
    double s[L] = {}, e[L] = {};
    int64_t i = 0;
    for (; i + L <= n; i += L)
        for (int l = 0; l < L; ++l) {
            const double x = static_cast<double>(p[i + l]);
            const double t = s[l] + x;
            const double bp = t - s[l];
            e[l] += (s[l] - (t - bp)) + (x - bp);
            s[l] = t;
        }
    Compensated c;
    for (int l = 0; l < L; ++l) {
        c.add(s[l]);
        c.err += e[l];
    }
    for (; i < n; ++i) c.add(static_cast<double>(p[i]));
    return c;
}

template <class T>
__int128 sum_integers(const T* p, int64_t n) {
#if defined(__SSE2__)
    if constexpr (sizeof(T) == 1 && std::is_unsigned_v<T>) {
        // uint8 and logical: psadbw against zero adds 8 bytes into a 64-bit
        // lane in one instruction (the widening loop below needs about ten
        // per 16 bytes and stayed under the memory speed).
        const __m128i zero = _mm_setzero_si128();
        __m128i acc0 = zero, acc1 = zero;
        int64_t i = 0;
        for (; i + 32 <= n; i += 32) {
            const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
            const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 16));
            acc0 = _mm_add_epi64(acc0, _mm_sad_epu8(a, zero));
            acc1 = _mm_add_epi64(acc1, _mm_sad_epu8(b, zero));
        }
        alignas(16) uint64_t lanes[2];
        _mm_store_si128(reinterpret_cast<__m128i*>(lanes), _mm_add_epi64(acc0, acc1));
        uint64_t s = lanes[0] + lanes[1];
        for (; i < n; ++i) s += p[i];
        return static_cast<__int128>(s);
    } else
#endif
    if constexpr (sizeof(T) <= 2) {
        // At most kChunk = 2^16 values of 16 bits or fewer: every partial sum
        // fits in 32 bits (uint16: 65535 * 2^16 < 2^32; int16: within
        // [-2^31, 2^31)), and 32-bit lanes vectorise with 2-4x more values per
        // instruction than 64-bit ones (uint8 ran at half the memory speed).
        static_assert(kChunk <= (int64_t(1) << 16));
        using Narrow = std::conditional_t<std::is_signed_v<T>, int32_t, uint32_t>;
        Narrow s = 0;
        for (int64_t i = 0; i < n; ++i) s += static_cast<Narrow>(p[i]);
        return static_cast<__int128>(s);
    } else {
        // Unsigned classes in uint64, signed in int64: no overflow within a chunk.
        using Wide = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
        Wide s = 0;
        for (int64_t i = 0; i < n; ++i) s += static_cast<Wide>(p[i]);
        return static_cast<__int128>(s);
    }
}

template <class T>
double mean_of(const T* p, int64_t n) {
    if (n == 0) return std::numeric_limits<double>::quiet_NaN();
    const int64_t chunks = (n + kChunk - 1) / kChunk;
    if constexpr (std::is_floating_point_v<T>) {
        std::vector<Compensated> part(static_cast<size_t>(chunks));
        ipt::cpu::parallel_for(0, chunks, [&](int64_t c) {
            const int64_t b = c * kChunk;
            part[static_cast<size_t>(c)] = sum_floats(p + b, std::min(kChunk, n - b));
        });
        Compensated total;
        double plain = 0;
        for (const Compensated& c : part) {
            total.add(c.sum);
            total.err += c.err;
            plain += c.sum;
        }
        const double s = std::isfinite(plain) ? total.sum + total.err : plain;
        return s / static_cast<double>(n);
    } else {
        std::vector<__int128> part(static_cast<size_t>(chunks));
        ipt::cpu::parallel_for(0, chunks, [&](int64_t c) {
            const int64_t b = c * kChunk;
            part[static_cast<size_t>(c)] = sum_integers(p + b, std::min(kChunk, n - b));
        });
        __int128 total = 0;
        for (__int128 v : part) total += v;
        return static_cast<double>(total) / static_cast<double>(n);
    }
}

void run_mean2(const KernelArgs& args) {
    const ipt::frontend::Mean2Plan plan = ipt::frontend::plan_mean2(args);
    const double m = ipt::cpu::visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, bool>) return mean_of(static_cast<const uint8_t*>(plan.A->data), plan.numel);
        else return mean_of(static_cast<const T*>(plan.A->data), plan.numel);
    });
    const ipt_tensor* out = args.output("m", plan.out_dtype, 1, 1, 1);
    if (plan.out_dtype == IPT_SINGLE) *static_cast<float*>(out->data) = static_cast<float>(m);
    else *static_cast<double*>(out->data) = m;
}

}  // namespace

IPT_CPU_OP("ipt.mean2", "", 100, run_mean2)
