// SPDX-License-Identifier: Apache-2.0
// ipt.ycbcr2rgb as the front-end plans it (common/ops/ycbcr2rgb.hpp): one thread per
// pixel, each component summed in double in the host's order and converted
// once (round half away from zero and saturate for integer classes).
#include "common/colour_pixels.cuh"
#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/ops/ycbcr2rgb.hpp"

namespace ipt::cuda {
namespace {

void run_ycbcr2rgb(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::Ycbcr2rgbPlan plan = ipt::frontend::plan_ycbcr2rgb(args);
    const ipt::common::ColourLayout& l = plan.layout;
    const ipt_tensor* out = args.output("RGB", l.out_dtype, l.rows, l.cols, l.channels);
    colour_affine_async("ipt.ycbcr2rgb", l, plan.matrix, out->data, dev.stream);
}

IPT_CUDA_OP("ipt.ycbcr2rgb", "", 100, run_ycbcr2rgb)

}  // namespace
}  // namespace ipt::cuda
