// SPDX-License-Identifier: Apache-2.0
// ipt.ycbcr2rgb: one invocation per pixel; common/colour.hpp's affine map with the
// coefficients the front-end scaled for the class (colour.glsl).
#version 460
#extension GL_GOOGLE_include_directive : require
#define COLOUR_AFFINE 1
#include "ipt_common.glsl"
#include "colour.glsl"

void main() { colour_affine_main(); }
