// SPDX-License-Identifier: Apache-2.0
// imhist as the front-end plans it (common/ops/imhist.hpp): one histogram
// over every element of I (the channel planes are one contiguous array) with
// the device histogram shared with stretchlim (common/stretchlim.cuh), then
// the counts as doubles; the bin locations are the plan's, copied in.
#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/stretchlim.cuh"
#include "common/ops/imhist.hpp"

namespace ipt::cuda {
namespace {

__global__ void counts_to_double(const unsigned* __restrict__ hist, double* __restrict__ counts, int nbins) {
    IPT_GRID_STRIDE(i, nbins) counts[i] = static_cast<double>(hist[i]);
}

void run_imhist(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::ImhistPlan plan = ipt::frontend::plan_imhist(args);
    const ipt_tensor* counts = args.output("counts", plan.out_dtype, plan.out_rows, plan.out_cols, 1);
    const int nbins = static_cast<int>(plan.nbins);
    DeviceArray<unsigned> hist(static_cast<size_t>(nbins), dev.stream);
    hist.zero();
    histogram_async<Binning::Imhist>(plan.dtype, plan.I->data, plan.plane * plan.channels, 1, hist.get(), nbins,
                                     dev.stream, "ipt.imhist");
    counts_to_double<<<grid_for(nbins), kThreads, 0, dev.stream>>>(hist.get(), dptr<double>(counts), nbins);
    check_launch("ipt.imhist");
    if (args.wanted("binLocations")) {
        const ipt_tensor* x = args.output("binLocations", plan.out_dtype, plan.out_rows, plan.out_cols, 1);
        // Pageable source: the copy is staged before cudaMemcpyAsync returns.
        check(cudaMemcpyAsync(x->data, plan.bin_locations.data(), plan.bin_locations.size() * sizeof(double),
                              cudaMemcpyHostToDevice, dev.stream),
              "cudaMemcpyAsync (imhist bin locations)");
    }
}

IPT_CUDA_OP("ipt.imhist", "", 100, run_imhist)

}  // namespace
}  // namespace ipt::cuda
