// SPDX-License-Identifier: Apache-2.0
// imhist as the front-end plans it (common/ops/imhist.hpp): one histogram
// over every element of I (the channel planes are one contiguous array) with
// the device histogram shared with stretchlim (common/stretchlim.cuh), whose
// last block writes the counts as doubles: one launch. The bin locations are
// the plan's, copied in.
#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/stream_scratch.hpp"
#include "common/stretchlim.cuh"
#include "common/ops/imhist.hpp"

namespace ipt::cuda {
namespace {

// The counts as doubles, written by the histogram's last block.
struct WriteCounts {
    double* counts;
    __device__ void operator()(int bin, unsigned count) const { counts[bin] = static_cast<double>(count); }
};

void run_imhist(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::ImhistPlan plan = ipt::frontend::plan_imhist(args);
    const ipt_tensor* counts = args.output("counts", plan.out_dtype, plan.out_rows, plan.out_cols, 1);
    const int nbins = static_cast<int>(plan.nbins);
    const int64_t numel = plan.plane * plan.channels;
    if (numel == 0) {
        check(cudaMemsetAsync(counts->data, 0, static_cast<size_t>(nbins) * sizeof(double), dev.stream),
              "cudaMemsetAsync (imhist counts)");
    } else {
        // The bins, then the histogram's counter.
        ZeroedScratch hist(dev.stream, (static_cast<size_t>(nbins) + 1) * sizeof(unsigned));
        histogram_async<Binning::Imhist>(plan.dtype, plan.I->data, numel, 1, static_cast<unsigned*>(hist.get()),
                                         nbins, dev.stream, "ipt.imhist", WriteCounts{dptr<double>(counts)});
    }
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
