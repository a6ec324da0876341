// SPDX-License-Identifier: Apache-2.0
// Grayscale and binary morphology on the device, shared by ipt.imdilate and
// ipt.imerode (common/morphology.cpp).
#pragma once

#include "common/ops/imdilate.hpp"
#include "op_support.hpp"

namespace ipt::vk {

void run_morphology(OpContext& ctx, const frontend::MorphologyPlan& plan);

}  // namespace ipt::vk
