// SPDX-License-Identifier: Apache-2.0
// The per-pixel colour conversions on Vulkan (rgb2hsv, hsv2rgb, rgb2ycbcr,
// ycbcr2rgb) as one pass over a ColourLayout, image planes or colormap rows:
// an invocation per pixel, the input and output classes as specialisation
// constants, the conversion in the named shader.
#pragma once

#include <vector>

#include "common/colour.hpp"
#include "op_support.hpp"

namespace ipt::vk {

// Runs `shader` over the pixels of `l` into the output `out_name`. With
// `coef`, the shader reads that many coefficients from a parameter buffer
// whose address follows dst in the push constants.
void run_colour_pass(OpContext& ctx, const char* shader, const char* out_name, const ipt::common::ColourLayout& l,
                     const std::vector<uint32_t>& extra_constants, const std::vector<double>* coef = nullptr);

}  // namespace ipt::vk
