// SPDX-License-Identifier: Apache-2.0
// ipt.hsv2rgb as the front-end plans it (common/ops/hsv2rgb.hpp): MATLAB's
// formulas in the output class (common/colour.hpp); logical reads as 0 and 1.
// Images (three planes) go through a loop the compiler vectorises (the
// formula has no branches); colormaps through the per-pixel loop.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <type_traits>

#include "common/colour_pixels.hpp"
#include "common/image.hpp"
#include "common/isa.hpp"
#include "common/op_registry.hpp"
#include "common/parallel.hpp"
#include "common/simd.hpp"
#include "common/ops/hsv2rgb.hpp"

namespace {

// common/colour.hpp's hsv_to_rgb over n pixels, the same operations in the
// same order, written out so that the loop vectorises.
template <class In, class F>
IPT_ALWAYS_INLINE void rgb_span(const In* __restrict h, const In* __restrict s, const In* __restrict v,
                                F* __restrict r, F* __restrict g, F* __restrict b, int64_t n) {
    const F eps6 = static_cast<F>(6.0 * DBL_EPSILON);
    for (int64_t i = 0; i < n; ++i) {
        const F H = static_cast<F>(h[i]), S = static_cast<F>(s[i]), V = static_cast<F>(v[i]);
        const F h6 = F(6) * H;
        const F k = std::trunc(h6 - eps6);
        const F f = h6 - k;
        const F t = F(1) - S;
        const F nn = F(1) - S * f;
        const F p = F(1) - S * (F(1) - f);
        const F e0 = (k == F(0) || k == F(6)) ? F(1) : F(0);
        const F e1 = k == F(1) ? F(1) : F(0);
        const F e2 = k == F(2) ? F(1) : F(0);
        const F e3 = k == F(3) ? F(1) : F(0);
        const F e4 = k == F(4) ? F(1) : F(0);
        const F e5 = k == F(5) ? F(1) : F(0);
        const F rr = e0 + e1 * nn + e2 * t + e3 * t + e4 * p + e5;
        const F gg = e0 * p + e1 + e2 + e3 * nn + e4 * t + e5 * t;
        const F bb = e0 * t + e1 * t + e2 * p + e3 + e4 + e5 * nn;
        r[i] = V * rr;
        g[i] = V * gg;
        b[i] = V * bb;
    }
}

template <class In, class F>
void planes_to_rgb(const In* hsv, F* rgb, int64_t plane) {
    constexpr int64_t kChunk = 1 << 13;
    const int64_t chunks = (plane + kChunk - 1) / kChunk;
    ipt::cpu::parallel_for(0, chunks, [&](int64_t c) {
        const int64_t first = c * kChunk, count = std::min(kChunk, plane - first);
        ipt::cpu::simd_dispatch_widest([&] {
            rgb_span<In, F>(hsv + first, hsv + plane + first, hsv + 2 * plane + first, rgb + first,
                            rgb + plane + first, rgb + 2 * plane + first, count);
        });
    });
}

void run_hsv2rgb(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::Hsv2rgbPlan plan = ipt::frontend::plan_hsv2rgb(args);
    const ipt_tensor* rgb = args.output("RGB", plan.out_dtype, plan.rows, plan.cols, plan.channels);
    const bool planes = plan.pixel_step == 1 && plan.plane_step == plan.pixels;
    ipt::cpu::visit_dtype(plan.in_dtype, [&](auto tag) {
        using In = decltype(tag);
        if constexpr (std::is_same_v<In, bool> || std::is_same_v<In, double>) {
            if (planes) {
                planes_to_rgb<In, double>(static_cast<const In*>(plan.in->data), static_cast<double*>(rgb->data),
                                          plan.pixels);
                return;
            }
            ipt::cpu::for_each_pixel<In, double>(plan, plan.in->data, rgb->data,
                                                 [](In h, In s, In v, double& r, double& g, double& b) {
                                                     ipt::common::hsv_to_rgb(static_cast<double>(h),
                                                                             static_cast<double>(s),
                                                                             static_cast<double>(v), r, g, b);
                                                 });
        } else if constexpr (std::is_same_v<In, float>) {
            if (planes) {
                planes_to_rgb<float, float>(static_cast<const float*>(plan.in->data), static_cast<float*>(rgb->data),
                                            plan.pixels);
                return;
            }
            ipt::cpu::for_each_pixel<float, float>(plan, plan.in->data, rgb->data,
                                                   [](float h, float s, float v, float& r, float& g, float& b) {
                                                       ipt::common::hsv_to_rgb(h, s, v, r, g, b);
                                                   });
        } else {
            ipt::plugin::unsupported("ipt.hsv2rgb: class not handled");
        }
    });
}

}  // namespace

IPT_CPU_OP("ipt.hsv2rgb", "", 100, run_hsv2rgb)
