// stretchlim: contrast-stretching limits per channel (see common/stretchlim.cuh).
#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/stretchlim.cuh"

namespace ipt::cuda {
namespace {

void run_stretchlim(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt_tensor* img = args.image("I");
    double low, high;
    tolerance_pair(args.floats("tol"), args.count("tol"), &low, &high);
    const ipt_tensor* out = args.output("LOWHIGH", IPT_DOUBLE, 2, img->channels, 1);
    stretchlim_async(img, low, high, dptr<double>(out), dev.stream, "ipt.stretchlim");
}

IPT_CUDA_OP("ipt.stretchlim", "", 100, run_stretchlim)

}  // namespace
}  // namespace ipt::cuda
