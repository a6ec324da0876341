// SPDX-License-Identifier: Apache-2.0
// ipt.imresize as the front-end plans it (common/ops/imresize.hpp): one
// kernel launch per dimension, the first into scratch of the working class,
// with the front-end's tables kept on the device across calls.
// Each output element is the weighted sum over the front-end's taps in
// order, in double (--fmad=false: every product and sum rounds as on the
// host), so integer results are the CPU's bit for bit. uint8 passes of up to
// 8 taps sum in single first (common/float_first.cuh) and take the double sum
// only where single cannot decide the rounding.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <type_traits>
#include <vector>

#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/float_first.cuh"
#include "common/op_registry.hpp"
#include "common/ops/imresize.hpp"
#include "common/table_cache.hpp"

namespace ipt::cuda {
namespace {

struct PassGeometry {
    int64_t in_rows, in_cols, out_rows, out_cols, channels;
    int taps;
};

// The value of the low byte of v as a 1-byte T, in double, exactly: the byte
// placed in the mantissa of 2^52 and 2^52 taken away (two double operations,
// which run faster than an integer-to-double conversion).
template <class T>
__device__ __forceinline__ double byte_value(uint32_t v) {
    constexpr double k2p52 = 4503599627370496.0;
    if constexpr (std::is_signed_v<T>)
        return __hiloint2double(0x43300000, static_cast<int>((v + 128u) & 0xffu)) - (k2p52 + 128.0);
    else return __hiloint2double(0x43300000, static_cast<int>(v & 0xffu)) - k2p52;
}

// logical reads as im2uint8 does (true = 255).
template <class S>
__device__ __forceinline__ double resize_load(S v) {
    if constexpr (std::is_same_v<S, bool>) return v ? 255.0 : 0.0;
    else if constexpr (sizeof(S) == 1) return byte_value<S>(static_cast<uint8_t>(v));
    else return to_double(v);
}

// A logical destination holds the uint8 result > 128.
template <class D>
__device__ __forceinline__ D resize_store(double acc) {
    if constexpr (std::is_same_v<D, bool>) return saturate_round<uint8_t>(acc) > 128;
    else return saturate_round<D>(acc);
}

// Calls f(q) for the rows of this block's strips of `rows` rows, gridDim.y
// strips apart (rows of every plane counted together).
template <class F>
__device__ __forceinline__ void for_strip_rows(int64_t total_rows, int rows, const F& f) {
    for (int64_t q0 = static_cast<int64_t>(blockIdx.y) * rows; q0 < total_rows;
         q0 += static_cast<int64_t>(gridDim.y) * rows) {
        const int64_t q1 = q0 + rows < total_rows ? q0 + rows : total_rows;
        for (int64_t q = q0; q < q1; ++q) f(q);
    }
}

// Each thread owns one output column and walks kResizeRows output rows
// (rows of every plane, counted together), so that what a column needs is
// loaded once per thread instead of once per output. Along the columns the
// column's own taps live in registers (up to MaxTaps); along the rows every
// thread of the block reads the row's taps at the same address (one
// broadcast load). Sums run over the taps in order, in double.
constexpr int kResizeWidth = 128, kResizeRows = 8;

template <class S, class D, int MaxTaps>
__global__ void __launch_bounds__(kResizeWidth)
resize_along_columns(const S* __restrict__ src, D* __restrict__ dst, PassGeometry g,
                     const int32_t* __restrict__ idx, const double* __restrict__ w) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * kResizeWidth + threadIdx.x;
    if (c >= g.out_cols) return;
    const int taps = g.taps;
    int32_t j[MaxTaps];
    double wk[MaxTaps];
#pragma unroll
    for (int k = 0; k < MaxTaps; ++k) {
        j[k] = k < taps ? __ldg(idx + c * taps + k) : 0;
        wk[k] = k < taps ? __ldg(w + c * taps + k) : 0.0;
    }
    // A pass along the columns keeps the row count: row q of every plane
    // stacked is row q of the source and of the destination.
    const int64_t total_rows = g.out_rows * g.channels;
    for_strip_rows(total_rows, kResizeRows, [&](int64_t q) {
        const S* row = src + q * g.in_cols;
        S v[MaxTaps];
#pragma unroll
        for (int k = 0; k < MaxTaps; ++k) v[k] = k < taps ? row[j[k]] : S{};
        double acc = 0;
#pragma unroll
        for (int k = 0; k < MaxTaps; ++k)
            if (k < taps) acc = acc + wk[k] * resize_load(v[k]);
        dst[q * g.out_cols + c] = resize_store<D>(acc);
    });
}

template <class S, class D>
__global__ void __launch_bounds__(kResizeWidth)
resize_along_rows(const S* __restrict__ src, D* __restrict__ dst, PassGeometry g, const int32_t* __restrict__ idx,
                  const double* __restrict__ w) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * kResizeWidth + threadIdx.x;
    if (c >= g.out_cols) return;
    const int64_t total_rows = g.out_rows * g.channels;
    for_strip_rows(total_rows, kResizeRows, [&](int64_t q) {
        const int64_t ch = q / g.out_rows, r = q - ch * g.out_rows;
        const S* column = src + ch * g.in_rows * g.in_cols + c;
        const int32_t* ii = idx + r * g.taps;
        const double* ww = w + r * g.taps;
        // Four taps' indices, weights and values are loaded before any
        // is used, so that their latencies overlap.
        double acc = 0;
        int k = 0;
        for (; k + 4 <= g.taps; k += 4) {
            int32_t jq[4];
            double wq[4];
            S v[4];
#pragma unroll
            for (int t = 0; t < 4; ++t) jq[t] = __ldg(ii + k + t);
#pragma unroll
            for (int t = 0; t < 4; ++t) wq[t] = __ldg(ww + k + t);
#pragma unroll
            for (int t = 0; t < 4; ++t) v[t] = column[static_cast<int64_t>(jq[t]) * g.in_cols];
#pragma unroll
            for (int t = 0; t < 4; ++t) acc = acc + wq[t] * resize_load(v[t]);
        }
        for (; k < g.taps; ++k)
            acc = acc + __ldg(ww + k) * resize_load(column[static_cast<int64_t>(__ldg(ii + k)) * g.in_cols]);
        dst[q * g.out_cols + c] = resize_store<D>(acc);
    });
}

