// SPDX-License-Identifier: Apache-2.0
// The engine of ipt.im2double, im2single, im2uint8, im2uint16 and im2int16 on
// Vulkan: one elementwise pass of shaders/im2class.comp (input and output
// class as specialisation constants).
#pragma once

#include "op_support.hpp"
#include "common/ops/im2class.hpp"

namespace ipt::vk {

// Runs the conversion the plan describes into output J.
void run_im2class(OpContext& ctx, const ipt::frontend::Im2ClassPlan& plan);

}  // namespace ipt::vk
