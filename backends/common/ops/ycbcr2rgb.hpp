// SPDX-License-Identifier: Apache-2.0
// ipt.ycbcr2rgb's front-end: RGB = ycbcr2rgb(YCBCR)
// (docs/matlab-semantics.md#ycbcr2rgb). YCBCR is m x n x 3 or a c x 3
// colormap of class uint8, uint16, single or double; RGB has its size and
// class. Each component is the inverse BT.601 map scaled for the class
// (common/colour.hpp's ycbcr2rgb_matrix), summed in double and converted
// once: rounded half away from zero and saturated for integers, clamped to
// [0, 1] for single and double.
#pragma once

#include "../colour.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct Ycbcr2rgbPlan {
    ipt::common::ColourLayout layout;
    ipt::common::ColourMatrix matrix;
};

inline Ycbcr2rgbPlan plan_ycbcr2rgb(const ipt::plugin::KernelArgs& args) {
    Ycbcr2rgbPlan p;
    p.layout = ipt::common::colour_layout("ipt.ycbcr2rgb", "YCBCR", args.image("YCBCR"));
    p.layout.out_dtype = p.layout.in_dtype;
    p.matrix = ipt::common::ycbcr2rgb_matrix(p.layout.in_dtype);
    return p;
}

}  // namespace ipt::frontend
