// SPDX-License-Identifier: Apache-2.0
// ipt.hsv2rgb as the front-end plans it (common/ops/hsv2rgb.hpp): one thread
// per pixel, MATLAB's formulas in the output class (common/colour.hpp);
// logical reads as 0 and 1.
#include "common/colour_pixels.cuh"
#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/ops/hsv2rgb.hpp"

namespace ipt::cuda {
namespace {

template <class In, class F>
struct ToRgb {
    __device__ void operator()(In h, In s, In v, F& r, F& g, F& b) const {
        ipt::common::hsv_to_rgb(static_cast<F>(h), static_cast<F>(s), static_cast<F>(v), r, g, b);
    }
};

void run_hsv2rgb(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::Hsv2rgbPlan plan = ipt::frontend::plan_hsv2rgb(args);
    const ipt_tensor* rgb = args.output("RGB", plan.out_dtype, plan.rows, plan.cols, plan.channels);
    const void* in = plan.in->data;
    switch (plan.in_dtype) {
    case IPT_LOGICAL: launch_colour_pixels<bool, double>("ipt.hsv2rgb", plan, in, rgb->data, dev.stream, ToRgb<bool, double>{}); break;
    case IPT_DOUBLE: launch_colour_pixels<double, double>("ipt.hsv2rgb", plan, in, rgb->data, dev.stream, ToRgb<double, double>{}); break;
    case IPT_SINGLE: launch_colour_pixels<float, float>("ipt.hsv2rgb", plan, in, rgb->data, dev.stream, ToRgb<float, float>{}); break;
    default: ipt::plugin::unsupported("ipt.hsv2rgb: class not handled");
    }
}

IPT_CUDA_OP("ipt.hsv2rgb", "", 100, run_hsv2rgb)

}  // namespace
}  // namespace ipt::cuda
