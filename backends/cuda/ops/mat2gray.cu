// SPDX-License-Identifier: Apache-2.0
// mat2gray as the front-end plans it (common/ops/mat2gray.hpp). Without
// limits, the greatest of -A and of A (NaN skipped) come from one pass of the
// shared max reduction (common/reduce.cuh) and are read back for the
// front-end's mat2gray_default_scale; then mat2gray_value per element
// (common/packed.cuh).
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/packed.cuh"
#include "common/reduce.cuh"
#include "common/ops/mat2gray.hpp"

namespace ipt::cuda {
namespace {

using ipt::frontend::Mat2grayScale;

// (-A(i), A(i)): one pass gives minus the minimum and the maximum.
template <class T>
struct LoadNegatedAndValue {
    const T* p;
    __device__ double2 operator()(int64_t i) const {
        const double v = to_double(p[i]);
        return make_double2(-v, v);
    }
};

struct StoreLimits {
    double* limits;  // [min max]
    __device__ void operator()(double2 v) const {
        limits[0] = -v.x;
        limits[1] = v.y;
    }
};

template <class T>
Mat2grayScale default_scale(const T* a, int64_t n, cudaStream_t s) {
    DeviceArray<double> limits(2, s);
    reduce_max(LoadNegatedAndValue<T>{a}, n, StoreLimits{limits.get()}, s, "ipt.mat2gray");
    double host[2];
    check(cudaMemcpyAsync(host, limits.get(), sizeof host, cudaMemcpyDeviceToHost, s),
          "cudaMemcpyAsync (mat2gray limits)");
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize (mat2gray limits)");
    return ipt::frontend::mat2gray_default_scale(host[0], host[1]);
}

struct Mat2grayValue {
    Mat2grayScale s;
    template <class T>
    __device__ double operator()(T v) const {
        return ipt::frontend::mat2gray_value(to_double(v), s);
    }
};

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
        packed::run_map("ipt.mat2gray", a, dptr<double>(I), n, dev.stream, Mat2grayValue{s});
    });
}

IPT_CUDA_OP("ipt.mat2gray", "", 100, run_mat2gray)

}  // namespace
}  // namespace ipt::cuda
