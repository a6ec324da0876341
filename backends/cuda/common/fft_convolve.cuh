// SPDX-License-Identifier: Apache-2.0
// Linear 2-D convolution through cuFFT in double precision, for large kernels
// (conv2's "fft" variant):
//
//   out(o_r, o_c) = full(o_r + start_r, o_c + start_c),  full = A conv K
//
// A is converted to double and zero-padded into a P x Q plane in cuFFT's
// in-place real layout (each row padded to Q/2+1 complex values, i.e.
// 2 (Q/2+1) doubles) and transformed by a D2Z plan; its spectrum is
// multiplied pointwise by the kernel's with the 1/(PQ) scale, transformed
// back by a Z2D plan, and the wanted window is converted to the output class.
// Images are row-major (DESIGN.md), so the transforms' last, contiguous
// dimension is the columns, and that is the one R2C halves.
//
// The kernel's spectrum. For a kernel of at most kDirectSpectrumRows rows
// (and kr kc <= 8 P) it is summed directly where the product needs it: the
// kr rows are transformed by direct sums first (kr (Q/2+1) values of kc terms,
// from a table of the unit roots), then each spectrum value is the sum of kr
// of those, twisted, in the kernel that multiplies the spectra. That costs
// 4 kr fused multiply-adds a value, and saves staging the kernel's plane and
// one of the three transforms. Larger kernels are staged into a second plane
// and transformed like A.
//
// P and Q hold A and K and keep the circular wrap-around out of the wanted
// window: P >= max(ma, kr, ma + kr - 1 - start_r, start_r + out_rows), Q
// likewise ('valid' needs only P >= ma, 'same' about ma + kr/2), rounded up
// to the length cuFFT transforms fastest (fft_fast_length).
//
// Inputs whose transform would not give the convolution -- Inf or NaN (spread
// over the whole output) and magnitudes above kFftInputLimit (products of
// spectra could overflow) -- make the call decline. The staging kernels raise
// a flag in mapped host memory; the host reads it once, after queuing the
// forward transform so that the GPU stays busy while the host waits. That
// wait (for the work queued before the call, and the staging) is the one
// synchronisation of the variant.
//
// Plans: per device and (P, Q), a forward plan and an inverse plan,
// made without cuFFT's own workspace (each call passes stream-ordered
// scratch), cached for up to kFftMaxCachedPlans sizes with the least recently
// used evicted. The first call of a size makes its plans (cuFFT may wait for
// the device while it does).
//
// Error: |out - exact| <= c u log2(PQ) ||A||_F ||K||_F, u = 2^-53, c small: a
// bound on the whole output, not per element. The direct sums of the kernel's
// spectrum add at most (kr + kc) u ||K||_1 to each of its values.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/cufft_loader.hpp"
#include "common/device.cuh"
#include "common/fft_limits.hpp"

