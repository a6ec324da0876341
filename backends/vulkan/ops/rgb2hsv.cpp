// SPDX-License-Identifier: Apache-2.0
// ipt.rgb2hsv on Vulkan as the front-end plans it (common/ops/rgb2hsv.hpp): one
// pass, an invocation per pixel (shaders/rgb2hsv.comp, common/colour_pass.hpp).
#include "common/colour_pass.hpp"
#include "common/ops/rgb2hsv.hpp"

namespace {

void run_rgb2hsv(ipt::vk::OpContext& ctx) {
    ipt::vk::run_colour_pass(ctx, "rgb2hsv", "HSV", ipt::frontend::plan_rgb2hsv(ctx.args), {});
}

}  // namespace

IPT_VK_OP("ipt.rgb2hsv", "wave32", 60, run_rgb2hsv)
IPT_VK_OP("ipt.rgb2hsv", "wave64", 50, run_rgb2hsv)
