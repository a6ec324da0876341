// ipt.strel: the neighbourhood of a structuring element and, on request, its
// decomposition (one channel per factor, each factor centred in a frame of
// the neighbourhood's size). The construction is shared with the GPU
// backends (backends/common/strel.hpp; MATLAB_SEMANTICS.md, strel).
#include <cmath>
#include <cstring>
#include <string>

#include "common/op_registry.hpp"
#include "strel.hpp"
#include "strel_args.hpp"

namespace {

using ipt::plugin::invalid;
using ipt::plugin::KernelArgs;
namespace cm = ipt::common;

using ipt::common::strel_args::build;

void run_strel(const KernelArgs& args) {
    const cm::Strel s = build(args);
    // Frame every factor before allocating, so that nothing is written on failure.
    std::vector<cm::StrelMask> frames;
    if (args.wanted("decomposition"))
        for (const auto& f : s.factors) frames.push_back(cm::strel_factor_in_frame(f, s.nhood));

    const ipt_tensor* nhood = args.output("nhood", IPT_LOGICAL, s.nhood.rows, s.nhood.cols, 1);
    if (!s.nhood.bits.empty()) std::memcpy(nhood->data, s.nhood.bits.data(), s.nhood.bits.size());
    if (!frames.empty()) {
        const ipt_tensor* dec = args.output("decomposition", IPT_LOGICAL, s.nhood.rows, s.nhood.cols,
                                            static_cast<int64_t>(frames.size()));
        auto* dst = static_cast<uint8_t*>(dec->data);
        for (const auto& f : frames) {
            if (!f.bits.empty()) std::memcpy(dst, f.bits.data(), f.bits.size());
            dst += f.bits.size();
        }
    }
}

}  // namespace

IPT_CPU_OP("ipt.strel", "", 100, run_strel)
