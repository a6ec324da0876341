// ipt.strel on Vulkan: the structuring element is built on the host by the
// shared construction (backends/common/strel.hpp) and copied into the
// outputs on the device. The parameter rules are the CPU reference's
// (backends/cpu/ops/strel.cpp).
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "op_support.hpp"
#include "strel.hpp"
#include "strel_args.hpp"

namespace {

using ipt::plugin::invalid;
using ipt::plugin::KernelArgs;
using namespace ipt::vk;
namespace cm = ipt::common;

using ipt::common::strel_args::build;

void run_strel(OpContext& ctx) {
    const KernelArgs& args = ctx.args;
    const cm::Strel s = build(args);
    std::vector<cm::StrelMask> frames;
    if (args.wanted("decomposition"))
        for (const auto& f : s.factors) frames.push_back(cm::strel_factor_in_frame(f, s.nhood));
    const ipt_tensor* nhood = args.output("nhood", IPT_LOGICAL, s.nhood.rows, s.nhood.cols, 1);
    const ipt_tensor* dec = frames.empty() ? nullptr
                                           : args.output("decomposition", IPT_LOGICAL, s.nhood.rows, s.nhood.cols,
                                                         static_cast<int64_t>(frames.size()));
    ctx.address(nhood);
    Recorder rec(ctx.device);
    rec.write(static_cast<Buffer*>(nhood->buffer), nhood->offset, s.nhood.bits.data(), s.nhood.bits.size());
    if (dec) {
        ctx.address(dec);
        std::vector<uint8_t> planes;
        for (const auto& f : frames) planes.insert(planes.end(), f.bits.begin(), f.bits.end());
        rec.write(static_cast<Buffer*>(dec->buffer), dec->offset, planes.data(), planes.size());
    }
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.strel", "", 55, run_strel)
