// SPDX-License-Identifier: Apache-2.0
// ipt.hsv2rgb as the front-end plans it (common/ops/hsv2rgb.hpp): MATLAB's
// formulas in the output class (common/colour.hpp); logical reads as 0 and 1.
#include <type_traits>

#include "common/colour_pixels.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/ops/hsv2rgb.hpp"

namespace {

void run_hsv2rgb(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::Hsv2rgbPlan plan = ipt::frontend::plan_hsv2rgb(args);
    const ipt_tensor* rgb = args.output("RGB", plan.out_dtype, plan.rows, plan.cols, plan.channels);
    ipt::cpu::visit_dtype(plan.in_dtype, [&](auto tag) {
        using In = decltype(tag);
        if constexpr (std::is_same_v<In, bool> || std::is_same_v<In, double>) {
            ipt::cpu::for_each_pixel<In, double>(plan, plan.in->data, rgb->data,
                                                 [](In h, In s, In v, double& r, double& g, double& b) {
                                                     ipt::common::hsv_to_rgb(static_cast<double>(h),
                                                                             static_cast<double>(s),
                                                                             static_cast<double>(v), r, g, b);
                                                 });
        } else if constexpr (std::is_same_v<In, float>) {
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
