// SPDX-License-Identifier: Apache-2.0
// ipt.imhist as the front-end plans it (common/ops/imhist.hpp): one histogram
// over every element of I (channel planes are contiguous), counts and the
// plan's bin locations written as n x 1 doubles.
#include <algorithm>
#include <cstring>

#include "common/histogram.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/ops/imhist.hpp"

namespace {

void run_imhist(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::ImhistPlan plan = ipt::frontend::plan_imhist(args);
    const ipt_tensor* counts = args.output("counts", plan.out_dtype, plan.out_rows, plan.out_cols, 1);
    double* c = static_cast<double*>(counts->data);
    std::fill(c, c + plan.nbins, 0.0);
    ipt::cpu::visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        const auto in = ipt::cpu::view<T>(plan.I);
        const auto h = ipt::cpu::histogram(in.data, in.numel(), plan.nbins);
        for (int64_t k = 0; k < plan.nbins; ++k) c[k] = static_cast<double>(h[k]);
    });
    if (args.wanted("binLocations")) {
        const ipt_tensor* x = args.output("binLocations", plan.out_dtype, plan.out_rows, plan.out_cols, 1);
        std::memcpy(x->data, plan.bin_locations.data(), plan.bin_locations.size() * sizeof(double));
    }
}

}  // namespace

IPT_CPU_OP("ipt.imhist", "", 100, run_imhist)
