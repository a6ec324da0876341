// SPDX-License-Identifier: Apache-2.0
// The padded copy of ipt.padarray and ipt.imcrop on Vulkan: one pass of
// shaders/pad_copy.comp, each output element taken from the source element
// that padarray's rule picks (common/ops/padarray.hpp) or the fill value.
#pragma once

#include <cstdint>

#include "op_support.hpp"
#include "common/ops/padarray.hpp"

namespace ipt::vk {

struct PadCopy {
    const ipt_tensor* A = nullptr;  // source; may be empty
    const ipt_tensor* B = nullptr;  // output, allocated
    int32_t dtype = 0;              // of both
    int64_t rows = 0, cols = 0;          // of a source plane
    int64_t out_rows = 0, out_cols = 0;  // of an output plane
    int64_t planes = 1;
    int64_t top = 0, left = 0;      // B(r, c) reads A(r - top, c - left) under the method
    ipt::frontend::PadMethod method = ipt::frontend::PadMethod::Constant;
    double fill = 0;                // a value of the class
};

void run_pad_copy(OpContext& ctx, const PadCopy& copy);

}  // namespace ipt::vk
