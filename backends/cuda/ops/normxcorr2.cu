// SPDX-License-Identifier: Apache-2.0
// ipt.normxcorr2 as the front-end plans it (common/ops/normxcorr2.hpp): the
// template is read back for its checks and statistics, one block finds A's
// minimum, sum and whether it is finite, then one of the front-end's two ways
// to the numerators and denominators:
//  - direct: one thread per output forms the window sums with the front-end's
//    arithmetic (no fused multiply-adds, the CPU reference's order);
//  - FFT, for large enough work (kFftMinWork): A centred by a constant and
//    the zero-mean template through cuFFT (common/fft_convolve.cuh, the
//    conv2 "fft" variant's helper, everything on the op's stream and plans
//    cached there), and the window sums exact (double-double) by columns of
//    m rows, then rows of n columns, with the front-end's exact denominator.
//    A decline of the helper (no cuFFT, a size it cannot plan) falls back to
//    the direct way.
// Then one block finds the largest denominator for the tolerance, and one
// thread per output writes the coefficient.
#include <string>
#include <vector>

#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/fft_convolve.cuh"
#include "common/op_registry.hpp"
#include "common/ops/normxcorr2.hpp"

namespace ipt::cuda {
namespace {

using ipt::frontend::Normxcorr2Plan;

constexpr int kBlock = 1024;

// out[0] = min(A), out[1] = 1 if every value is finite else 0, out[2] =
// sum(A) (unshifted; only a centre for the FFT way, any order will do).
template <class A>
__global__ void a_stats(const A* __restrict__ a, int64_t n, double* out) {
    __shared__ double lo[kBlock];
    __shared__ double total[kBlock];
    __shared__ int fin[kBlock];
    double m = __longlong_as_double(0x7FF0000000000000LL);  // +Inf
    double t = 0;
    int f = 1;
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
        const double v = static_cast<double>(a[i]);
        f &= isfinite(v) ? 1 : 0;
        m = v < m ? v : m;
        t += v;
    }
    lo[threadIdx.x] = m;
    total[threadIdx.x] = t;
    fin[threadIdx.x] = f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) {
            lo[threadIdx.x] = lo[threadIdx.x + s] < lo[threadIdx.x] ? lo[threadIdx.x + s] : lo[threadIdx.x];
            total[threadIdx.x] += total[threadIdx.x + s];
            fin[threadIdx.x] &= fin[threadIdx.x + s];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        out[0] = lo[0];
        out[1] = fin[0];
        out[2] = total[0];
    }
}

template <class A>
struct Shifted {
    const A* a;
    double shift;
    __device__ double operator()(int64_t i) const { return static_cast<double>(a[i]) - shift; }
};

template <class A>
__global__ void terms(Normxcorr2Plan p, const double* __restrict__ t, double sum_t, double denom_t, Shifted<A> load,
                      double* __restrict__ num, double* __restrict__ denom) {
    IPT_GRID_STRIDE(i, p.out_rows * p.out_cols) {
        ipt::frontend::normxcorr2_terms(p, t, sum_t, denom_t, i / p.out_cols, i % p.out_cols, load, num[i], denom[i]);
    }
}

__global__ void max_of(const double* __restrict__ v, int64_t n, double* out) {
    __shared__ double hi[kBlock];
    double m = 0;
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) m = v[i] > m ? v[i] : m;
    hi[threadIdx.x] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s && hi[threadIdx.x + s] > hi[threadIdx.x]) hi[threadIdx.x] = hi[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) *out = hi[0];
}

__global__ void coefficients(double* __restrict__ c, const double* __restrict__ denom, int64_t n, double tol) {
    IPT_GRID_STRIDE(i, n) { c[i] = ipt::frontend::normxcorr2_value(c[i], denom[i], tol); }
}

// ---- the FFT way ----------------------------------------------------------------

using ipt::frontend::Normxcorr2Sum;

// The FFT way pays a plan look-up, a host wait and ~5 full-size passes; it is
// taken where the direct sums would cost at least 2^27 window elements
// (about 0.1 ms on an H100) and the template has 16 elements or more.
constexpr double kFftMinWork = 134217728.0;

// centred(y, x) = (A(y, x) - shift) - centre.
template <class A>
__global__ void centre_a(const A* __restrict__ a, int64_t n, double shift, double centre, double* __restrict__ out) {
    IPT_GRID_STRIDE(i, n) { out[i] = (static_cast<double>(a[i]) - shift) - centre; }
}