namespace ipt::cuda {

struct FftGeometry {
    int64_t ma = 0, na = 0;            // image
    int64_t kr = 0, kc = 0;            // kernel support
    int64_t start_r = 0, start_c = 0;  // first wanted element of the full convolution
    int64_t out_rows = 0, out_cols = 0;
};

// One factor of the kernel on the device, single or double.
struct FftTaps {
    const void* data = nullptr;
    bool single = false;
    __device__ double at(int64_t i) const {
        return single ? static_cast<double>(static_cast<const float*>(data)[i]) : static_cast<const double*>(data)[i];
    }
};

// The kernel K: a kr x kc matrix (row-major), or for conv2(u, v, A) the outer
// product u v^T (rows by u, columns by v; each tap rounded once, u(i) * v(j)).
struct FftKernel {
    FftTaps matrix, u, v;
    bool separable = false;
};

// A transform of rows x cols real values. In the in-place layout a row holds
// cols/2 + 1 complex values, i.e. 2 (cols/2 + 1) doubles.
struct FftSize {
    int64_t rows = 0, cols = 0;
    int64_t half_cols() const { return cols / 2 + 1; }
    int64_t real_pitch() const { return 2 * half_cols(); }
    int64_t plane_doubles() const { return rows * real_pitch(); }
    int64_t plane_complex() const { return rows * half_cols(); }
};

// The length cuFFT transforms fastest among those >= n. Measured on an H100
// (double, in place, n x n, a batch-2 forward and an inverse transform):
// powers of 2, 3 and 7 cost 46-58 ps per point (1024, 2048, 2187, 2401, 4096),
// every other length with factors 2, 3, 5, 7 87-125 ps (2058, 2100, 2160,
// 2304, 2500, ...; powers of 5 were not measured). A 2-D transform pays that
// factor of ~2 once, i.e. ~1.4 per dimension, so a length costs 10 per point
// if it is such a prime power, 14 otherwise, and the cheapest wins: 2063 ->
// 2187 (not 2100), 2500 -> 2500 (not 4096).
inline int64_t fft_fast_length(int64_t n) {
    auto cost = [](int64_t m) -> int64_t {
        int64_t rest = m;
        int distinct = 0;
        bool prime_power_fast = true;
        for (int64_t p : {2, 3, 5, 7}) {
            if (rest % p != 0) continue;
            ++distinct;
            prime_power_fast = p != 5;
            while (rest % p == 0) rest /= p;
        }
        if (rest != 1) return -1;  // another prime factor: not a length to use
        return (distinct <= 1 && prime_power_fast ? 10 : 14) * m;
    };
    int64_t best = 1, best_cost = -1;
    // A power of 2 >= n always qualifies, so nothing longer can be cheaper.
    int64_t limit = 1;
    while (limit < n) limit *= 2;
    for (int64_t m = std::max<int64_t>(n, 1); m <= limit; ++m) {
        const int64_t c = cost(m);
        if (c >= 0 && (best_cost < 0 || c < best_cost)) best = m, best_cost = c;
    }
    return best;
}

// Length along one dimension: holds the image (m) and the kernel (k), and
// the circular result at the wanted indices [start, start + out) equals the
// full convolution there (full(i - L) and full(i + L) are zero there).
inline int64_t fft_min_length(int64_t m, int64_t k, int64_t start, int64_t out) {
    return std::max({m, k, m + k - 1 - start, start + out});
}

inline FftSize fft_size_for(const FftGeometry& g) {
    // At least 2 columns: a real-to-complex transform of length 1 is not one
    // every cuFFT version plans (one row, P = 1, is made a 1-D transform).
    return FftSize{fft_fast_length(fft_min_length(g.ma, g.kr, g.start_r, g.out_rows)),
                   fft_fast_length(std::max<int64_t>(fft_min_length(g.na, g.kc, g.start_c, g.out_cols), 2))};
}

using ipt::common::kFftInputLimit;

constexpr int kFftThreads = 256;
constexpr size_t kFftMaxCachedPlans = 16;

// Row-parallel launches: blockIdx.y strides over the rows, so every thread of
// a block runs the same iterations (the block-wide vote of the staging
// kernels relies on it).
inline dim3 fft_row_grid(int64_t cols, int64_t rows) {
    return dim3(static_cast<unsigned>(std::max<int64_t>((cols + kFftThreads - 1) / kFftThreads, 1)),
                static_cast<unsigned>(std::clamp<int64_t>(rows, 1, 65535)), 1);
}

// ---- kernels ------------------------------------------------------------------

// The values a plane is staged from: A converted to double, or the kernel
// (for u v^T each tap u(i) * v(j) rounded once; a non-finite u(i) or v(j)
// gives a non-finite product, so checking the products covers the factors).
template <class TA>
struct ImageValues {
    const TA* a;
    int64_t rows, cols;
    __device__ double operator()(int64_t r, int64_t c) const { return to_double(a[r * cols + c]); }
};
struct KernelValues {
    FftKernel k;
    int64_t rows, cols;
    __device__ double operator()(int64_t r, int64_t c) const {
        return k.separable ? k.u.at(r) * k.v.at(c) : k.matrix.at(r * cols + c);
    }
};

// A value the transforms cannot carry: Inf, NaN or a magnitude above
// kFftInputLimit.
__device__ inline bool out_of_fft_range(double x) { return !(fabs(x) <= kFftInputLimit); }

// A plane: the values in its top-left corner, zeros elsewhere. Raises
// *out_of_range (once per block at most) for Inf, NaN or |x| > kFftInputLimit.
template <class Values>
__global__ void __launch_bounds__(kFftThreads)
fft_stage_plane(Values values, double* __restrict__ plane, int64_t rows, int64_t pitch, unsigned* out_of_range) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    bool bad = false;
    for (int64_t r = blockIdx.y; r < rows; r += gridDim.y) {
        if (c >= pitch) continue;
        double x = 0.0;
        if (r < values.rows && c < values.cols) {
            x = values(r, c);
            bad |= out_of_fft_range(x);
        }
        plane[r * pitch + c] = x;
    }
    if (__syncthreads_or(bad) && threadIdx.x == 0) *out_of_range = 1u;
}