// resize_along_rows for 1-byte classes and a width divisible by 4: each
// thread owns four neighbouring columns, read and written as 32-bit words, so
// that one row's taps (index and weight) serve four outputs. The sums are the
// same, tap by tap in order, in double. Fewer rows per thread than the other
// passes keep as many threads in flight.
constexpr int kQuadRows = 2;

template <class T>
__global__ void __launch_bounds__(kResizeWidth)
resize_along_rows_quads(const T* __restrict__ src, T* __restrict__ dst, PassGeometry g,
                        const int32_t* __restrict__ idx, const double* __restrict__ w) {
    static_assert(sizeof(T) == 1 && !std::is_same_v<T, bool>);
    const int64_t words = g.out_cols / 4;
    const int64_t c = static_cast<int64_t>(blockIdx.x) * kResizeWidth + threadIdx.x;  // word index
    if (c >= words) return;
    const int64_t total_rows = g.out_rows * g.channels;
    auto byte = [](uint32_t v, int t) { return byte_value<T>(v >> (8 * t)); };
    for_strip_rows(total_rows, kQuadRows, [&](int64_t q) {
        const int64_t ch = q / g.out_rows, r = q - ch * g.out_rows;
        const uint32_t* column = reinterpret_cast<const uint32_t*>(src + ch * g.in_rows * g.in_cols) + c;
        const int32_t* ii = idx + r * g.taps;
        const double* ww = w + r * g.taps;
        double acc[4] = {0, 0, 0, 0};
        int k = 0;
        for (; k + 4 <= g.taps; k += 4) {
            uint32_t v[4];
#pragma unroll
            for (int t = 0; t < 4; ++t) v[t] = column[static_cast<int64_t>(__ldg(ii + k + t)) * words];
#pragma unroll
            for (int t = 0; t < 4; ++t) {
                const double wt = __ldg(ww + k + t);
#pragma unroll
                for (int e = 0; e < 4; ++e) acc[e] = acc[e] + wt * byte(v[t], e);
            }
        }
        for (; k < g.taps; ++k) {
            const uint32_t v = column[static_cast<int64_t>(__ldg(ii + k)) * words];
            const double wt = __ldg(ww + k);
#pragma unroll
            for (int e = 0; e < 4; ++e) acc[e] = acc[e] + wt * byte(v, e);
        }
        uint32_t packed = 0;
#pragma unroll
        for (int e = 0; e < 4; ++e) packed |= uint32_t{static_cast<uint8_t>(resize_store<T>(acc[e]))} << (8 * e);
        reinterpret_cast<uint32_t*>(dst)[q * words + c] = packed;
    });
}

