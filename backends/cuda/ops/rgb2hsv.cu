// SPDX-License-Identifier: Apache-2.0
// ipt.rgb2hsv as the front-end plans it (common/ops/rgb2hsv.hpp): one thread
// per pixel, integer values scaled to [0, 1] in double, MATLAB's formulas in
// the output class (common/colour.hpp); uint8 through the equivalent form
// with fewer divisions.
#include "common/colour_pixels.cuh"
#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/ops/rgb2hsv.hpp"

namespace ipt::cuda {
namespace {

template <class In>
struct ToHsv {
    __device__ void operator()(In r, In g, In b, double& h, double& s, double& v) const {
        ipt::common::rgb_to_hsv(ipt::common::to_unit_scale<double>(r), ipt::common::to_unit_scale<double>(g),
                                ipt::common::to_unit_scale<double>(b), h, s, v);
    }
};

// uint8: the same results with fewer divisions (common/colour.hpp).
template <>
struct ToHsv<uint8_t> {
    __device__ void operator()(uint8_t r, uint8_t g, uint8_t b, double& h, double& s, double& v) const {
        ipt::common::rgb_to_hsv_u8(r, g, b, [](uint32_t x) { return to_double(x); }, h, s, v);
    }
};

struct ToHsvSingle {
    __device__ void operator()(float r, float g, float b, float& h, float& s, float& v) const {
        ipt::common::rgb_to_hsv(r, g, b, h, s, v);
    }
};

void run_rgb2hsv(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::Rgb2hsvPlan plan = ipt::frontend::plan_rgb2hsv(args);
    const ipt_tensor* hsv = args.output("HSV", plan.out_dtype, plan.rows, plan.cols, plan.channels);
    const void* in = plan.in->data;
    switch (plan.in_dtype) {
    case IPT_UINT8: launch_colour_pixels<uint8_t, double>("ipt.rgb2hsv", plan, in, hsv->data, dev.stream, ToHsv<uint8_t>{}); break;
    case IPT_UINT16: launch_colour_pixels<uint16_t, double>("ipt.rgb2hsv", plan, in, hsv->data, dev.stream, ToHsv<uint16_t>{}); break;
    case IPT_DOUBLE: launch_colour_pixels<double, double>("ipt.rgb2hsv", plan, in, hsv->data, dev.stream, ToHsv<double>{}); break;
    case IPT_SINGLE: launch_colour_pixels<float, float>("ipt.rgb2hsv", plan, in, hsv->data, dev.stream, ToHsvSingle{}); break;
    default: ipt::plugin::unsupported("ipt.rgb2hsv: class not handled");
    }
}

IPT_CUDA_OP("ipt.rgb2hsv", "", 100, run_rgb2hsv)

}  // namespace
}  // namespace ipt::cuda
