// ipt.normxcorr2 as the front-end plans it (common/ops/normxcorr2.hpp): the
// template is read back for its checks and statistics, one block finds A's
// minimum and whether it is finite, one thread per output forms the window
// sums with the front-end's arithmetic (no fused multiply-adds, the CPU
// reference's order), one block finds the largest denominator for the
// tolerance, and one thread per output writes the coefficient.
#include <vector>

#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/ops/normxcorr2.hpp"

namespace ipt::cuda {
namespace {

using ipt::frontend::Normxcorr2Plan;

constexpr int kBlock = 1024;

// out[0] = min(A), out[1] = 1 if every value is finite else 0.
template <class A>
__global__ void a_stats(const A* __restrict__ a, int64_t n, double* out) {
    __shared__ double lo[kBlock];
    __shared__ int fin[kBlock];
    double m = __longlong_as_double(0x7FF0000000000000LL);  // +Inf
    int f = 1;
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
        const double v = static_cast<double>(a[i]);
        f &= isfinite(v) ? 1 : 0;
        m = v < m ? v : m;
    }
    lo[threadIdx.x] = m;
    fin[threadIdx.x] = f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) {
            lo[threadIdx.x] = lo[threadIdx.x + s] < lo[threadIdx.x] ? lo[threadIdx.x + s] : lo[threadIdx.x];
            fin[threadIdx.x] &= fin[threadIdx.x + s];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        out[0] = lo[0];
        out[1] = fin[0];
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
    DeviceArray<double> t = to_device(tp.t, s), denom(static_cast<size_t>(n), s), scalars(2, s);
    visit_dtype(p.a_dtype, [&](auto tag) {
        using A = std::conditional_t<std::is_same_v<decltype(tag), bool>, uint8_t, decltype(tag)>;
        const A* a = dptr<const A>(p.A);
        a_stats<A><<<1, kBlock, 0, s>>>(a, p.p * p.q, scalars.get());
        check_launch("ipt.normxcorr2");
        double stats[2];
        check(cudaMemcpyAsync(stats, scalars.get(), sizeof stats, cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync");
        check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
        const double shift = ipt::frontend::normxcorr2_a_shift(p, stats[0], stats[1] != 0);
        terms<A><<<grid_for(n), kThreads, 0, s>>>(p, t.get(), tp.sum, tp.denom_t, Shifted<A>{a, shift}, dptr<double>(C),
                                                   denom.get());
        check_launch("ipt.normxcorr2");
    });
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