// For output row r and A's column x: the exact sums of a and a.^2 over A's
// rows r-m+1 .. r (those inside A), as (hi, lo) pairs.
template <class A>
__global__ void column_sums(Normxcorr2Plan p, Shifted<A> load, double2* __restrict__ s1, double2* __restrict__ s2) {
    IPT_GRID_STRIDE(i, p.out_rows * p.q) {
        const int64_t r = i / p.q, x = i % p.q;
        const int64_t y0 = r - (p.m - 1) < 0 ? 0 : r - (p.m - 1), y1 = r < p.p - 1 ? r : p.p - 1;
        Normxcorr2Sum a1, a2;
        for (int64_t y = y0; y <= y1; ++y) {
            const double v = load(y * p.q + x);
            a1.add(v);
            a2.add_square(v);
        }
        s1[i] = make_double2(a1.hi, a1.lo);
        s2[i] = make_double2(a2.hi, a2.lo);
    }
}

// denom(r, c) from the column sums over A's columns c-n+1 .. c.
__global__ void window_denominators(Normxcorr2Plan p, double denom_t, const double2* __restrict__ s1,
                                    const double2* __restrict__ s2, double* __restrict__ denom) {
    IPT_GRID_STRIDE(i, p.out_rows * p.out_cols) {
        const int64_t r = i / p.out_cols, c = i % p.out_cols;
        const int64_t x0 = c - (p.n - 1) < 0 ? 0 : c - (p.n - 1), x1 = c < p.q - 1 ? c : p.q - 1;
        Normxcorr2Sum a1, a2;
        for (int64_t x = x0; x <= x1; ++x) {
            const double2 u = s1[r * p.q + x], v = s2[r * p.q + x];
            a1.add(Normxcorr2Sum{u.x, u.y});
            a2.add(Normxcorr2Sum{v.x, v.y});
        }
        denom[i] = ipt::frontend::normxcorr2_denom_exact(p, denom_t, a1, a2);
    }
}

// C = the coefficient from the FFT's numerator plus the centre's border term.
__global__ void fft_coefficients(Normxcorr2Plan p, double* __restrict__ c, const double* __restrict__ denom,
                                 const double* __restrict__ t0_sum, double centre, double tol) {
    IPT_GRID_STRIDE(i, p.out_rows * p.out_cols) {
        const double num =
            c[i] + ipt::frontend::normxcorr2_border_term(p, t0_sum, centre, i / p.out_cols, i % p.out_cols);
        c[i] = ipt::frontend::normxcorr2_value(num, denom[i], tol);
    }
}