__device__ inline double2 complex_product(double2 a, double2 k) {
    return make_double2(a.x * k.x - a.y * k.y, a.x * k.y + a.y * k.x);
}

// image <- image * kernel * scale, elementwise over complex spectra.
static __global__ void __launch_bounds__(kFftThreads)
fft_multiply_spectra(double2* __restrict__ image, const double2* __restrict__ kernel, int64_t n, double scale) {
    IPT_GRID_STRIDE(i, n) {
        const double2 p = complex_product(image[i], kernel[i]);
        image[i] = make_double2(p.x * scale, p.y * scale);
    }
}

// Kernels of at most this many rows have their spectrum summed directly.
// Measured on the H200 at P = 2187 (Nsight Compute): the direct product takes
// about 2.3 us a kernel row, where staging and transforming the kernel's
// plane and the plain product take about 145 us, so they meet near 60 rows.
constexpr int kDirectSpectrumRows = 48;
// fft_multiply_direct's blocks: kDirectColumns columns of the spectrum by
// kDirectRowGroups groups of kDirectRowsPerThread rows, a thread a column of
// one group. A row-spectrum value a thread loads serves its
// kDirectRowsPerThread rows, and the block's other groups find it in L1.
// Four rows a thread keep it at 4 blocks an SM (registers), which the
// products' latency needs more than the fewer loads of more rows.
constexpr int kDirectColumns = 64;
constexpr int kDirectRowGroups = kFftThreads / kDirectColumns;
constexpr int kDirectRowsPerThread = 4;
constexpr int kDirectBlockRows = kDirectRowGroups * kDirectRowsPerThread;
// fft_kernel_row_spectra's blocks: few threads, so that the kr rows of a
// small kernel still spread over many SMs.
constexpr int kRowSpectraThreads = 64;

// roots[j] = e^{-2 pi i j / n} for 0 <= j < n, for each of the two lengths
// (P and Q); sincospi keeps the phase exact to the rounding of 2j/n.
static __global__ void __launch_bounds__(kFftThreads)
fft_unit_roots(double2* __restrict__ roots_p, int64_t p, double2* __restrict__ roots_q, int64_t q) {
    IPT_GRID_STRIDE(i, p + q) {
        const bool first = i < p;
        const int64_t j = first ? i : i - p, n = first ? p : q;
        double s, c;
        sincospi(2.0 * static_cast<double>(j) / static_cast<double>(n), &s, &c);
        (first ? roots_p : roots_q)[j] = make_double2(c, -s);
    }
}

// (a * b) mod n for a, b < n (in 32 bits where the product fits).
__device__ inline int64_t product_mod(int64_t a, int64_t b, int64_t n) {
    const uint64_t ab = static_cast<uint64_t>(a) * static_cast<uint64_t>(b);
    return ab <= 0xFFFFFFFFu ? static_cast<int64_t>(static_cast<uint32_t>(ab) % static_cast<uint32_t>(n))
                             : static_cast<int64_t>(ab % static_cast<uint64_t>(n));
}

