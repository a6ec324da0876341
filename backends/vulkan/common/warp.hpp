// SPDX-License-Identifier: Apache-2.0
// The inverse-mapping resampler of ipt.imrotate, ipt.imtranslate and
// ipt.imwarp on Vulkan: one pass of shaders/warp.comp, one invocation per
// output element, the rule of common/ops/warp.hpp in the CPU's order.
#pragma once

#include "op_support.hpp"
#include "common/ops/warp.hpp"

namespace ipt::vk {

// B (allocated by the caller, class and size of the plan) from the plan's A;
// RB, where given (imwarp's 1 x 6 double), receives the plan's ref in the
// same submission.
void run_warp(OpContext& ctx, const ipt::frontend::WarpPlan& plan, const ipt_tensor* B,
              const ipt_tensor* RB = nullptr);

}  // namespace ipt::vk