// ---- uint8, single first ---------------------------------------------------
// uint8 passes of up to kSingleTaps taps sum in single with the weights
// rounded to single, and keep the result where its distance to the nearest
// integer is below the output's proven threshold (float_first_sum: the double
// sum then rounds to the same integer); the others, a few in ten thousand
// where the weights are not dyadic and none where they are (every
// power-of-two scale), are summed in double by resize_u8_in_double. Single
// sums, and bytes made floats without a conversion, issue about half the
// instructions of the double ones, which bound these passes.
constexpr int kSingleTaps = 8;

// One uint8 output summed in double as the other passes sum it, from the taps
// at base[index[k] * stride]; out of line, as few outputs come here.
__device__ __noinline__ unsigned resize_u8_in_double(const uint8_t* base, int64_t stride, const int32_t* index,
                                                     const double* weight, int taps) {
    double acc = 0;
    for (int k = 0; k < taps; ++k) acc = acc + __ldg(weight + k) * byte_value<uint8_t>(base[__ldg(index + k) * stride]);
    return saturate_round<uint8_t>(acc);
}

// Along the columns: a thread's column's single weights and threshold in
// registers, and one address for its taps, which are consecutive in all but
// the folded borders' columns; those few sum in double. MaxTaps: the taps
// issued (2, 4 or 8), so that few taps issue no idle ones.
template <int MaxTaps>
__global__ void __launch_bounds__(kResizeWidth)
resize_u8_along_columns(const uint8_t* __restrict__ src, uint8_t* __restrict__ dst, PassGeometry g,
                        const int32_t* __restrict__ idx, const double* __restrict__ w, const float* __restrict__ single) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * kResizeWidth + threadIdx.x;
    if (c >= g.out_cols) return;
    const int taps = g.taps;
    const int32_t j0 = __ldg(idx + c * taps);
    float wf[MaxTaps];
    bool consecutive = true;
#pragma unroll
    for (int k = 0; k < MaxTaps; ++k) {
        wf[k] = k < taps ? __ldg(single + c * taps + k) : 0.0f;
        consecutive = consecutive && (k >= taps || __ldg(idx + c * taps + k) == j0 + k);
    }
    const float decided_below = consecutive ? __ldg(single + g.out_cols * taps + c) : 0.0f;
    const int64_t total_rows = g.out_rows * g.channels;
    for_strip_rows(total_rows, kResizeRows, [&](int64_t q) {
        const uint8_t* row = src + q * g.in_cols;
        float sum = 0;
        if (consecutive) {
#pragma unroll
            for (int k = 0; k < MaxTaps; ++k)
                if (k < taps) sum = __fmaf_rn(wf[k], zero_extended_byte_to_float(row[j0 + k]), sum);
        }
        unsigned r;
        if (!float_first_round_below(sum, decided_below, &r))
            r = resize_u8_in_double(row, 1, idx + c * taps, w + c * taps, taps);
        dst[q * g.out_cols + c] = static_cast<uint8_t>(r);
    });
}

