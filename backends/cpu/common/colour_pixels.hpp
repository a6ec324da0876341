// SPDX-License-Identifier: Apache-2.0
// The per-pixel loop of the colour-space operators (rgb2hsv, hsv2rgb,
// rgb2ycbcr, ycbcr2rgb): reads the three components of each pixel where
// common/colour.hpp's layout puts them and writes the three results at the
// same places of the output.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "../../common/colour.hpp"
#include "convert.hpp"
#include "image.hpp"
#include "parallel.hpp"
#include "weighted_sum_u8.hpp"

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

// rgb2ycbcr's and ycbcr2rgb's pass: each output component is
// colour_affine of the pixel's three, converted once to the class (floating
// results clamped when the matrix says so). uint8 images take the fixed-point
// sums (weighted_sum_u8.hpp, the three components in one pass), whose
// results are the same.
inline void colour_affine_pass(const ipt::common::ColourLayout& l, const ipt::common::ColourMatrix& m, const void* in,
                               void* out, const char* op) {
    if (l.in_dtype == IPT_UINT8 && l.pixel_step == 1 && l.plane_step == l.pixels) {
        const uint8_t* src = static_cast<const uint8_t*>(in);
        uint8_t* dst = static_cast<uint8_t*>(out);
        FixedPointSum fixed[3];
        bool usable = true;
        for (int c = 0; c < 3; ++c) {
            fixed[c] = fixed_point_sum(m.m[c], m.offset[c]);
            usable = usable && fixed[c].usable;
        }
        if (usable) {
            constexpr int64_t kChunk = 1 << 14;
            const int64_t n = l.pixels, chunks = (n + kChunk - 1) / kChunk;
            parallel_for(0, chunks, [&](int64_t k) {
                uint8_t near[kChunk];
                const int64_t first = k * kChunk, count = std::min(kChunk, n - first);
                weighted_sums3_u8(fixed, src + first, src + n + first, src + 2 * n + first, dst + first,
                                  dst + n + first, dst + 2 * n + first, near, count,
                                  [&](int c, uint8_t a, uint8_t b, uint8_t d) {
                                      return to_class<uint8_t>(ipt::common::colour_affine(m.m[c], m.offset[c], a, b, d));
                                  });
            });
            return;
        }
    }
    visit_dtype(l.in_dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> || std::is_floating_point_v<T>) {
            auto one = [&](int i, double x0, double x1, double x2) {
                T y = to_class<T>(ipt::common::colour_affine(m.m[i], m.offset[i], x0, x1, x2));
                if constexpr (std::is_floating_point_v<T>)
                    if (m.clamp_unit) y = ipt::common::colour_clamp_unit(y);
                return y;
            };
            for_each_pixel<T, T>(l, in, out, [&](T a, T b, T c, T& y0, T& y1, T& y2) {
                const double x0 = a, x1 = b, x2 = c;
                y0 = one(0, x0, x1, x2);
                y1 = one(1, x0, x1, x2);
                y2 = one(2, x0, x1, x2);
            });
        } else {
            ipt::plugin::unsupported(std::string(op) + ": class not handled");
        }
    });
}

}  // namespace ipt::cpu
