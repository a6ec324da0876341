// SPDX-License-Identifier: Apache-2.0
// adaptthresh's local thresholds (common/ops/adaptthresh.hpp) recorded into a
// double buffer of I's size (shaders/adaptthresh.comp around the shared
// integral image), for ipt.adaptthresh and imbinarize's 'adaptive'.
#pragma once

#include "op_support.hpp"
#include "common/ops/adaptthresh.hpp"

namespace ipt::vk {

void record_adaptthresh(OpContext& ctx, Recorder& rec, const ipt::frontend::AdaptthreshPlan& p, VkDeviceAddress T);

}  // namespace ipt::vk
