// SPDX-License-Identifier: Apache-2.0
// ipt.rgb2ycbcr on Vulkan as the front-end plans it (common/ops/rgb2ycbcr.hpp): one
// pass, an invocation per pixel (shaders/rgb2ycbcr.comp, common/colour_pass.hpp);
// the twelve coefficients travel as parameters.
#include <vector>

#include "common/colour_pass.hpp"
#include "common/ops/rgb2ycbcr.hpp"

namespace {

void run_rgb2ycbcr(ipt::vk::OpContext& ctx) {
    const ipt::frontend::Rgb2ycbcrPlan plan = ipt::frontend::plan_rgb2ycbcr(ctx.args);
    std::vector<double> coef;
    for (const auto& row : plan.matrix.m) coef.insert(coef.end(), row, row + 3);
    coef.insert(coef.end(), plan.matrix.offset, plan.matrix.offset + 3);
    ipt::vk::run_colour_pass(ctx, "rgb2ycbcr", "YCBCR", plan.layout, {plan.matrix.clamp_unit ? 1u : 0u}, &coef);
}

}  // namespace

IPT_VK_OP("ipt.rgb2ycbcr", "wave32", 60, run_rgb2ycbcr)
IPT_VK_OP("ipt.rgb2ycbcr", "wave64", 50, run_rgb2ycbcr)
