// SPDX-License-Identifier: Apache-2.0
// graythresh as the front-end plans it (common/ops/graythresh.hpp): the
// 256-bin histogram of im2uint8 values over every element, counted on the
// device (common/stretchlim.cuh), read back; Otsu's arithmetic on the host.
#include <vector>

#include "common/context.hpp"
#include "common/host_scalars.hpp"
#include "common/op_registry.hpp"
#include "common/stretchlim.cuh"
#include "common/ops/graythresh.hpp"

namespace ipt::cuda {
namespace {

void run_graythresh(const ipt::plugin::KernelArgs& args) {
    using ipt::frontend::GraythreshPlan;
    const Device& dev = device_of(args);
    const GraythreshPlan plan = ipt::frontend::plan_graythresh(args);
    std::vector<unsigned> counts(GraythreshPlan::nbins, 0u);
    if (plan.needs_histogram) {
        DeviceArray<unsigned> hist(counts.size(), dev.stream);
        hist.zero();
        histogram_async<Binning::Im2uint8>(plan.dtype, plan.I->data, plan.plane * plan.channels, 1, hist.get(),
                                           static_cast<int>(GraythreshPlan::nbins), dev.stream, "ipt.graythresh");
        check(cudaMemcpyAsync(counts.data(), hist.get(), hist.bytes(), cudaMemcpyDeviceToHost, dev.stream),
              "cudaMemcpyAsync (graythresh histogram)");
        check(cudaStreamSynchronize(dev.stream), "cudaStreamSynchronize (graythresh histogram)");
    }
    const ipt::common::OtsuResult r = ipt::frontend::graythresh_result(plan, counts.data());
    write_host_scalars(args, dev, plan.out_dtype, {{"T", r.T}, {"EM", r.EM}});
}

IPT_CUDA_OP("ipt.graythresh", "", 100, run_graythresh)

}  // namespace
}  // namespace ipt::cuda
