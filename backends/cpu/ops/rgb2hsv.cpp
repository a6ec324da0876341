// SPDX-License-Identifier: Apache-2.0
// ipt.rgb2hsv as the front-end plans it (common/ops/rgb2hsv.hpp): integer
// values scaled to [0, 1] in double, then MATLAB's formulas in the output
// class (common/colour.hpp).
#include <type_traits>

#include "common/colour_pixels.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/ops/rgb2hsv.hpp"

namespace {

void run_rgb2hsv(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::Rgb2hsvPlan plan = ipt::frontend::plan_rgb2hsv(args);
    const ipt_tensor* hsv = args.output("HSV", plan.out_dtype, plan.rows, plan.cols, plan.channels);
    ipt::cpu::visit_dtype(plan.in_dtype, [&](auto tag) {
        using In = decltype(tag);
        if constexpr (std::is_same_v<In, uint8_t> || std::is_same_v<In, uint16_t> || std::is_same_v<In, double>) {
            ipt::cpu::for_each_pixel<In, double>(plan, plan.in->data, hsv->data,
                                                 [](In r, In g, In b, double& h, double& s, double& v) {
                                                     ipt::common::rgb_to_hsv(ipt::common::to_unit_scale<double>(r),
                                                                             ipt::common::to_unit_scale<double>(g),
                                                                             ipt::common::to_unit_scale<double>(b), h, s, v);
                                                 });
        } else if constexpr (std::is_same_v<In, float>) {
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
