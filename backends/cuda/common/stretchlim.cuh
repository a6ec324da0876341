// SPDX-License-Identifier: Apache-2.0
// stretchlim on the device, shared by ipt.stretchlim and ipt.imadjust (whose
// default input limits are stretchlim(I)). Histogram per channel (256 bins for
// uint8, 65536 otherwise, MATLAB's imhist binning), then one block per channel
// scans the cumulative counts and finds the first bins that reach the plan's
// count thresholds: the front-end turned the reference's cdf comparisons into
// integer counts, so the device compares counts and never divides. The limits
// stay on the device: nothing waits.
#pragma once

#include <cub/block/block_scan.cuh>

#include "common/buffer.hpp"
#include "common/class_scaling.hpp"
#include "common/device.cuh"
#include "common/last_block.cuh"
#include "common/ops/stretchlim.hpp"

namespace ipt::cuda {

// imhist's bin (0-based), the rule of backends/common/intensity.hpp's
// histogram_bin: logical in the first or last bin; uint8 with 256 bins and
// uint16 (int16 offset by 32768) with 65536 bins the value itself, other bin
// counts and 32-bit integers scaled from the class's range; floating values
// trunc(x*(nbins-1) + 0.5) in their own class, NaN and values below 0 in the
// first bin, above 1 in the last.
__device__ inline int scaled_bin(double u, double top, int nbins) {
    const double scale = static_cast<double>(nbins - 1) / top;
    const long long idx = static_cast<long long>(__dadd_rn(__dmul_rn(u, scale), 0.5));
    return idx > nbins - 1 ? nbins - 1 : static_cast<int>(idx);
}

template <class T>
__device__ inline int stretch_bin(T v, int nbins) {
    if constexpr (std::is_same_v<T, bool>) {
        return v ? nbins - 1 : 0;
    } else if constexpr (std::is_same_v<T, uint8_t>) {
        return nbins == 256 ? static_cast<int>(v) : scaled_bin(static_cast<double>(v), 255.0, nbins);
    } else if constexpr (std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t>) {
        const int u = std::is_same_v<T, int16_t> ? static_cast<int>(v) + 32768 : static_cast<int>(v);
        return nbins == 65536 ? u : scaled_bin(static_cast<double>(u), 65535.0, nbins);
    } else if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t>) {
        const double u = std::is_same_v<T, int32_t> ? static_cast<double>(v) + 2147483648.0 : static_cast<double>(v);
        return scaled_bin(u, 4294967295.0, nbins);
    } else {
        if (v != v) return 0;
        const T idx = ipt::common::product_rn(v, static_cast<T>(nbins - 1)) + T(0.5);
        if (idx < 0) return 0;
        if (idx > static_cast<T>(nbins - 1) || isinf(v)) return nbins - 1;
        return static_cast<int>(idx);
    }
}

// Bins a value as Binning says: imhist's rule (stretch_bin) with nbins bins,
// or graythresh's (the value's im2uint8, 256 bins).
enum class Binning { Imhist, Im2uint8 };

template <Binning B, class T>
__device__ inline int bin_of(T v, int nbins) {
    if constexpr (B == Binning::Im2uint8) {
        if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t>) return 0;  // not a graythresh class
        else return ipt::common::to_uint8_scale(v);
    } else {
        return stretch_bin(v, nbins);
    }
}

// Each warp counts into its own copy of the histogram in shared memory
// (copies = blockDim.x / 32 when they fit, else one), so that warps don't
// contend for the same bins; byte classes read 16 values per load.
// No work after counting: the counts stay in hist for the kernels that follow.
struct KeepCounts {};

// After counting, the last block to finish hands every count to
// hand_over(index, count) and zeroes hist and the counter: hist and counter
// are then zeroed stream scratch (common/stream_scratch.hpp), and the whole
// histogram takes one launch.
template <class HandOver>
__device__ inline void hand_over_counts(unsigned* hist, int total_bins, unsigned* counter, const HandOver& hand_over) {
    if constexpr (!std::is_same_v<HandOver, KeepCounts>) {
        if (!arrived_last(counter)) return;
        for (int i = threadIdx.x; i < total_bins; i += blockDim.x) {
            hand_over(i, __ldcg(hist + i));
            hist[i] = 0;
        }
    }
}

