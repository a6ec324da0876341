// SPDX-License-Identifier: Apache-2.0
// ipt.hsv2rgb on Vulkan as the front-end plans it (common/ops/hsv2rgb.hpp): one
// pass, an invocation per pixel (shaders/hsv2rgb.comp, common/colour_pass.hpp).
#include "common/colour_pass.hpp"
#include "common/ops/hsv2rgb.hpp"

namespace {

void run_hsv2rgb(ipt::vk::OpContext& ctx) {
    ipt::vk::run_colour_pass(ctx, "hsv2rgb", "RGB", ipt::frontend::plan_hsv2rgb(ctx.args), {});
}

}  // namespace

IPT_VK_OP("ipt.hsv2rgb", "wave32", 60, run_hsv2rgb)
IPT_VK_OP("ipt.hsv2rgb", "wave64", 50, run_hsv2rgb)
