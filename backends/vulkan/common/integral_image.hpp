// Upright integral image on Vulkan (shaders/integral_columns.comp and
// integral_rows.comp), shared by integralImage and imboxfilt: the same
// table and the same order of additions as the CPU reference
// (backends/cpu/common/integral_image.hpp).
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

void record_integral_image(OpContext& ctx, Recorder& rec, const IntegralSource& s, VkDeviceAddress J);

}  // namespace ipt::vk
