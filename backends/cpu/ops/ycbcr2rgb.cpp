// SPDX-License-Identifier: Apache-2.0
// ipt.ycbcr2rgb as the front-end plans it (common/ops/ycbcr2rgb.hpp):
// the inverse BT.601 map scaled for the class, floating results clamped to [0, 1]; each component summed in
// double and converted once (round half away from zero and saturate for
// integer classes).
#include "common/colour_pixels.hpp"
#include "common/op_registry.hpp"
#include "common/ops/ycbcr2rgb.hpp"

namespace {

void run_ycbcr2rgb(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::Ycbcr2rgbPlan plan = ipt::frontend::plan_ycbcr2rgb(args);
    const ipt::common::ColourLayout& l = plan.layout;
    const ipt_tensor* out = args.output("RGB", l.out_dtype, l.rows, l.cols, l.channels);
    ipt::cpu::colour_affine_pass(l, plan.matrix, l.in->data, out->data, "ipt.ycbcr2rgb");
}

}  // namespace

IPT_CPU_OP("ipt.ycbcr2rgb", "", 100, run_ycbcr2rgb)
