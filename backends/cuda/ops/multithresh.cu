// SPDX-License-Identifier: Apache-2.0
// multithresh as the front-end plans it (common/ops/multithresh.hpp): the
// limits of A from two passes of the shared max reduction
// (common/reduce.cuh), read back; the codes of every element counted on the
// device (multithresh_code, a block's counts in shared memory); Otsu's
// search and the thresholds on the host, written to the outputs.
#include <vector>

#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/reduce.cuh"
#include "common/ops/multithresh.hpp"

namespace ipt::cuda {
namespace {

using ipt::frontend::MultithreshLimits;
using ipt::frontend::MultithreshPlan;

// (-v, v) for the values that count (finite ones, or all but NaN); NaN
// otherwise, which the max skips.
template <class T, bool FiniteOnly>
struct LoadLimits {
    const T* p;
    __device__ double2 operator()(int64_t i) const {
        const double v = to_double(p[i]);
        const bool skip = FiniteOnly ? !isfinite(v) : isnan(v);
        return skip ? make_double2(NAN, NAN) : make_double2(-v, v);
    }
};

struct StoreLimits {
    double* out;  // [lo hi]
    __device__ void operator()(double2 v) const {
        out[0] = -v.x;
        out[1] = v.y;
    }
};

template <class T>
__global__ void count_codes(const T* __restrict__ a, int64_t n, double lo, double hi, unsigned* __restrict__ hist) {
    __shared__ unsigned local[MultithreshPlan::ncodes];
    for (unsigned k = threadIdx.x; k < MultithreshPlan::ncodes; k += blockDim.x) local[k] = 0;
    __syncthreads();
    IPT_GRID_STRIDE(i, n) atomicAdd(&local[ipt::frontend::multithresh_code(a[i], lo, hi)], 1u);
    __syncthreads();
    for (unsigned k = threadIdx.x; k < MultithreshPlan::ncodes; k += blockDim.x)
        if (local[k]) atomicAdd(&hist[k], local[k]);
}

void run_multithresh(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const MultithreshPlan plan = ipt::frontend::plan_multithresh(args);
    const int64_t n = plan.numel;
    ipt::frontend::MultithreshResult r;
    visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t> ||
                      std::is_floating_point_v<T>) {
            MultithreshLimits l;
            const T* a = dptr<const T>(plan.A);
            if (n > 0) {
                DeviceArray<double> limits(4, dev.stream);
                reduce_max(LoadLimits<T, true>{a}, n, StoreLimits{limits.get()}, dev.stream, "ipt.multithresh");
                reduce_max(LoadLimits<T, false>{a}, n, StoreLimits{limits.get() + 2}, dev.stream,
                           "ipt.multithresh");
                double host[4];
                check(cudaMemcpyAsync(host, limits.get(), sizeof host, cudaMemcpyDeviceToHost, dev.stream),
                      "cudaMemcpyAsync (multithresh limits)");
                check(cudaStreamSynchronize(dev.stream), "cudaStreamSynchronize (multithresh limits)");
                l.lo = host[0];
                l.hi = host[1];
                l.lo_all = host[2];
                l.hi_all = host[3];
            }
            if (ipt::frontend::multithresh_without_histogram(plan, l, r)) return;
            std::vector<unsigned> codes(MultithreshPlan::ncodes, 0u);
            DeviceArray<unsigned> hist(codes.size(), dev.stream);
            hist.zero();
            count_codes<T><<<grid_for(n), kThreads, 0, dev.stream>>>(a, n, l.lo, l.hi, hist.get());
            check_launch("ipt.multithresh");
            check(cudaMemcpyAsync(codes.data(), hist.get(), hist.bytes(), cudaMemcpyDeviceToHost, dev.stream),
                  "cudaMemcpyAsync (multithresh counts)");
            check(cudaStreamSynchronize(dev.stream), "cudaStreamSynchronize (multithresh counts)");
            r = ipt::frontend::multithresh_from_counts(plan, l, codes.data());
        }
    });
    const std::vector<unsigned char> bytes = ipt::frontend::multithresh_bytes(r, plan.dtype);
    const ipt_tensor* t = args.output("thresh", plan.dtype, 1, plan.N, 1);
    check(cudaMemcpyAsync(t->data, bytes.data(), bytes.size(), cudaMemcpyHostToDevice, dev.stream),
          "cudaMemcpyAsync (thresh)");
    if (args.wanted("metric")) {
        const ipt_tensor* m = args.output("metric", IPT_DOUBLE, 1, 1, 1);
        check(cudaMemcpyAsync(m->data, &r.metric, sizeof(double), cudaMemcpyHostToDevice, dev.stream),
              "cudaMemcpyAsync (metric)");
    }
    // The host values above must outlive the copies.
    check(cudaStreamSynchronize(dev.stream), "cudaStreamSynchronize (multithresh outputs)");
}

IPT_CUDA_OP("ipt.multithresh", "", 100, run_multithresh)

}  // namespace
}  // namespace ipt::cuda
