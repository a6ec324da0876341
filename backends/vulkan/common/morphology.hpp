// SPDX-License-Identifier: Apache-2.0
// Grayscale and binary morphology on the device, shared by ipt.imdilate and
// ipt.imerode (common/morphology.cpp).
#pragma once

#include "common/ops/imdilate.hpp"
#include "op_support.hpp"

namespace ipt::vk {

void run_morphology(OpContext& ctx, const frontend::MorphologyPlan& plan);

// One plane of uint8 or logical values at a into b under the plan's flat
// rectangle, in one pass (shaders/morph_rect_bytes.comp: a tile of 128 x 32
// outputs, column then row extremes over 16-bit pairs); false, with nothing
// recorded, when the tiles do not fit in shared memory.
bool run_rect_bytes(OpContext& ctx, Recorder& rec, const frontend::MorphologyPlan& plan, VkDeviceAddress a,
                    VkDeviceAddress b);

}  // namespace ipt::vk