double largest(const double* v, int64_t n, double* scratch, cudaStream_t s) {
    max_of<<<1, kBlock, 0, s>>>(v, n, scratch);
    check_launch("ipt.normxcorr2");
    double mx = 0;
    check(cudaMemcpyAsync(&mx, scratch, sizeof mx, cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync");
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
    return mx;
}

// The FFT way into C; false (C untouched) where the FFT helper declines.
template <class A>
bool run_fft(const Normxcorr2Plan& p, const ipt::frontend::Normxcorr2Template& tp, const A* a, double shift,
             double a_sum, double* C, const Device& dev) {
    const cudaStream_t s = dev.stream;
    const int64_t count = p.p * p.q, n = p.out_rows * p.out_cols;
    // A centred (an integer centre for integer classes keeps the values exact).
    double centre = (a_sum - shift * static_cast<double>(count)) / static_cast<double>(count);
    if constexpr (std::is_integral_v<A>) centre = std::round(centre);
    DeviceArray<double> centred(static_cast<size_t>(count), s);
    centre_a<A><<<grid_for(count), kThreads, 0, s>>>(a, count, shift, centre, centred.get());
    check_launch("ipt.normxcorr2");
    DeviceArray<double> kernel = to_device(ipt::frontend::normxcorr2_fft_kernel(p, tp), s);
    FftKernel fk;
    fk.matrix.data = kernel.get();
    FftGeometry g;
    g.ma = p.p;
    g.na = p.q;
    g.kr = p.m;
    g.kc = p.n;
    g.out_rows = p.out_rows;
    g.out_cols = p.out_cols;
    try {
        fft_convolve<double, double>(centred.get(), fk, g, [C] { return C; }, dev, "ipt.normxcorr2 (fft)");
    } catch (const ipt::plugin::Error& e) {
        if (e.status != IPT_ERR_UNSUPPORTED) throw;
        return false;
    }
    centred = DeviceArray<double>();

    DeviceArray<double2> s1(static_cast<size_t>(p.out_rows * p.q), s), s2(static_cast<size_t>(p.out_rows * p.q), s);
    column_sums<A><<<grid_for(p.out_rows * p.q), kThreads, 0, s>>>(p, Shifted<A>{a, shift}, s1.get(), s2.get());
    check_launch("ipt.normxcorr2");
    DeviceArray<double> denom(static_cast<size_t>(n), s), scratch(1, s);
    window_denominators<<<grid_for(n), kThreads, 0, s>>>(p, tp.denom_t, s1.get(), s2.get(), denom.get());
    check_launch("ipt.normxcorr2");
    const double tol = ipt::frontend::normxcorr2_tolerance(largest(denom.get(), n, scratch.get(), s));
    DeviceArray<double> t0_sum = to_device(tp.t0_sum, s);
    fft_coefficients<<<grid_for(n), kThreads, 0, s>>>(p, C, denom.get(), t0_sum.get(), centre, tol);
    check_launch("ipt.normxcorr2");
    return true;
}

template <class T>
ipt::frontend::Normxcorr2Template read_template(const Normxcorr2Plan& p, cudaStream_t s) {
    const size_t k = static_cast<size_t>(p.m * p.n);
    std::vector<T> host(k);
    check(cudaMemcpyAsync(host.data(), p.T->data, k * sizeof(T), cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync (template)");
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
    return ipt::frontend::normxcorr2_template(p, host.data());
}

void run_normxcorr2(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const cudaStream_t s = dev.stream;
    const Normxcorr2Plan p = ipt::frontend::plan_normxcorr2(args);
    const ipt::frontend::Normxcorr2Template tp = visit_dtype(p.t_dtype, [&](auto tag) {
        using T = std::conditional_t<std::is_same_v<decltype(tag), bool>, uint8_t, decltype(tag)>;
        return read_template<T>(p, s);
    });
    const ipt_tensor* C = args.output("C", IPT_DOUBLE, p.out_rows, p.out_cols, 1);
    const int64_t n = p.out_rows * p.out_cols;
    DeviceArray<double> scalars(3, s), denom;
    bool done = false;
    visit_dtype(p.a_dtype, [&](auto tag) {
        using A = std::conditional_t<std::is_same_v<decltype(tag), bool>, uint8_t, decltype(tag)>;
        const A* a = dptr<const A>(p.A);
        a_stats<A><<<1, kBlock, 0, s>>>(a, p.p * p.q, scalars.get());
        check_launch("ipt.normxcorr2");
        double stats[3];
        check(cudaMemcpyAsync(stats, scalars.get(), sizeof stats, cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync");
        check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
        const double shift = ipt::frontend::normxcorr2_a_shift(p, stats[0], stats[1] != 0);
        const double work = static_cast<double>(n) * p.mn;
        if (!tp.all_equal && p.mn >= 16 && work >= kFftMinWork) {
            done = run_fft<A>(p, tp, a, shift, stats[2], dptr<double>(C), dev);
            if (done) return;
        }
        DeviceArray<double> t = to_device(tp.t, s);
        denom = DeviceArray<double>(static_cast<size_t>(n), s);
        terms<A><<<grid_for(n), kThreads, 0, s>>>(p, t.get(), tp.sum, tp.denom_t, Shifted<A>{a, shift}, dptr<double>(C),
                                                   denom.get());
        check_launch("ipt.normxcorr2");
    });
    if (done) return;
    max_of<<<1, kBlock, 0, s>>>(denom.get(), n, scalars.get());
    check_launch("ipt.normxcorr2");
    double max_denom = 0;
    check(cudaMemcpyAsync(&max_denom, scalars.get(), sizeof max_denom, cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync");
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
    coefficients<<<grid_for(n), kThreads, 0, s>>>(dptr<double>(C), denom.get(), n,
                                                 ipt::frontend::normxcorr2_tolerance(max_denom));
    check_launch("ipt.normxcorr2");
}

IPT_CUDA_OP("ipt.normxcorr2", "", 100, run_normxcorr2)

}  // namespace
}  // namespace ipt::cuda