// Along the rows, four columns a thread as 32-bit words (as
// resize_along_rows_quads): the row's single weights and threshold are one
// broadcast load for the block; MaxTaps: 2, 4 or 8 (at most 2 taps are
// unrolled).
template <int MaxTaps>
__global__ void __launch_bounds__(kResizeWidth)
resize_u8_along_rows_quads(const uint8_t* __restrict__ src, uint8_t* __restrict__ dst, PassGeometry g,
                           const int32_t* __restrict__ idx, const double* __restrict__ w,
                           const float* __restrict__ single) {
    const int64_t words = g.out_cols / 4;
    const int64_t c = static_cast<int64_t>(blockIdx.x) * kResizeWidth + threadIdx.x;  // word index
    if (c >= words) return;
    const int64_t total_rows = g.out_rows * g.channels;
    for_strip_rows(total_rows, kQuadRows, [&](int64_t q) {
        const int64_t ch = q / g.out_rows, r = q - ch * g.out_rows;
        const uint8_t* plane = src + ch * g.in_rows * g.in_cols;
        const uint32_t* column = reinterpret_cast<const uint32_t*>(plane) + c;
        const int32_t* ii = idx + r * g.taps;
        const float* ws = single + r * g.taps;
        float sum[4] = {0, 0, 0, 0};
        auto add = [&](uint32_t v, float wt) {
            sum[0] = __fmaf_rn(wt, word_byte_to_float<0>(v), sum[0]);
            sum[1] = __fmaf_rn(wt, word_byte_to_float<1>(v), sum[1]);
            sum[2] = __fmaf_rn(wt, word_byte_to_float<2>(v), sum[2]);
            sum[3] = __fmaf_rn(wt, word_byte_to_float<3>(v), sum[3]);
        };
        if constexpr (MaxTaps <= 2) {
            // Both taps' words loaded before either is used.
            uint32_t v[MaxTaps];
#pragma unroll
            for (int k = 0; k < MaxTaps; ++k)
                v[k] = k < g.taps ? column[static_cast<int64_t>(__ldg(ii + k)) * words] : 0u;
#pragma unroll
            for (int k = 0; k < MaxTaps; ++k)
                if (k < g.taps) add(v[k], __ldg(ws + k));
        } else {
            // Four taps' words at a time (all eight at once took more
            // registers and ran slower).
            int k = 0;
            for (; k + 4 <= g.taps; k += 4) {
                uint32_t v[4];
#pragma unroll
                for (int t = 0; t < 4; ++t) v[t] = column[static_cast<int64_t>(__ldg(ii + k + t)) * words];
#pragma unroll
                for (int t = 0; t < 4; ++t) add(v[t], __ldg(ws + k + t));
            }
            for (; k < g.taps; ++k) add(column[static_cast<int64_t>(__ldg(ii + k)) * words], __ldg(ws + k));
        }
        const float decided_below = __ldg(single + g.out_rows * g.taps + r);
        uint32_t packed = 0;
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            unsigned o;
            if (!float_first_round_below(sum[e], decided_below, &o))
                o = resize_u8_in_double(plane + 4 * c + e, g.in_cols, ii, w + r * g.taps, g.taps);
            packed |= o << (8 * e);
        }
        reinterpret_cast<uint32_t*>(dst)[q * words + c] = packed;
    });
}

// Columns with more taps than registers hold (strong shrinking): the taps
// are read from the tables for every output.
template <class S, class D>
__global__ void __launch_bounds__(kResizeWidth)
resize_along_columns_wide(const S* __restrict__ src, D* __restrict__ dst, PassGeometry g,
                          const int32_t* __restrict__ idx, const double* __restrict__ w) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * kResizeWidth + threadIdx.x;
    if (c >= g.out_cols) return;
    const int32_t* ii = idx + c * g.taps;
    const double* ww = w + c * g.taps;
    const int64_t total_rows = g.out_rows * g.channels;
    for_strip_rows(total_rows, kResizeRows, [&](int64_t q) {
        const S* row = src + q * g.in_cols;
        double acc = 0;
        for (int k = 0; k < g.taps; ++k) acc = acc + __ldg(ww + k) * resize_load(row[__ldg(ii + k)]);
        dst[q * g.out_cols + c] = resize_store<D>(acc);
    });
}

