// SPDX-License-Identifier: Apache-2.0
// ipt.rgb2hsv as the front-end plans it (common/ops/rgb2hsv.hpp): integer
// values scaled to [0, 1] in double, then MATLAB's formulas in the output
// class (common/colour.hpp). Images (three planes) go through a loop the
// compiler vectorises; colormaps through the per-pixel formula.
#include <algorithm>
#include <type_traits>

#include "common/colour_pixels.hpp"
#include "common/image.hpp"
#include "common/isa.hpp"
#include "common/op_registry.hpp"
#include "common/parallel.hpp"
#include "common/simd.hpp"
#include "common/ops/rgb2hsv.hpp"

namespace {

// colour_max and colour_min as selects (a NaN operand is ignored).
template <class F>
IPT_ALWAYS_INLINE F max_ignoring_nan(F a, F b) {
    return a != a ? b : (b != b ? a : (b > a ? b : a));
}
template <class F>
IPT_ALWAYS_INLINE F min_ignoring_nan(F a, F b) {
    return a != a ? b : (b != b ? a : (b < a ? b : a));
}

// common/colour.hpp's rgb_to_hsv over n pixels, the same operations in the
// same order with the branches as selects: the hue of the last matching
// component (blue, then green, then red) is the one kept, and the divisions
// of the others are not needed, so one quotient serves. Its numerator and
// offset are picked first and no later select depends on the same
// conditions: GCC otherwise threads those conditions back through the
// division and vectorises three of them (five divisions a pixel, not
// three). Red's offset is -0, so that -0 + q is q to the bit; no component
// equals V only where V is NaN (all three NaN), whose hue is 0.
template <class In, class F>
IPT_ALWAYS_INLINE void hsv_span(const In* __restrict r, const In* __restrict g, const In* __restrict b,
                                F* __restrict h, F* __restrict s, F* __restrict v, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
        const F R = ipt::common::to_unit_scale<F>(r[i]);
        const F G = ipt::common::to_unit_scale<F>(g[i]);
        const F B = ipt::common::to_unit_scale<F>(b[i]);
        const F V = max_ignoring_nan(max_ignoring_nan(R, G), B);
        const F d = V - min_ignoring_nan(min_ignoring_nan(R, G), B);
        const bool grey = d == F(0);
        const F div = grey ? F(1) : d;
        const bool is_b = B == V, is_g = G == V;
        const F numerator = is_b ? R - G : (is_g ? B - R : G - B);
        const F offset = is_b ? F(4) : (is_g ? F(2) : -F(0));
        F hue = (offset + numerator / div) / F(6);
        hue = hue < F(0) ? hue + F(1) : hue;
        const F keep = grey ? F(0) : F(1);
        h[i] = V != V ? F(0) : keep * hue;
        const F sat = (keep * div) / V;
        s[i] = V != F(0) ? sat : F(0);
        v[i] = V;
    }
}

template <class In, class F>
void planes_to_hsv(const In* rgb, F* hsv, int64_t plane) {
    constexpr int64_t kChunk = 1 << 13;
    const int64_t chunks = (plane + kChunk - 1) / kChunk;
    ipt::cpu::parallel_for(0, chunks, [&](int64_t c) {
        const int64_t first = c * kChunk, count = std::min(kChunk, plane - first);
        ipt::cpu::simd_dispatch_widest([&] {
            hsv_span<In, F>(rgb + first, rgb + plane + first, rgb + 2 * plane + first, hsv + first,
                            hsv + plane + first, hsv + 2 * plane + first, count);
        });
    });
}

void run_rgb2hsv(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::Rgb2hsvPlan plan = ipt::frontend::plan_rgb2hsv(args);
    const ipt_tensor* hsv = args.output("HSV", plan.out_dtype, plan.rows, plan.cols, plan.channels);
    const bool planes = plan.pixel_step == 1 && plan.plane_step == plan.pixels;
    ipt::cpu::visit_dtype(plan.in_dtype, [&](auto tag) {
        using In = decltype(tag);
        if constexpr (std::is_same_v<In, uint8_t> || std::is_same_v<In, uint16_t> || std::is_same_v<In, double>) {
            if (planes) {
                planes_to_hsv<In, double>(static_cast<const In*>(plan.in->data), static_cast<double*>(hsv->data),
                                          plan.pixels);
                return;
            }
            ipt::cpu::for_each_pixel<In, double>(plan, plan.in->data, hsv->data,
                                                 [](In r, In g, In b, double& h, double& s, double& v) {
                                                     ipt::common::rgb_to_hsv(ipt::common::to_unit_scale<double>(r),
                                                                             ipt::common::to_unit_scale<double>(g),
                                                                             ipt::common::to_unit_scale<double>(b), h, s, v);
                                                 });
        } else if constexpr (std::is_same_v<In, float>) {
            if (planes) {
                planes_to_hsv<float, float>(static_cast<const float*>(plan.in->data), static_cast<float*>(hsv->data),
                                            plan.pixels);
                return;
            }
            ipt::cpu::for_each_pixel<float, float>(plan, plan.in->data, hsv->data,
                                                   [](float r, float g, float b, float& h, float& s, float& v) {
                                                       ipt::common::rgb_to_hsv(r, g, b, h, s, v);
                                                   });
        } else {
            ipt::plugin::unsupported("ipt.rgb2hsv: class not handled");
        }
    });
}

}  // namespace

IPT_CPU_OP("ipt.rgb2hsv", "", 100, run_rgb2hsv)
