// SPDX-License-Identifier: Apache-2.0
// Upright integral image on Vulkan, shared by integralImage, imboxfilt and
// adaptthresh: the CPU reference's table (backends/cpu/common/integral_image.hpp).
//
// Exact route (shaders/integral_exact.comp), for integer and logical planes
// whose every partial sum is an integer below 2^53, where any order of the
// additions gives the same doubles: chunk column sums, their running sums
// down the columns, then a work group per chunk of rows turning each row into
// J with a work-group scan. Ordered route (shaders/integral_columns.comp and
// integral_rows.comp), for the rest: the CPU reference's order, every column
// summed down in order, then every row along.
#pragma once

#include "op_support.hpp"
#include "correlate.hpp"

namespace ipt::vk {

// One plane A (m x n, class dtype) read through a border rule with `top`
// rows and `left` columns of padding before it, pm x pn padded values in
// all; J receives (pm+1) x (pn+1) doubles.
struct IntegralSource {
    VkDeviceAddress a = 0;
    int32_t dtype = IPT_DOUBLE;
    int64_t m = 0, n = 0;
    Pad pad = Pad::Replicate;
    double pad_value = 0;
    int64_t top = 0, left = 0, pm = 0, pn = 0;
};

// Whether every partial sum of the padded plane is an exact integer in double.
bool integral_is_exact(const IntegralSource& s);

void record_integral_image(OpContext& ctx, Recorder& rec, const IntegralSource& s, VkDeviceAddress J);

}  // namespace ipt::vk
