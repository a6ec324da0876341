// SPDX-License-Identifier: Apache-2.0
// The least and greatest element of an image on the device, NaN skipped, in
// two levels (per-group partials, then one group): ipt.mat2gray's default
// limits. Written as two doubles [min max] at an address on the device;
// +Inf and -Inf when there is no element that is not NaN.
#pragma once

#include "op_support.hpp"

namespace ipt::vk {

// n elements of class dtype at src; n >= 1.
void record_minmax(OpContext& ctx, Recorder& rec, VkDeviceAddress src, int32_t dtype, int64_t n,
                   VkDeviceAddress out);

}  // namespace ipt::vk
