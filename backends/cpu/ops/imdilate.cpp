// SPDX-License-Identifier: Apache-2.0
// ipt.imdilate: dilation by a flat or non-flat structuring element given as
// its neighbourhood (and heights), planned by backends/common/ops/imdilate.hpp.
// The kernels are shared with ipt.imerode (common/morphology.hpp;
// docs/cpu-morphology.md).
#include "common/morphology.hpp"
#include "common/op_registry.hpp"
#include "common/ops/imdilate.hpp"

namespace {

void run_imdilate(const ipt::plugin::KernelArgs& args) {
    ipt::cpu::morph::run_operator(args, ipt::frontend::plan_imdilate(args));
}

}  // namespace

IPT_CPU_OP("ipt.imdilate", "", 100, run_imdilate)
