// mat2gray as the front-end plans it (common/ops/mat2gray.hpp). Without
// limits, the greatest of A and of -A (NaN skipped) come from the shared
// max reduction (common/reduce.cuh) and are read back for the front-end's
// mat2gray_default_scale; then mat2gray_value per element.
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/reduce.cuh"
#include "common/ops/mat2gray.hpp"

namespace ipt::cuda {
namespace {

using ipt::frontend::Mat2grayScale;

template <class T>
struct LoadSigned {
    const T* p;
    double sign;  // -1 turns the maximum into minus the minimum
    __device__ double operator()(int64_t i) const { return sign * to_double(p[i]); }
};

struct StoreSigned {
    double* slot;
    double sign;
    __device__ void operator()(double v) const { *slot = sign * v; }
};

template <class T>
Mat2grayScale default_scale(const T* a, int64_t n, cudaStream_t s) {
    DeviceArray<double> limits(2, s);
    reduce_max(LoadSigned<T>{a, -1.0}, n, StoreSigned{limits.get(), -1.0}, s, "ipt.mat2gray");
    reduce_max(LoadSigned<T>{a, 1.0}, n, StoreSigned{limits.get() + 1, 1.0}, s, "ipt.mat2gray");
    double host[2];
    check(cudaMemcpyAsync(host, limits.get(), sizeof host, cudaMemcpyDeviceToHost, s),
          "cudaMemcpyAsync (mat2gray limits)");
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize (mat2gray limits)");
    return ipt::frontend::mat2gray_default_scale(host[0], host[1]);
}

template <class T>
__global__ void mat2gray_kernel(const T* __restrict__ a, double* __restrict__ out, int64_t n, Mat2grayScale s) {
    IPT_GRID_STRIDE(i, n) out[i] = ipt::frontend::mat2gray_value(to_double(a[i]), s);
}

void run_mat2gray(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::Mat2grayPlan plan = ipt::frontend::plan_mat2gray(args);
    const ipt_tensor* I = args.output("I", IPT_DOUBLE, plan.rows, plan.cols, plan.channels);
    const int64_t n = plan.numel;
    if (n == 0) return;
    visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        const T* a = dptr<const T>(plan.A);
        const Mat2grayScale s = plan.limits_given ? plan.scale : default_scale(a, n, dev.stream);
        mat2gray_kernel<T><<<grid_for(n), kThreads, 0, dev.stream>>>(a, dptr<double>(I), n, s);
    });
    check_launch("ipt.mat2gray");
}

IPT_CUDA_OP("ipt.mat2gray", "", 100, run_mat2gray)

}  // namespace
}  // namespace ipt::cuda
