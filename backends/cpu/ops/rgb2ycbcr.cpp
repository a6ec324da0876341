// SPDX-License-Identifier: Apache-2.0
// ipt.rgb2ycbcr as the front-end plans it (common/ops/rgb2ycbcr.hpp):
// BT.601's affine map scaled for the class; each component summed in
// double and converted once (round half away from zero and saturate for
// integer classes).
#include "common/colour_pixels.hpp"
#include "common/op_registry.hpp"
#include "common/ops/rgb2ycbcr.hpp"

namespace {

void run_rgb2ycbcr(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::Rgb2ycbcrPlan plan = ipt::frontend::plan_rgb2ycbcr(args);
    const ipt::common::ColourLayout& l = plan.layout;
    const ipt_tensor* out = args.output("YCBCR", l.out_dtype, l.rows, l.cols, l.channels);
    ipt::cpu::colour_affine_pass(l, plan.matrix, l.in->data, out->data, "ipt.rgb2ycbcr");
}

}  // namespace

IPT_CPU_OP("ipt.rgb2ycbcr", "", 100, run_rgb2ycbcr)