// The kernel's rows transformed: rows(r, v) = sum_{c < kc} K(r, c) e^{-2 pi i
// v c / Q} for r < kr, v < Q/2 + 1, in double, taps in increasing c (four
// taps and their roots loaded before they are used). Raises *out_of_range
// (once per block at most) for a tap that is Inf, NaN or above
// kFftInputLimit. Grid: x over v, y over r.
static __global__ void __launch_bounds__(kRowSpectraThreads)
fft_kernel_row_spectra(KernelValues values, const double2* __restrict__ roots_q, double2* __restrict__ rows,
                       int64_t half_cols, int64_t q, unsigned* out_of_range) {
    const int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t r = blockIdx.y;
    bool bad = false;
    if (v < half_cols) {
        double2 sum = make_double2(0.0, 0.0);
        int64_t phase = 0;  // v c mod Q
        auto next_phase = [&] {
            const int64_t now = phase;
            phase += v;
            if (phase >= q) phase -= q;
            return now;
        };
        auto add = [&](double x, double2 w) {
            bad |= out_of_fft_range(x);
            sum.x = fma(x, w.x, sum.x);
            sum.y = fma(x, w.y, sum.y);
        };
        int64_t c = 0;
        for (; c + 4 <= values.cols; c += 4) {
            double x[4];
            double2 w[4];
#pragma unroll
            for (int t = 0; t < 4; ++t) {
                x[t] = values(r, c + t);
                w[t] = roots_q[next_phase()];
            }
#pragma unroll
            for (int t = 0; t < 4; ++t) add(x[t], w[t]);
        }
        for (; c < values.cols; ++c) add(values(r, c), roots_q[next_phase()]);
        rows[r * half_cols + v] = sum;
    }
    if (__syncthreads_or(bad) && threadIdx.x == 0) *out_of_range = 1u;
}

// image(u, v) <- image(u, v) * K(u, v) * scale with the kernel's spectrum
// summed here from its row spectra: K(u, v) = sum_{r < kr} rows(r, v) e^{-2 pi
// i u r / P}, r increasing. The twiddles of a block's rows are gathered once
// into shared memory, r-major; the row-spectrum values are loaded four at a
// time before any is used. Grid: x over columns, y striding over the blocks'
// rows (every thread of a block runs the same iterations: barriers).
static __global__ void __launch_bounds__(kFftThreads)
fft_multiply_direct(double2* __restrict__ image, const double2* __restrict__ rows, const double2* __restrict__ roots_p,
                    int kr, int64_t p, int64_t half_cols, double scale) {
    constexpr int U = kDirectRowsPerThread, kBlockRows = kDirectBlockRows;
    __shared__ double2 twiddle[kDirectSpectrumRows * kBlockRows];  // [r][row of the block]
    const int tx = threadIdx.x % kDirectColumns, group = threadIdx.x / kDirectColumns;
    const int64_t v = static_cast<int64_t>(blockIdx.x) * kDirectColumns + tx;
    const double2* __restrict__ column = rows + v;
    for (int64_t block_u = static_cast<int64_t>(blockIdx.y) * kBlockRows; block_u < p;
         block_u += static_cast<int64_t>(gridDim.y) * kBlockRows) {
        __syncthreads();  // the previous rows' twiddles are no longer read
        for (int i = threadIdx.x; i < kBlockRows * kr; i += blockDim.x) {
            const int r = i / kBlockRows;
            const int64_t u = min(block_u + i % kBlockRows, p - 1);  // rows past P: unused
            twiddle[i] = roots_p[product_mod(u, r, p)];
        }
        __syncthreads();
        if (v >= half_cols) continue;
        const double2* tw = twiddle + group * U;
        double2 k[U];
#pragma unroll
        for (int j = 0; j < U; ++j) k[j] = make_double2(0.0, 0.0);
        auto add_row = [&](double2 x, int r) {
#pragma unroll
            for (int j = 0; j < U; ++j) {
                const double2 w = tw[r * kBlockRows + j];
                k[j].x = fma(x.x, w.x, fma(-x.y, w.y, k[j].x));
                k[j].y = fma(x.x, w.y, fma(x.y, w.x, k[j].y));
            }
        };
        int r = 0;
        for (; r + 4 <= kr; r += 4) {
            double2 x[4];
#pragma unroll
            for (int t = 0; t < 4; ++t) x[t] = column[(r + t) * half_cols];
#pragma unroll
            for (int t = 0; t < 4; ++t) add_row(x[t], r + t);
        }
        for (; r < kr; ++r) add_row(column[r * half_cols], r);
        const int64_t u0 = block_u + group * U;
#pragma unroll
        for (int j = 0; j < U; ++j) {
            if (u0 + j >= p) break;
            double2& a = image[(u0 + j) * half_cols + v];
            const double2 prod = complex_product(a, k[j]);
            a = make_double2(prod.x * scale, prod.y * scale);
        }
    }
}

