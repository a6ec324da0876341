// SPDX-License-Identifier: Apache-2.0
// ipt.rgb2gray's front-end: I = rgb2gray(RGB) for an m x n x 3 truecolor
// image of class uint8, uint16, single or double
// (docs/matlab-semantics.md#rgb2gray). Each element of I is
//   0.298936021293775*R + 0.587043074451121*G + 0.114020904255103*B
// (the first row of the inverse of rgb2ntsc's matrix, as MathWorks gives it),
// the products summed in double from left to right without fused
// multiply-adds, then converted once to RGB's class: round half away from zero
// and saturate for uint8 and uint16, a plain conversion for single. The
// colormap form rgb2gray(map) is not provided.
#pragma once

#include <cstdint>

#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

constexpr double kRgb2grayR = 0.298936021293775;
constexpr double kRgb2grayG = 0.587043074451121;
constexpr double kRgb2grayB = 0.114020904255103;

struct Rgb2grayPlan {
    const ipt_tensor* RGB = nullptr;
    int32_t dtype = 0;  // of RGB and I
    int64_t rows = 0, cols = 0;
    int64_t plane = 0;  // rows*cols: elements of I, and the stride between R, G and B
};

// The weighted sum in double, before the conversion to the output class.
constexpr double rgb2gray_value(double r, double g, double b) {
    return kRgb2grayR * r + kRgb2grayG * g + kRgb2grayB * b;
}

// The schema admits 1 or 3 channels; rgb2gray needs exactly 3.
inline Rgb2grayPlan plan_rgb2gray(const ipt::plugin::KernelArgs& args) {
    Rgb2grayPlan p;
    p.RGB = args.image("RGB");
    if (p.RGB->channels != 3) ipt::plugin::invalid("ipt.rgb2gray: parameter 'RGB' must be m x n x 3");
    p.dtype = p.RGB->dtype;
    p.rows = p.RGB->rows;
    p.cols = p.RGB->cols;
    p.plane = p.rows * p.cols;
    return p;
}

}  // namespace ipt::frontend
