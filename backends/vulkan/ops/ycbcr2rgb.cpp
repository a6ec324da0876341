// SPDX-License-Identifier: Apache-2.0
// ipt.ycbcr2rgb on Vulkan as the front-end plans it (common/ops/ycbcr2rgb.hpp): one
// pass, an invocation per pixel (shaders/ycbcr2rgb.comp, common/colour_pass.hpp);
// the twelve coefficients travel as parameters.
#include <vector>

#include "common/colour_pass.hpp"
#include "common/ops/ycbcr2rgb.hpp"

namespace {

void run_ycbcr2rgb(ipt::vk::OpContext& ctx) {
    const ipt::frontend::Ycbcr2rgbPlan plan = ipt::frontend::plan_ycbcr2rgb(ctx.args);
    std::vector<double> coef;
    for (const auto& row : plan.matrix.m) coef.insert(coef.end(), row, row + 3);
    coef.insert(coef.end(), plan.matrix.offset, plan.matrix.offset + 3);
    ipt::vk::run_colour_pass(ctx, "ycbcr2rgb", "RGB", plan.layout, {plan.matrix.clamp_unit ? 1u : 0u}, &coef);
}

}  // namespace

IPT_VK_OP("ipt.ycbcr2rgb", "wave32", 60, run_ycbcr2rgb)
IPT_VK_OP("ipt.ycbcr2rgb", "wave64", 50, run_ycbcr2rgb)
