// ipt.rgb2ycbcr as the front-end plans it (common/ops/rgb2ycbcr.hpp): one thread per
// pixel, each component summed in double in the host's order and converted
// once (round half away from zero and saturate for integer classes).
#include "common/colour_pixels.cuh"
#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/ops/rgb2ycbcr.hpp"

namespace ipt::cuda {
namespace {

void run_rgb2ycbcr(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::Rgb2ycbcrPlan plan = ipt::frontend::plan_rgb2ycbcr(args);
    const ipt::common::ColourLayout& l = plan.layout;
    const ipt_tensor* out = args.output("YCBCR", l.out_dtype, l.rows, l.cols, l.channels);
    const void* in = l.in->data;
    switch (l.in_dtype) {
    case IPT_UINT8: launch_colour_affine<uint8_t>("ipt.rgb2ycbcr", l, plan.matrix, in, out->data, dev.stream); break;
    case IPT_UINT16: launch_colour_affine<uint16_t>("ipt.rgb2ycbcr", l, plan.matrix, in, out->data, dev.stream); break;
    case IPT_SINGLE: launch_colour_affine<float>("ipt.rgb2ycbcr", l, plan.matrix, in, out->data, dev.stream); break;
    case IPT_DOUBLE: launch_colour_affine<double>("ipt.rgb2ycbcr", l, plan.matrix, in, out->data, dev.stream); break;
    default: ipt::plugin::unsupported("ipt.rgb2ycbcr: class not handled");
    }
}

IPT_CUDA_OP("ipt.rgb2ycbcr", "", 100, run_rgb2ycbcr)

}  // namespace
}  // namespace ipt::cuda
