// SPDX-License-Identifier: Apache-2.0
// histeq as the front-end plans it (common/ops/histeq.hpp): imhist's 256-bin
// histogram over every element, counted on the device (common/stretchlim.cuh)
// and read back; the transformation and its table on the host; then every
// element looked up by its bin, the table in shared memory.
#include <type_traits>
#include <vector>

#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/stretchlim.cuh"
#include "common/ops/histeq.hpp"

namespace ipt::cuda {
namespace {

using ipt::frontend::HisteqPlan;

template <class T>
__global__ void apply_bins(const T* __restrict__ a, const T* __restrict__ table, T* __restrict__ j, int64_t n) {
    __shared__ T t[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x) t[i] = table[i];
    __syncthreads();
    IPT_GRID_STRIDE(i, n) j[i] = t[stretch_bin(a[i], 256)];
}

template <class T>
void apply(const HisteqPlan& plan, const std::vector<double>& transform, const ipt_tensor* J, cudaStream_t s) {
    const DeviceArray<T> table = to_device(ipt::frontend::histeq_table<T>(transform), s);
    apply_bins<T><<<grid_for(plan.numel, kThreads, 528), kThreads, 0, s>>>(dptr<const T>(plan.I), table.get(),
                                                                          dptr<T>(J), plan.numel);
    check_launch("ipt.histeq");
}

void run_histeq(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const HisteqPlan plan = ipt::frontend::plan_histeq(args);
    const ipt_tensor* J = args.output("J", plan.out_dtype, plan.I->rows, plan.I->cols, plan.channels);
    std::vector<unsigned> counts(HisteqPlan::nbins, 0u);
    if (plan.numel > 0) {
        DeviceArray<unsigned> hist(counts.size(), dev.stream);
        hist.zero();
        histogram_async<Binning::Imhist>(plan.dtype, plan.I->data, plan.numel, 1, hist.get(),
                                         static_cast<int>(HisteqPlan::nbins), dev.stream, "ipt.histeq");
        check(cudaMemcpyAsync(counts.data(), hist.get(), hist.bytes(), cudaMemcpyDeviceToHost, dev.stream),
              "cudaMemcpyAsync (histeq histogram)");
        check(cudaStreamSynchronize(dev.stream), "cudaStreamSynchronize (histeq histogram)");
    }
    const std::vector<double> transform = ipt::frontend::histeq_transform(plan, counts.data());
    if (plan.numel > 0) {
        switch (plan.dtype) {
        case IPT_UINT8: apply<uint8_t>(plan, transform, J, dev.stream); break;
        case IPT_UINT16: apply<uint16_t>(plan, transform, J, dev.stream); break;
        case IPT_INT16: apply<int16_t>(plan, transform, J, dev.stream); break;
        case IPT_SINGLE: apply<float>(plan, transform, J, dev.stream); break;
        default: apply<double>(plan, transform, J, dev.stream); break;
        }
    }
    if (args.wanted("T")) {
        const ipt_tensor* t = args.output("T", IPT_DOUBLE, plan.t_rows, plan.t_cols, 1);
        // Pageable source: the copy is staged before cudaMemcpyAsync returns.
        check(cudaMemcpyAsync(t->data, transform.data(), transform.size() * sizeof(double), cudaMemcpyHostToDevice,
                              dev.stream),
              "cudaMemcpyAsync (histeq T)");
    }
}

IPT_CUDA_OP("ipt.histeq", "", 100, run_histeq)

}  // namespace
}  // namespace ipt::cuda
