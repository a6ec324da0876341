// SPDX-License-Identifier: Apache-2.0
// ipt.rgb2ycbcr's front-end: YCBCR = rgb2ycbcr(RGB)
// (docs/matlab-semantics.md#rgb2ycbcr). RGB is m x n x 3 or a c x 3 colormap
// of class uint8, uint16, single or double; YCBCR has its size and class.
// Each component is BT.601's affine map with the coefficients scaled for the
// class (common/colour.hpp's rgb2ycbcr_matrix), summed in double and
// converted once: rounded half away from zero and saturated for integers.
#pragma once

#include "../colour.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct Rgb2ycbcrPlan {
    ipt::common::ColourLayout layout;
    ipt::common::ColourMatrix matrix;
};

inline Rgb2ycbcrPlan plan_rgb2ycbcr(const ipt::plugin::KernelArgs& args) {
    Rgb2ycbcrPlan p;
    p.layout = ipt::common::colour_layout("ipt.rgb2ycbcr", "RGB", args.image("RGB"));
    p.layout.out_dtype = p.layout.in_dtype;
    p.matrix = ipt::common::rgb2ycbcr_matrix(p.layout.in_dtype);
    return p;
}

}  // namespace ipt::frontend
