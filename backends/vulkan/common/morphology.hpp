// Grayscale and binary morphology on the device, shared by ipt.imdilate and
// ipt.imerode (ops/imdilate.cpp).
#pragma once

#include "op_support.hpp"

namespace ipt::vk {

void run_morphology(OpContext& ctx, bool dilate);

}  // namespace ipt::vk
