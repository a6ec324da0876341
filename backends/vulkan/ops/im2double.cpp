// SPDX-License-Identifier: Apache-2.0
// ipt.im2double on Vulkan, planned by backends/common/ops/im2double.hpp; the
// pass is shared with the other class conversions (common/class_conversion.hpp).
#include "common/class_conversion.hpp"
#include "common/ops/im2double.hpp"

namespace {

void run_im2double(ipt::vk::OpContext& ctx) { ipt::vk::run_im2class(ctx, ipt::frontend::plan_im2double(ctx.args)); }

}  // namespace

IPT_VK_OP("ipt.im2double", "wave32", 60, run_im2double)
IPT_VK_OP("ipt.im2double", "wave64", 50, run_im2double)
