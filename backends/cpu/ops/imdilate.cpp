// ipt.imdilate: dilation by a flat or non-flat structuring element given as
// its neighbourhood (and heights). The planning and the kernels are shared
// with ipt.imerode (common/morphology.hpp; docs/cpu-morphology.md).
#include "common/morphology.hpp"
#include "common/op_registry.hpp"

namespace {

void run_imdilate(const ipt::plugin::KernelArgs& args) { ipt::cpu::morph::run_operator<true>(args); }

}  // namespace

IPT_CPU_OP("ipt.imdilate", "", 100, run_imdilate)
