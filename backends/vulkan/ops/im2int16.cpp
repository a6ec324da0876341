// SPDX-License-Identifier: Apache-2.0
// ipt.im2int16 on Vulkan, planned by backends/common/ops/im2int16.hpp; the
// pass is shared with the other class conversions (common/class_conversion.hpp).
#include "common/class_conversion.hpp"
#include "common/ops/im2int16.hpp"

namespace {

void run_im2int16(ipt::vk::OpContext& ctx) { ipt::vk::run_im2class(ctx, ipt::frontend::plan_im2int16(ctx.args)); }

}  // namespace

IPT_VK_OP("ipt.im2int16", "wave32", 60, run_im2int16)
IPT_VK_OP("ipt.im2int16", "wave64", 50, run_im2int16)