// out(r, c) = plane(r + start_r, c + start_c), converted (rounded once) to TC.
template <class TC>
__global__ void __launch_bounds__(kFftThreads)
fft_crop(const double* __restrict__ plane, int64_t pitch, int64_t start_r, int64_t start_c, TC* __restrict__ out,
         int64_t out_rows, int64_t out_cols) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (c >= out_cols) return;
    for (int64_t r = blockIdx.y; r < out_rows; r += gridDim.y)
        out[r * out_cols + c] = static_cast<TC>(plane[(r + start_r) * pitch + start_c + c]);
}

// ---- the host's flag ------------------------------------------------------------

// A word of mapped pinned host memory that kernels write through its device
// address. Words are pooled for the life of the process: one per call in
// flight, allocated on demand, returned to the driver at exit.
struct MappedWord {
    unsigned* host = nullptr;
    unsigned* device = nullptr;
};

class MappedWordPool {
public:
    static MappedWordPool& instance() {
        static MappedWordPool pool;
        return pool;
    }
    MappedWord take() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (!free_.empty()) {
                MappedWord w = free_.back();
                free_.pop_back();
                return w;
            }
        }
        void* host = nullptr;
        check(cudaHostAlloc(&host, sizeof(unsigned), cudaHostAllocMapped | cudaHostAllocPortable),
              "cudaHostAlloc (mapped flag)");
        void* device = nullptr;
        const cudaError_t e = cudaHostGetDevicePointer(&device, host, 0);
        if (e != cudaSuccess) {
            (void)cudaFreeHost(host);
            throw_cuda(e, "cudaHostGetDevicePointer (mapped flag)");
        }
        return MappedWord{static_cast<unsigned*>(host), static_cast<unsigned*>(device)};
    }
    void give_back(MappedWord w) {
        std::lock_guard<std::mutex> lock(mutex_);
        free_.push_back(w);
    }

private:
    std::mutex mutex_;
    std::vector<MappedWord> free_;
};

struct EventDestroy {
    void operator()(cudaEvent_t e) const { (void)cudaEventDestroy(e); }
};
using EventHandle = std::unique_ptr<CUevent_st, EventDestroy>;

// Set by the staging kernels when an input is out of the FFT's range; read by
// the host once, after an event recorded behind those kernels.
class OutOfRangeFlag {
public:
    explicit OutOfRangeFlag(cudaStream_t stream) : stream_(stream) {
        cudaEvent_t e = nullptr;
        check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreateWithFlags");
        done_.reset(e);
        word_ = MappedWordPool::instance().take();
        *static_cast<volatile unsigned*>(word_.host) = 0u;
    }
    OutOfRangeFlag(const OutOfRangeFlag&) = delete;
    OutOfRangeFlag& operator=(const OutOfRangeFlag&) = delete;
    ~OutOfRangeFlag() {
        // A kernel still queued could raise the word after another call took
        // it: wait for the stream first (only on paths that never read it).
        if (pending_) (void)cudaStreamSynchronize(stream_);
        MappedWordPool::instance().give_back(word_);
    }