// single: the axis's single-first table (uint8 passes of up to kSingleTaps taps).
template <class S, class D>
void launch_pass(const Device& dev, const S* src, D* dst, int dim, const PassGeometry& g, const int32_t* idx,
                 const double* w, const float* single) {
    const int64_t row_groups = (g.out_rows * g.channels + kResizeRows - 1) / kResizeRows;
    const dim3 grid(static_cast<unsigned>((g.out_cols + kResizeWidth - 1) / kResizeWidth),
                    static_cast<unsigned>(row_groups < 65535 ? row_groups : 65535));
    if constexpr (std::is_same_v<S, D> && sizeof(S) == 1 && !std::is_same_v<S, bool>) {
        const int64_t groups = (g.out_rows * g.channels + kQuadRows - 1) / kQuadRows;
        const dim3 quads(static_cast<unsigned>((g.out_cols / 4 + kResizeWidth - 1) / kResizeWidth),
                         static_cast<unsigned>(groups < 65535 ? groups : 65535));
        constexpr bool u8 = std::is_same_v<S, uint8_t>;
        const auto in = reinterpret_cast<const uint8_t*>(src);
        const auto out = reinterpret_cast<uint8_t*>(dst);
        if (dim == 0 && g.out_cols % 4 == 0 && reinterpret_cast<uintptr_t>(dst) % 4 == 0 &&
            reinterpret_cast<uintptr_t>(src) % 4 == 0) {
            if (!(u8 && single)) resize_along_rows_quads<S><<<quads, kResizeWidth, 0, dev.stream>>>(src, dst, g, idx, w);
            else if (g.taps <= 2) resize_u8_along_rows_quads<2><<<quads, kResizeWidth, 0, dev.stream>>>(in, out, g, idx, w, single);
            else if (g.taps <= 4) resize_u8_along_rows_quads<4><<<quads, kResizeWidth, 0, dev.stream>>>(in, out, g, idx, w, single);
            else resize_u8_along_rows_quads<8><<<quads, kResizeWidth, 0, dev.stream>>>(in, out, g, idx, w, single);
            check_launch("ipt.imresize");
            return;
        }
        if (u8 && single && dim == 1) {
            if (g.taps <= 2) resize_u8_along_columns<2><<<grid, kResizeWidth, 0, dev.stream>>>(in, out, g, idx, w, single);
            else if (g.taps <= 4) resize_u8_along_columns<4><<<grid, kResizeWidth, 0, dev.stream>>>(in, out, g, idx, w, single);
            else resize_u8_along_columns<8><<<grid, kResizeWidth, 0, dev.stream>>>(in, out, g, idx, w, single);
            check_launch("ipt.imresize");
            return;
        }
    }
    if (dim == 0)
        resize_along_rows<S, D><<<grid, kResizeWidth, 0, dev.stream>>>(src, dst, g, idx, w);
    else if (g.taps <= 4)
        resize_along_columns<S, D, 4><<<grid, kResizeWidth, 0, dev.stream>>>(src, dst, g, idx, w);
    else if (g.taps <= 8)
        resize_along_columns<S, D, 8><<<grid, kResizeWidth, 0, dev.stream>>>(src, dst, g, idx, w);
    else if (g.taps <= 16)
        resize_along_columns<S, D, 16><<<grid, kResizeWidth, 0, dev.stream>>>(src, dst, g, idx, w);
    else
        resize_along_columns_wide<S, D><<<grid, kResizeWidth, 0, dev.stream>>>(src, dst, g, idx, w);
    check_launch("ipt.imresize");
}

// The device copies of one axis's tables (cached per device by the address
// of the front-end's shared tables).
struct AxisTables {
    const int32_t* indices;
    const double* weights;
};

AxisTables device_tables(const Device& dev, const ipt::frontend::ImresizeAxis& ax) {
    DeviceTableCache& cache = table_cache(dev.ordinal);
    return {static_cast<const int32_t*>(cache.get(dev.stream, ax.tables, ax.indices.data(), ax.indices.size_bytes())),
            static_cast<const double*>(cache.get(dev.stream, ax.tables, ax.weights.data(), ax.weights.size_bytes()))};
}

