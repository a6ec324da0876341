// SPDX-License-Identifier: Apache-2.0
// ipt.rgb2hsv's front-end: HSV = rgb2hsv(RGB) (docs/matlab-semantics.md#rgb2hsv).
// RGB is m x n x 3 (uint8, uint16, single or double) or a c x 3 colormap
// (double, as MathWorks documents rgbmap). HSV has RGB's size; it is single
// for single input and double otherwise. Integer values are read as
// double(x)/255 or double(x)/65535; the formulas are common/colour.hpp's
// rgb_to_hsv, evaluated in the output class.
#pragma once

#include "../colour.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

using Rgb2hsvPlan = ipt::common::ColourLayout;

inline Rgb2hsvPlan plan_rgb2hsv(const ipt::plugin::KernelArgs& args) {
    Rgb2hsvPlan p = ipt::common::colour_layout("ipt.rgb2hsv", "RGB", args.image("RGB"));
    if (p.colormap && p.in_dtype != IPT_DOUBLE)
        ipt::plugin::invalid("ipt.rgb2hsv: parameter 'RGB' as a c-by-3 colormap must be double");
    p.out_dtype = p.in_dtype == IPT_SINGLE ? IPT_SINGLE : IPT_DOUBLE;
    return p;
}

}  // namespace ipt::frontend
