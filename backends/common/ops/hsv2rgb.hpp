// SPDX-License-Identifier: Apache-2.0
// ipt.hsv2rgb's front-end: RGB = hsv2rgb(HSV) (docs/matlab-semantics.md#hsv2rgb).
// HSV is m x n x 3 or a c x 3 colormap of class double, single or logical;
// RGB has its size and class (double for logical). The formulas are
// common/colour.hpp's hsv_to_rgb, evaluated in the output class.
#pragma once

#include "../colour.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

using Hsv2rgbPlan = ipt::common::ColourLayout;

inline Hsv2rgbPlan plan_hsv2rgb(const ipt::plugin::KernelArgs& args) {
    Hsv2rgbPlan p = ipt::common::colour_layout("ipt.hsv2rgb", "HSV", args.image("HSV"));
    p.out_dtype = p.in_dtype == IPT_SINGLE ? IPT_SINGLE : IPT_DOUBLE;
    return p;
}

}  // namespace ipt::frontend
