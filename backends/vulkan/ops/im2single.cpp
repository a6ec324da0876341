// SPDX-License-Identifier: Apache-2.0
// ipt.im2single on Vulkan, planned by backends/common/ops/im2single.hpp; the
// pass is shared with the other class conversions (common/class_conversion.hpp).
#include "common/class_conversion.hpp"
#include "common/ops/im2single.hpp"

namespace {

void run_im2single(ipt::vk::OpContext& ctx) { ipt::vk::run_im2class(ctx, ipt::frontend::plan_im2single(ctx.args)); }

}  // namespace

IPT_VK_OP("ipt.im2single", "wave32", 60, run_im2single)
IPT_VK_OP("ipt.im2single", "wave64", 50, run_im2single)