    unsigned* device_word() const { return word_.device; }
    // A kernel that may write the word has been queued.
    void queued() { pending_ = true; }
    // Marks the end of the kernels that may write the word.
    void record() { check(cudaEventRecord(done_.get(), stream_), "cudaEventRecord (range check)"); }
    // Waits for those kernels only (not for work queued after record()).
    bool raised() {
        check(cudaEventSynchronize(done_.get()), "cudaEventSynchronize (range check)");
        pending_ = false;
        return *static_cast<volatile unsigned*>(word_.host) != 0u;
    }

private:
    cudaStream_t stream_;
    EventHandle done_;
    MappedWord word_;
    bool pending_ = false;
};

// ---- plans ------------------------------------------------------------------------

// The plans of one transform size on one device.
struct FftPlans {
    int device = 0;
    cufft::Handle forward = 0;  // a plane, D2Z in place
    cufft::Handle inverse = 0;  // a plane, Z2D in place
    bool has_forward = false, has_inverse = false;
    size_t work_bytes = 0;      // scratch either plan needs
    std::mutex exec_mutex;      // cuFFT runs a plan from one host thread at a time

    FftPlans() = default;
    FftPlans(const FftPlans&) = delete;
    FftPlans& operator=(const FftPlans&) = delete;
    ~FftPlans() {
        // Transforms still queued may use the plan, and cuFFT does not say
        // that cufftDestroy waits for them: wait for the device first.
        const CufftLibrary& lib = CufftLibrary::get();
        int current = 0;
        const bool restore = cudaGetDevice(&current) == cudaSuccess;
        if (cudaSetDevice(device) == cudaSuccess) (void)cudaDeviceSynchronize();
        if (has_forward) (void)lib.destroy(forward);
        if (has_inverse) (void)lib.destroy(inverse);
        if (restore) (void)cudaSetDevice(current);
        (void)cudaGetLastError();
    }
};

// Makes both plans of `size` on the current device. A size cuFFT cannot plan
// is declined: the direct variant still runs the call.
inline std::shared_ptr<FftPlans> make_fft_plans(int device, const FftSize& size, const std::string& what) {
    const CufftLibrary& lib = CufftLibrary::get();
    auto plans = std::make_shared<FftPlans>();
    plans->device = device;
    const std::string dims = std::to_string(size.rows) + " x " + std::to_string(size.cols);
    auto decline = [&](const char* call, cufft::Result r) {
        ipt::plugin::unsupported(what + ": cuFFT cannot plan a " + dims + " transform (" + call + ": " +
                                 cufft::result_name(r) + ")");
    };
    // One row: a 1-D transform of the columns (a 2-D plan of height 1 is not
    // one every cuFFT version accepts).
    const bool one_row = size.rows == 1;
    const int rank = one_row ? 1 : 2;
    int n[2] = {static_cast<int>(size.rows), static_cast<int>(size.cols)};
    int real_embed[2] = {static_cast<int>(size.rows), static_cast<int>(size.real_pitch())};
    int complex_embed[2] = {static_cast<int>(size.rows), static_cast<int>(size.half_cols())};
    const int real_dist = static_cast<int>(size.plane_doubles());
    const int complex_dist = static_cast<int>(size.plane_complex());
    int* dims_of = one_row ? n + 1 : n;
    int* real_layout = one_row ? real_embed + 1 : real_embed;
    int* complex_layout = one_row ? complex_embed + 1 : complex_embed;

    auto make = [&](cufft::Handle& plan, bool& made, int* in_embed, int in_dist, int* out_embed, int out_dist,
                    int type, int batch) {
        cufft::Result r = lib.create(&plan);
        if (r != cufft::kSuccess) decline("cufftCreate", r);
        made = true;
        // The workspace comes from each call's stream-ordered scratch instead.
        if ((r = lib.set_auto_allocation(plan, 0)) != cufft::kSuccess) decline("cufftSetAutoAllocation", r);
        size_t work = 0;
        r = lib.make_plan_many(plan, rank, dims_of, in_embed, 1, in_dist, out_embed, 1, out_dist, type, batch, &work);
        if (r != cufft::kSuccess) decline("cufftMakePlanMany", r);
        plans->work_bytes = std::max(plans->work_bytes, work);
    };
    make(plans->forward, plans->has_forward, real_layout, real_dist, complex_layout, complex_dist, cufft::kD2Z, 1);
    make(plans->inverse, plans->has_inverse, complex_layout, complex_dist, real_layout, real_dist, cufft::kZ2D, 1);
    return plans;
}