template <Binning B, class T, class HandOver>
__global__ void stretch_hist_small(const T* __restrict__ a, int64_t plane, unsigned* __restrict__ hist,
                                   int nbins, int copies, unsigned* counter, HandOver hand_over) {
    extern __shared__ unsigned local[];
    const int ch = blockIdx.y;
    const int total = nbins * copies;
    for (int i = threadIdx.x; i < total; i += blockDim.x) local[i] = 0;
    __syncthreads();
    unsigned* mine = local + (static_cast<int>(threadIdx.x) / 32 % copies) * nbins;
    const T* p = a + ch * plane;
    int64_t head = 0;
    if constexpr (sizeof(T) == 1) {
        // Bytes up to the first 16-byte boundary, then 16 at a time.
        head = (16 - static_cast<int64_t>(reinterpret_cast<uintptr_t>(p) & 15)) & 15;
        if (head > plane) head = plane;
        const int64_t vectors = (plane - head) / 16;
        const uint4* v = reinterpret_cast<const uint4*>(p + head);
        IPT_GRID_STRIDE(k, vectors) {
            const uint4 q = __ldg(v + k);
            const unsigned words[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
            for (int w = 0; w < 4; ++w)
#pragma unroll
                for (int b = 0; b < 4; ++b) {
                    const uint8_t byte = static_cast<uint8_t>(words[w] >> (8 * b));
                    T value;
                    memcpy(&value, &byte, 1);
                    atomicAdd(&mine[bin_of<B>(value, nbins)], 1u);
                }
        }
        const int64_t tail = head + vectors * 16;
        IPT_GRID_STRIDE(i, head + (plane - tail)) {
            const int64_t at = i < head ? i : tail + (i - head);
            atomicAdd(&mine[bin_of<B>(p[at], nbins)], 1u);
        }
    } else {
        IPT_GRID_STRIDE(i, plane) atomicAdd(&mine[bin_of<B>(p[i], nbins)], 1u);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < nbins; i += blockDim.x) {
        unsigned sum = 0;
        for (int c = 0; c < copies; ++c) sum += local[c * nbins + i];
        if (sum) atomicAdd(&hist[ch * nbins + i], sum);
    }
    hand_over_counts(hist, nbins * gridDim.y, counter, hand_over);
}

template <Binning B, class T, class HandOver>
__global__ void stretch_hist_large(const T* __restrict__ a, int64_t plane, unsigned* __restrict__ hist,
                                   int nbins, unsigned* counter, HandOver hand_over) {
    const int ch = blockIdx.y;
    const T* p = a + ch * plane;
    IPT_GRID_STRIDE(i, plane) atomicAdd(&hist[ch * nbins + bin_of<B>(p[i], nbins)], 1u);
    hand_over_counts(hist, nbins * gridDim.y, counter, hand_over);
}

// Largest histogram counted in shared memory first.
constexpr int kSharedHistogramBins = 4096;

// Enqueues the histograms of `channels` planes of `plane` values of class
// dtype at a, nbins bins each, into hist (channels * nbins counts, zeroed).
// With a HandOver other than KeepCounts, hist is zeroed stream scratch with
// the counter after it, and the last block hands the counts over (see
// hand_over_counts); an empty image hands over nothing.
template <Binning B, class HandOver = KeepCounts>
inline void histogram_async(int32_t dtype, const void* a, int64_t plane, int channels, unsigned* hist, int nbins,
                            cudaStream_t stream, const char* what, HandOver hand_over = {}) {
    if (plane == 0) return;
    unsigned* counter = hist + static_cast<int64_t>(channels) * nbins;
    visit_dtype(dtype, [&](auto tag) {
        using T = decltype(tag);
        dim3 grid(grid_for(plane, kThreads, 264), channels);
        const T* data = static_cast<const T*>(a);
        if (nbins <= kSharedHistogramBins) {
            const int copies = nbins * (kThreads / 32) <= kSharedHistogramBins ? kThreads / 32 : 1;
            stretch_hist_small<B, T><<<grid, kThreads, nbins * copies * sizeof(unsigned), stream>>>(
                data, plane, hist, nbins, copies, counter, hand_over);
        } else {
            stretch_hist_large<B, T><<<grid, kThreads, 0, stream>>>(data, plane, hist, nbins, counter, hand_over);
        }
    });
    check_launch(what);
}

constexpr int kScanThreads = 1024;

// One block per channel: ilow is the first bin whose cumulative count reaches
// count_low, ihigh the first that reaches count_high. The front-end defines
// count_low as the smallest count c with c/plane > tol_low and count_high as
// the smallest with c/plane >= tol_high, both as the reference evaluates cdf;
// c/plane is monotonic in c, so "cdf > tol_low" is "cumulative >= count_low"
// and "cdf >= tol_high" is "cumulative >= count_high" (both >=, on integers).
// Equal bins, or no histogram (needs_histogram false), give [0; 1].
// out is 2 x channels, row-major: out[c] = low, out[channels + c] = high.
static __global__ void __launch_bounds__(kScanThreads)
stretch_limits(const unsigned* __restrict__ hist, int nbins, bool needs_histogram, unsigned long long count_low,
               unsigned long long count_high, double* __restrict__ out, int channels) {
    const int ch = blockIdx.x;
    const unsigned* h = hist + ch * nbins;
    const int per = (nbins + kScanThreads - 1) / kScanThreads;
    const int begin = threadIdx.x * per;
    unsigned long long local = 0;
    for (int i = begin; i < begin + per && i < nbins; ++i) local += h[i];
    using Scan = cub::BlockScan<unsigned long long, kScanThreads>;
    __shared__ typename Scan::TempStorage tmp;
    __shared__ int ilow, ihigh;
    if (threadIdx.x == 0) {
        ilow = nbins;
        ihigh = nbins;
    }
    unsigned long long before = 0;
    Scan(tmp).ExclusiveSum(local, before);
    __syncthreads();
    unsigned long long cum = before;
    for (int i = begin; i < begin + per && i < nbins; ++i) {
        cum += h[i];
        if (cum >= count_low) atomicMin(&ilow, i);
        // count_low <= count_high, so every later bin passes both: stop.
        if (cum >= count_high) {
            atomicMin(&ihigh, i);
            break;
        }
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        double lo = 0.0, hi = 1.0;
        if (needs_histogram && ilow != ihigh && ilow < nbins && ihigh < nbins) {
            lo = static_cast<double>(ilow) / (nbins - 1);
            hi = static_cast<double>(ihigh) / (nbins - 1);
        }
        out[ch] = lo;
        out[channels + ch] = hi;
    }
}

// Enqueues stretchlim as the front-end planned it (common/ops/stretchlim.hpp)
// into out (2 x channels doubles).
inline void stretchlim_async(const ipt::frontend::StretchlimPlan& plan, double* out, cudaStream_t stream,
                             const char* what) {
    const int channels = static_cast<int>(plan.channels);
    const int nbins = static_cast<int>(plan.nbins);
    DeviceArray<unsigned> hist(static_cast<size_t>(nbins) * channels, stream);
    hist.zero();
    if (plan.needs_histogram)
        histogram_async<Binning::Imhist>(plan.dtype, plan.I->data, plan.plane, channels, hist.get(), nbins, stream,
                                         what);
    // The thresholds are counts of plan.plane values: the histogram's total.
    stretch_limits<<<channels, kScanThreads, 0, stream>>>(
        hist.get(), nbins, plan.needs_histogram, static_cast<unsigned long long>(plan.count_low),
        static_cast<unsigned long long>(plan.count_high), out, channels);
    check_launch(what);
}

}  // namespace ipt::cuda
