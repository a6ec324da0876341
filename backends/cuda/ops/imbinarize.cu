// SPDX-License-Identifier: Apache-2.0
// imbinarize as the front-end plans it (common/ops/imbinarize.hpp):
// 'global' counts graythresh's 256 bins on the device (common/stretchlim.cuh)
// and forms the level on the host; 'adaptive' computes adaptthresh's T on the
// device (common/adaptthresh.cuh); a given or adaptive T forms each level
// on the device with imbinarize_level (rounded products, no fused
// multiply-add), so the
// comparison matches the CPU reference bit for bit.
#include <vector>

#include "common/adaptthresh.cuh"
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/stretchlim.cuh"
#include "common/ops/imbinarize.hpp"

namespace ipt::cuda {
namespace {

// BW(i) = I(i) > level; NaN is never greater.
template <class T>
__global__ void binarize_level(const T* __restrict__ in, bool* __restrict__ bw, int64_t n, double level) {
    IPT_GRID_STRIDE(i, n) bw[i] = static_cast<double>(in[i]) > level;
}

// BW(i) = I(i) > lo + span * T(i * step) (step 0: a scalar T).
template <class T, class Tt>
__global__ void binarize_given(const T* __restrict__ in, const Tt* __restrict__ t, bool* __restrict__ bw, int64_t n,
                               int64_t step, double lo, double span) {
    IPT_GRID_STRIDE(i, n) {
        const double level = ipt::frontend::imbinarize_level(lo, span, static_cast<double>(t[i * step]));
        bw[i] = static_cast<double>(in[i]) > level;
    }
}

void run_imbinarize(const ipt::plugin::KernelArgs& args) {
    using ipt::frontend::GraythreshPlan;
    const Device& dev = device_of(args);
    const ipt::frontend::ImbinarizePlan plan = ipt::frontend::plan_imbinarize(args);
    const ipt_tensor* BW = args.output("BW", IPT_LOGICAL, plan.rows, plan.cols, 1);
    const int64_t n = plan.numel;
    if (n == 0) return;
    double level = 0;
    DeviceArray<double> local;
    if (plan.adaptive) {
        local = DeviceArray<double>(static_cast<size_t>(n), dev.stream);
        adaptthresh_async(plan.local, local.get(), dev.stream, "ipt.imbinarize");
    } else if (!plan.T) {
        std::vector<unsigned> counts(GraythreshPlan::nbins, 0u);
        DeviceArray<unsigned> hist(counts.size(), dev.stream);
        hist.zero();
        histogram_async<Binning::Im2uint8>(plan.dtype, plan.I->data, n, 1, hist.get(),
                                           static_cast<int>(GraythreshPlan::nbins), dev.stream, "ipt.imbinarize");
        check(cudaMemcpyAsync(counts.data(), hist.get(), hist.bytes(), cudaMemcpyDeviceToHost, dev.stream),
              "cudaMemcpyAsync (imbinarize histogram)");
        check(cudaStreamSynchronize(dev.stream), "cudaStreamSynchronize (imbinarize histogram)");
        level = ipt::frontend::imbinarize_global_level(plan, counts.data());
    }
    visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, bool>) {
            ipt::plugin::invalid("ipt.imbinarize: parameter 'I' must be numeric");
        } else if (plan.adaptive) {
            binarize_given<T, double><<<grid_for(n), kThreads, 0, dev.stream>>>(
                dptr<const T>(plan.I), local.get(), dptr<bool>(BW), n, 1, plan.lo, plan.span);
            check_launch("ipt.imbinarize");
        } else if (!plan.T) {
            binarize_level<T><<<grid_for(n), kThreads, 0, dev.stream>>>(dptr<const T>(plan.I), dptr<bool>(BW), n,
                                                                           level);
            check_launch("ipt.imbinarize");
        } else {
            const int64_t step = plan.t_scalar ? 0 : 1;
            if (plan.t_dtype == IPT_SINGLE)
                binarize_given<T, float><<<grid_for(n), kThreads, 0, dev.stream>>>(
                    dptr<const T>(plan.I), dptr<const float>(plan.T), dptr<bool>(BW), n, step, plan.lo, plan.span);
            else
                binarize_given<T, double><<<grid_for(n), kThreads, 0, dev.stream>>>(
                    dptr<const T>(plan.I), dptr<const double>(plan.T), dptr<bool>(BW), n, step, plan.lo, plan.span);
            check_launch("ipt.imbinarize");
        }
    });
}

IPT_CUDA_OP("ipt.imbinarize", "", 100, run_imbinarize)

}  // namespace
}  // namespace ipt::cuda
