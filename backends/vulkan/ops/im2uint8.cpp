// SPDX-License-Identifier: Apache-2.0
// ipt.im2uint8 on Vulkan, planned by backends/common/ops/im2uint8.hpp; the
// pass is shared with the other class conversions (common/class_conversion.hpp).
#include "common/class_conversion.hpp"
#include "common/ops/im2uint8.hpp"

namespace {

void run_im2uint8(ipt::vk::OpContext& ctx) { ipt::vk::run_im2class(ctx, ipt::frontend::plan_im2uint8(ctx.args)); }

}  // namespace

IPT_VK_OP("ipt.im2uint8", "wave32", 60, run_im2uint8)
IPT_VK_OP("ipt.im2uint8", "wave64", 50, run_im2uint8)
