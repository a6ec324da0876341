// SPDX-License-Identifier: Apache-2.0
// ipt.rgb2ycbcr as the front-end plans it (common/ops/rgb2ycbcr.hpp): one thread per
// pixel, each component summed in double in the host's order and converted
// once (round half away from zero and saturate for integer classes).
#include "common/colour_pixels.cuh"
#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/ops/rgb2ycbcr.hpp"

namespace ipt::cuda {
namespace {

void run_rgb2ycbcr(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::Rgb2ycbcrPlan plan = ipt::frontend::plan_rgb2ycbcr(args);
    const ipt::common::ColourLayout& l = plan.layout;
    const ipt_tensor* out = args.output("YCBCR", l.out_dtype, l.rows, l.cols, l.channels);
    colour_affine_async("ipt.rgb2ycbcr", l, plan.matrix, out->data, dev.stream);
}

IPT_CUDA_OP("ipt.rgb2ycbcr", "", 100, run_rgb2ycbcr)

}  // namespace
}  // namespace ipt::cuda
