// SPDX-License-Identifier: Apache-2.0
// The plan shared by the front-ends of the image class conversions
// (ops/im2double.hpp, im2single.hpp, im2uint8.hpp, im2uint16.hpp,
// im2int16.hpp): J = im2xxx(I) has the size of I (every channel converted
// alike) and the class the function names; each element is converted by backends/common/class_scaling.hpp
// (docs/matlab-semantics.md#image-scaling). The schema enforces I's classes
// (logical, uint8, uint16, int16, single, double). MATLAB's
// im2double(X,'indexed') form is not offered.
#pragma once

#include <cstdint>

#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct Im2ClassPlan {
    const ipt_tensor* I = nullptr;
    int32_t in_dtype = 0;   // of I
    int32_t out_dtype = 0;  // of J
    int64_t rows = 0, cols = 0, channels = 1;
    int64_t numel = 0;      // of I and J
};

inline Im2ClassPlan plan_im2class(const ipt::plugin::KernelArgs& args, int32_t out_dtype) {
    Im2ClassPlan p;
    p.I = args.image("I");
    p.in_dtype = p.I->dtype;
    p.out_dtype = out_dtype;
    p.rows = p.I->rows;
    p.cols = p.I->cols;
    p.channels = p.I->channels;
    p.numel = p.rows * p.cols * p.channels;
    return p;
}

}  // namespace ipt::frontend
