// The per-pixel loop of the colour-space operators (rgb2hsv, hsv2rgb,
// rgb2ycbcr, ycbcr2rgb): reads the three components of each pixel where
// common/colour.hpp's layout puts them and writes the three results at the
// same places of the output.
#pragma once

#include <cstdint>

#include "../../common/colour.hpp"
#include "parallel.hpp"

namespace ipt::cpu {

// f(x0, x1, x2, y0, y1, y2) maps one pixel of In to one of Out.
template <class In, class Out, class F>
void for_each_pixel(const ipt::common::ColourLayout& l, const void* in, void* out, F&& f) {
    const In* src = static_cast<const In*>(in);
    Out* dst = static_cast<Out*>(out);
    const int64_t ps = l.pixel_step, cs = l.plane_step;
    parallel_for(
        0, l.pixels,
        [&](int64_t p) {
            const int64_t i = p * ps;
            f(src[i], src[i + cs], src[i + 2 * cs], dst[i], dst[i + cs], dst[i + 2 * cs]);
        },
        4096);
}

}  // namespace ipt::cpu