class FftPlanCache {
public:
    // Never destroyed: at exit the CUDA runtime and cuFFT may already be torn
    // down, and the driver reclaims the plans' memory anyway.
    static FftPlanCache& instance() {
        static FftPlanCache& cache = *new FftPlanCache;
        return cache;
    }

    std::shared_ptr<FftPlans> get(int device, const FftSize& size, const std::string& what) {
        std::lock_guard<std::mutex> lock(mutex_);
        const Key key{device, size.rows, size.cols};
        auto it = entries_.find(key);
        if (it != entries_.end()) {
            it->second.last_use = ++clock_;
            return it->second.plans;
        }
        std::shared_ptr<FftPlans> plans = make_fft_plans(device, size, what);
        if (entries_.size() >= kFftMaxCachedPlans) {
            auto oldest = std::min_element(entries_.begin(), entries_.end(), [](const auto& x, const auto& y) {
                return x.second.last_use < y.second.last_use;
            });
            entries_.erase(oldest);  // destroyed now, or when the last call using it ends
        }
        entries_.emplace(key, Entry{plans, ++clock_});
        return plans;
    }

private:
    FftPlanCache() = default;
    using Key = std::tuple<int, int64_t, int64_t>;
    struct Entry {
        std::shared_ptr<FftPlans> plans;
        uint64_t last_use = 0;
    };
    std::mutex mutex_;
    std::map<Key, Entry> entries_;
    uint64_t clock_ = 0;
};

// ---- the convolution ----------------------------------------------------------------

