// ipt.fspecial on CUDA: the filter is built on the host by the shared
// construction (backends/common/fspecial.hpp, the same taps as every backend)
// and copied into the output on the device's stream, so a filter made for a
// CUDA pipeline is already there. The parameter rules are the CPU
// reference's (backends/common/fspecial_args.hpp). Registered below the CPU
// reference's priority: the measured selection decides where it runs.
#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "fspecial.hpp"
#include "fspecial_args.hpp"

namespace ipt::cuda {
namespace {

void run_fspecial(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::common::Filter2D h = ipt::common::fspecial_args::build(args);
    const ipt_tensor* out = args.output("h", IPT_DOUBLE, h.rows, h.cols, 1);
    if (h.h.empty()) return;
    // From pageable memory: staged before the call returns, so `h` may go.
    check(cudaMemcpyAsync(out->data, h.h.data(), h.h.size() * sizeof(double), cudaMemcpyHostToDevice, dev.stream),
          "ipt.fspecial: copy to the device");
}

}  // namespace

IPT_CUDA_OP("ipt.fspecial", "", 55, run_fspecial)

}  // namespace ipt::cuda
