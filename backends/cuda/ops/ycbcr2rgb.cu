// ipt.ycbcr2rgb as the front-end plans it (common/ops/ycbcr2rgb.hpp): one thread per
// pixel, each component summed in double in the host's order and converted
// once (round half away from zero and saturate for integer classes).
#include "common/colour_pixels.cuh"
#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/ops/ycbcr2rgb.hpp"

namespace ipt::cuda {
namespace {

void run_ycbcr2rgb(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::Ycbcr2rgbPlan plan = ipt::frontend::plan_ycbcr2rgb(args);
    const ipt::common::ColourLayout& l = plan.layout;
    const ipt_tensor* out = args.output("RGB", l.out_dtype, l.rows, l.cols, l.channels);
    const void* in = l.in->data;
    switch (l.in_dtype) {
    case IPT_UINT8: launch_colour_affine<uint8_t>("ipt.ycbcr2rgb", l, plan.matrix, in, out->data, dev.stream); break;
    case IPT_UINT16: launch_colour_affine<uint16_t>("ipt.ycbcr2rgb", l, plan.matrix, in, out->data, dev.stream); break;
    case IPT_SINGLE: launch_colour_affine<float>("ipt.ycbcr2rgb", l, plan.matrix, in, out->data, dev.stream); break;
    case IPT_DOUBLE: launch_colour_affine<double>("ipt.ycbcr2rgb", l, plan.matrix, in, out->data, dev.stream); break;
    default: ipt::plugin::unsupported("ipt.ycbcr2rgb: class not handled");
    }
}

IPT_CUDA_OP("ipt.ycbcr2rgb", "", 100, run_ycbcr2rgb)

}  // namespace
}  // namespace ipt::cuda