// out = the wanted window of A conv K, queued on the device's stream. Declines
// (ipt::plugin::unsupported, prefixed by `what`) when cuFFT is missing, the
// transform is too large for one plan, cuFFT cannot plan it, or an input is
// out of range (see the top of this file). output() allocates the output and
// is called only once the call is sure to run, so a decline leaves it untouched.
template <class TA, class TC, class Output>
void fft_convolve(const TA* a, const FftKernel& k, const FftGeometry& g, Output output, const Device& dev,
                  const std::string& what) {
    const CufftLibrary& lib = CufftLibrary::get();
    if (!lib.loaded()) ipt::plugin::unsupported(what + ": " + lib.failure());
    const FftSize size = fft_size_for(g);
    // cuFFT's plans take int sizes and distances.
    if (size.plane_doubles() > INT32_MAX)
        ipt::plugin::unsupported(what + ": the padded transform (" + std::to_string(size.rows) + " x " +
                                 std::to_string(size.cols) + ") is too large for one cuFFT plan");
    const std::shared_ptr<FftPlans> plans = FftPlanCache::instance().get(dev.ordinal, size, what);

    const cudaStream_t s = dev.stream;
    const int64_t pitch = size.real_pitch(), plane = size.plane_doubles(), spectrum = size.plane_complex();
    // The direct sums cost kr kc a column of the spectrum and kr a value;
    // within these limits that stays below a transform of the kernel's plane.
    const bool direct = g.kr <= kDirectSpectrumRows && g.kr * g.kc <= 8 * size.rows;
    // The image plane, then the kernel's: a plane, or (direct) its row
    // spectra and the unit roots of lengths P and Q.
    const int64_t kernel_doubles = direct ? 2 * (g.kr * size.half_cols() + size.rows + size.cols) : plane;
    DeviceArray<double> planes(static_cast<size_t>(plane + kernel_doubles), s);
    DeviceArray<unsigned char> work(plans->work_bytes, s);
    double* image_plane = planes.get();
    double* kernel_plane = planes.get() + plane;
    // In place: plane p's spectrum starts where its real values do.
    auto* image_spectrum = reinterpret_cast<cufft::DoubleComplex*>(image_plane);
    auto* kernel_spectrum = reinterpret_cast<cufft::DoubleComplex*>(kernel_plane);

    auto run_plan = [&](cufft::Handle plan, auto exec, auto* in, auto* out, const char* call) {
        std::lock_guard<std::mutex> lock(plans->exec_mutex);
        check_cufft(lib.set_stream(plan, s), what + ": cufftSetStream");
        if (work.get()) check_cufft(lib.set_work_area(plan, work.get()), what + ": cufftSetWorkArea");
        check_cufft(exec(plan, in, out), what + ": " + call);
    };

    OutOfRangeFlag out_of_range(s);
    const dim3 stage_grid = fft_row_grid(pitch, size.rows);
    const KernelValues kernel_values{k, g.kr, g.kc};
    fft_stage_plane<<<stage_grid, kFftThreads, 0, s>>>(ImageValues<TA>{a, g.ma, g.na}, image_plane, size.rows,
                                                       pitch, out_of_range.device_word());
    check_launch((what + ": staging A").c_str());
    out_of_range.queued();
    auto* row_spectra = reinterpret_cast<double2*>(kernel_plane);
    double2* roots_p = row_spectra + g.kr * size.half_cols();
    double2* roots_q = roots_p + size.rows;
    if (direct) {
        fft_unit_roots<<<grid_for(size.rows + size.cols, kFftThreads), kFftThreads, 0, s>>>(roots_p, size.rows,
                                                                                             roots_q, size.cols);
        check_launch((what + ": unit roots").c_str());
        const dim3 row_grid(static_cast<unsigned>((size.half_cols() + kRowSpectraThreads - 1) / kRowSpectraThreads),
                            static_cast<unsigned>(g.kr));
        fft_kernel_row_spectra<<<row_grid, kRowSpectraThreads, 0, s>>>(
            kernel_values, roots_q, row_spectra, size.half_cols(), size.cols, out_of_range.device_word());
        check_launch((what + ": the kernel's row spectra").c_str());
    } else {
        fft_stage_plane<<<stage_grid, kFftThreads, 0, s>>>(kernel_values, kernel_plane, size.rows, pitch,
                                                           out_of_range.device_word());
        check_launch((what + ": staging the kernel").c_str());
    }
    out_of_range.record();

    // Queued before the host waits for the flag, so the GPU keeps working.
    run_plan(plans->forward, lib.exec_d2z, image_plane, image_spectrum, "cufftExecD2Z");
    if (!direct) run_plan(plans->forward, lib.exec_d2z, kernel_plane, kernel_spectrum, "cufftExecD2Z (kernel)");
    if (out_of_range.raised())
        ipt::plugin::unsupported(what + ": Inf or NaN (or a magnitude above 2^448) in A or the kernel would "
                                        "spread over the whole output");

    const double scale = 1.0 / (static_cast<double>(size.rows) * static_cast<double>(size.cols));
    if (direct) {
        const dim3 grid(static_cast<unsigned>((size.half_cols() + kDirectColumns - 1) / kDirectColumns),
                        static_cast<unsigned>(std::min<int64_t>((size.rows + kDirectBlockRows - 1) / kDirectBlockRows,
                                                                65535)));
        fft_multiply_direct<<<grid, kFftThreads, 0, s>>>(reinterpret_cast<double2*>(image_spectrum), row_spectra,
                                                         roots_p, static_cast<int>(g.kr), size.rows,
                                                         size.half_cols(), scale);
    } else {
        fft_multiply_spectra<<<grid_for(spectrum, kFftThreads), kFftThreads, 0, s>>>(
            reinterpret_cast<double2*>(image_spectrum), reinterpret_cast<const double2*>(kernel_spectrum), spectrum,
            scale);
    }
    check_launch((what + ": product of the spectra").c_str());
    run_plan(plans->inverse, lib.exec_z2d, image_spectrum, image_plane, "cufftExecZ2D");

    TC* out = output();
    fft_crop<TC><<<fft_row_grid(g.out_cols, g.out_rows), kFftThreads, 0, s>>>(image_plane, pitch, g.start_r,
                                                                               g.start_c, out, g.out_rows, g.out_cols);
    check_launch((what + ": output").c_str());
}

}  // namespace ipt::cuda