// An axis's single-first table: per output index its taps' weights rounded to
// single, then per output index the threshold below which single decides
// (float_first_sum's decided_below, 1 where its sums are exact). Derived once
// per front-end tables, which it holds (so their address names only them),
// from a small cache as the front-end's.
struct SingleFirstTable {
    std::shared_ptr<const ipt::frontend::ImresizeTables> source;
    std::vector<float> values;  // out_length x taps weights, then out_length thresholds
};

std::shared_ptr<const SingleFirstTable> single_first_table(const ipt::frontend::ImresizeAxis& ax) {
    static std::mutex mutex;
    static std::vector<std::shared_ptr<const SingleFirstTable>> recent;  // most recently used last
    std::lock_guard<std::mutex> lock(mutex);
    auto hit = std::find_if(recent.begin(), recent.end(), [&](const auto& t) { return t->source == ax.tables; });
    if (hit != recent.end()) {
        std::rotate(hit, hit + 1, recent.end());
        return recent.back();
    }
    auto t = std::make_shared<SingleFirstTable>();
    t->source = ax.tables;
    const int64_t n = ax.out_length, taps = ax.taps;
    t->values.resize(static_cast<size_t>(n * taps + n));
    for (int64_t i = 0; i < n; ++i) {
        const FloatFirstSum<kSingleTaps> f = float_first_sum<kSingleTaps>(ax.weights.data() + i * taps, ax.taps, 0.0);
        std::copy(f.w, f.w + taps, t->values.begin() + i * taps);
        t->values[n * taps + i] = float_first_threshold(f);
    }
    if (recent.size() == 8) recent.erase(recent.begin());
    recent.push_back(t);
    return t;
}

// The device copy of the single-first table of a uint8 pass along ax, or null
// where the pass sums in double (other classes, more than kSingleTaps taps).
const float* device_single_table(const Device& dev, const ipt::frontend::ImresizeAxis& ax, int32_t dtype) {
    if (dtype != IPT_UINT8 || ax.taps > kSingleTaps) return nullptr;
    const std::shared_ptr<const SingleFirstTable> t = single_first_table(ax);
    return static_cast<const float*>(
        table_cache(dev.ordinal).get(dev.stream, t, t->values.data(), t->values.size() * sizeof(float)));
}

void run_imresize(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::ImresizePlan plan = ipt::frontend::plan_imresize(args);
    const int64_t ch = plan.channels;
    const ipt_tensor* B = args.output("B", plan.dtype, plan.out_rows, plan.out_cols, ch);
    if (plan.out_rows * plan.out_cols * ch == 0) return;
    int64_t mid_rows, mid_cols;
    ipt::frontend::imresize_middle_size(plan, &mid_rows, &mid_cols);
    const int first = plan.first, second = 1 - first;
    const AxisTables t1 = device_tables(dev, plan.axis[first]);
    const AxisTables t2 = device_tables(dev, plan.axis[second]);
    const PassGeometry g1{plan.rows, plan.cols, mid_rows, mid_cols, ch, plan.axis[first].taps};
    const PassGeometry g2{mid_rows, mid_cols, plan.out_rows, plan.out_cols, ch, plan.axis[second].taps};
    visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        using W = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;
        DeviceArray<W> mid(static_cast<size_t>(mid_rows * mid_cols * ch), dev.stream);
        launch_pass(dev, dptr<const T>(plan.A), mid.get(), first, g1, t1.indices, t1.weights,
                    device_single_table(dev, plan.axis[first], plan.dtype));
        launch_pass(dev, static_cast<const W*>(mid.get()), dptr<T>(B), second, g2, t2.indices, t2.weights,
                    device_single_table(dev, plan.axis[second], plan.dtype));
    });
}

IPT_CUDA_OP("ipt.imresize", "", 100, run_imresize)

}  // namespace
}  // namespace ipt::cuda
