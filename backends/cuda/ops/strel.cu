// ipt.strel on CUDA: the structuring element (and, when asked, its
// decomposition, each factor in the frame of the whole neighbourhood) is built
// on the host by the shared construction (backends/common/strel.hpp) and
// copied into the outputs on the device's stream. The parameter rules are the
// CPU reference's (backends/common/strel_args.hpp). Registered below the CPU
// reference's priority: the measured selection decides where it runs.
#include <cstdint>
#include <vector>

#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "strel.hpp"
#include "strel_args.hpp"

namespace ipt::cuda {
namespace {

namespace cm = ipt::common;

void run_strel(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const cm::Strel s = cm::strel_args::build(args);
    std::vector<uint8_t> planes;
    int64_t factors = 0;
    if (args.wanted("decomposition"))
        for (const auto& f : s.factors) {
            const cm::StrelMask m = cm::strel_factor_in_frame(f, s.nhood);
            planes.insert(planes.end(), m.bits.begin(), m.bits.end());
            ++factors;
        }
    const ipt_tensor* nhood = args.output("nhood", IPT_LOGICAL, s.nhood.rows, s.nhood.cols, 1);
    const ipt_tensor* dec =
        factors ? args.output("decomposition", IPT_LOGICAL, s.nhood.rows, s.nhood.cols, factors) : nullptr;
    // From pageable memory: staged before each call returns.
    if (!s.nhood.bits.empty())
        check(cudaMemcpyAsync(nhood->data, s.nhood.bits.data(), s.nhood.bits.size(), cudaMemcpyHostToDevice,
                              dev.stream),
              "ipt.strel: copy nhood to the device");
    if (dec && !planes.empty())
        check(cudaMemcpyAsync(dec->data, planes.data(), planes.size(), cudaMemcpyHostToDevice, dev.stream),
              "ipt.strel: copy the decomposition to the device");
}

}  // namespace

IPT_CUDA_OP("ipt.strel", "", 55, run_strel)

}  // namespace ipt::cuda
