// SPDX-License-Identifier: Apache-2.0
// The per-pixel kernel of the colour-space operators (rgb2hsv, hsv2rgb,
// rgb2ycbcr, ycbcr2rgb): each pixel reads its three components
// where common/colour.hpp's layout puts them and writes three results at the
// same places of the output; images in packs of neighbouring pixels
// (packed.cuh), colormaps a thread per row. Bandwidth-bound; the formulas are
// the host's.
#pragma once

#include <cstdint>

#include "../../common/colour.hpp"
#include "check.hpp"
#include "device.cuh"
#include "float_first.cuh"
#include "packed.cuh"

namespace ipt::cuda {

template <class In, class Out, class F>
__global__ void colour_pixels_kernel(const In* __restrict__ src, Out* __restrict__ dst, int64_t pixels,
                                     int64_t pixel_step, int64_t plane_step, F f) {
    IPT_GRID_STRIDE(p, pixels) {
        const int64_t i = p * pixel_step;
        f(src[i], src[i + plane_step], src[i + 2 * plane_step], dst[i], dst[i + plane_step],
          dst[i + 2 * plane_step]);
    }
}

// The pixel rule on packs of the three planes of an image.
template <class F>
struct ColourPlanes {
    F f;
    template <class In, class Out>
    __device__ void operator()(const In (&x)[3], Out (&y)[3]) const {
        f(x[0], x[1], x[2], y[0], y[1], y[2]);
    }
    // The rule's fast path, where it has one (packed.cuh's HasFastPath).
    template <class In, class Out>
    __device__ bool fast(const In (&x)[3], Out (&y)[3]) const
        requires requires(const F& g, In v, Out& r) { g.fast(v, v, v, r, r, r); }
    {
        return f.fast(x[0], x[1], x[2], y[0], y[1], y[2]);
    }
};

template <class In, class Out, class F>
void launch_colour_pixels(const char* op, const ipt::common::ColourLayout& l, const void* in, void* out,
                          cudaStream_t stream, F f) {
    if (l.pixels == 0) return;
    if (l.pixel_step == 1 && l.plane_step == l.pixels) {
        packed::run_planes<3, 3>(op, static_cast<const In*>(in), static_cast<Out*>(out), l.pixels, stream,
                                 ColourPlanes<F>{f});
        return;
    }
    colour_pixels_kernel<In, Out, F><<<grid_for(l.pixels), kThreads, 0, stream>>>(
        static_cast<const In*>(in), static_cast<Out*>(out), l.pixels, l.pixel_step, l.plane_step, f);
    check_launch(op);
}

// ycbcr's affine maps: the matrix travels by value. uint8 sums in single
// first (common/float_first.cuh, through packed.cuh's fast path), a pack in
// double only where single cannot decide a rounding in it.
template <class T>
struct ColourAffine {
    ipt::common::ColourMatrix m;
    FloatFirstSum<3> single_first[3];  // uint8 only

    explicit ColourAffine(const ipt::common::ColourMatrix& matrix) : m(matrix) {
        if constexpr (std::is_same_v<T, uint8_t>)
            for (int i = 0; i < 3; ++i) single_first[i] = float_first_sum<3>(m.m[i], 3, m.offset[i]);
    }
    __device__ T one(int i, double x0, double x1, double x2) const {
        T y = saturate_round<T>(ipt::common::colour_affine(m.m[i], m.offset[i], x0, x1, x2));
        if constexpr (std::is_floating_point_v<T>)
            if (m.clamp_unit) y = ipt::common::colour_clamp_unit(y);
        return y;
    }
    __device__ void operator()(T a, T b, T c, T& y0, T& y1, T& y2) const {
        const double x0 = to_double(a), x1 = to_double(b), x2 = to_double(c);
        y0 = one(0, x0, x1, x2);
        y1 = one(1, x0, x1, x2);
        y2 = one(2, x0, x1, x2);
    }
    // uint8: the three sums in single; false where one of them is undecided.
    // The margin test decides for any matrix; ycbcr's weights are never
    // dyadic, so the exact rounding of float_first.cuh would never be taken.
    __device__ bool fast(T a, T b, T c, T& y0, T& y1, T& y2) const
        requires std::is_same_v<T, uint8_t>
    {
        const float x[3] = {byte_to_float(a), byte_to_float(b), byte_to_float(c)};
        unsigned r0, r1, r2;
        const bool decided = float_first_round_floats<false>(single_first[0], x, &r0) &
                             float_first_round_floats<false>(single_first[1], x, &r1) &
                             float_first_round_floats<false>(single_first[2], x, &r2);
        y0 = static_cast<uint8_t>(r0);
        y1 = static_cast<uint8_t>(r1);
        y2 = static_cast<uint8_t>(r2);
        return decided;
    }
};

// rgb2ycbcr and ycbcr2rgb: the plan's affine map over every pixel, in the
// class of the input (which is the class of the output).
inline void colour_affine_async(const char* op, const ipt::common::ColourLayout& l,
                                const ipt::common::ColourMatrix& m, void* out, cudaStream_t stream) {
    const void* in = l.in->data;
    switch (l.in_dtype) {
    case IPT_UINT8: launch_colour_pixels<uint8_t, uint8_t>(op, l, in, out, stream, ColourAffine<uint8_t>(m)); break;
    case IPT_UINT16: launch_colour_pixels<uint16_t, uint16_t>(op, l, in, out, stream, ColourAffine<uint16_t>(m)); break;
    case IPT_SINGLE: launch_colour_pixels<float, float>(op, l, in, out, stream, ColourAffine<float>(m)); break;
    case IPT_DOUBLE: launch_colour_pixels<double, double>(op, l, in, out, stream, ColourAffine<double>(m)); break;
    default: ipt::plugin::unsupported(std::string(op) + ": class not handled");
    }
}

}  // namespace ipt::cuda
