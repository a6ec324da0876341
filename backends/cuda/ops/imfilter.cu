// SPDX-License-Identifier: Apache-2.0
// imfilter: correlation (or convolution) of each channel with h, every border
// rule of MATLAB, 'same' or 'full' output
// (docs/matlab-semantics.md#centre and #imfilter-boundary), as the front-end plans it (common/ops/imfilter.hpp): in double,
// converted once to the class of A; single and double in their own class,
// in the reference's order (CorrGeometry::class_sum), so that a sum that
// overflows is Inf where the reference's is. Runs on the shared correlation engine
// (tiles in shared memory, four outputs per thread).
#include "common/context.hpp"
#include "common/correlate.cuh"
#include "common/op_registry.hpp"
#include "common/ops/imfilter.hpp"

namespace ipt::cuda {
namespace {

using ipt::frontend::ImfilterPlan;

void run_imfilter(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ImfilterPlan p = ipt::frontend::plan_imfilter(args);
    if (p.kr > INT32_MAX || p.kc > INT32_MAX)
        ipt::plugin::unsupported("ipt.imfilter: filters of 2^31 taps or more a side");
    const ipt_tensor* b = args.output("B", p.out_class, p.out_rows, p.out_cols, p.channels);
    if (p.zeros_only) {
        const size_t bytes = static_cast<size_t>(p.out_rows * p.out_cols * p.channels) *
                             ipt::plugin::dtype_size(p.out_class);
        if (bytes) check(cudaMemsetAsync(b->data, 0, bytes, dev.stream), "ipt.imfilter");
        return;
    }
    CorrGeometry g;
    g.in_rows = p.ma;
    g.in_cols = p.na;
    g.kh = static_cast<int>(p.kr);
    g.kw = static_cast<int>(p.kc);
    g.out_rows = p.out_rows;
    g.out_cols = p.out_cols;
    g.off_r = p.top;
    g.off_c = p.left;
    g.planes = p.channels;
    g.border = ipt::frontend::border_as<Border>(p.boundary);
    g.rotate = p.conv;
    g.class_sum = p.out_class == IPT_SINGLE || p.out_class == IPT_DOUBLE;
    const Taps taps{p.h->data, p.h->dtype == IPT_SINGLE};
    visit_dtype(p.out_class, [&](auto tag) {
        using T = decltype(tag);
        correlate_async<T, T>(dptr<const T>(p.A), dptr<T>(b), taps, g, static_cast<T>(p.pad_value), dev.stream,
                              "ipt.imfilter");
    });
}

IPT_CUDA_OP("ipt.imfilter", "", 100, run_imfilter)

}  // namespace
}  // namespace ipt::cuda
