// SPDX-License-Identifier: Apache-2.0
// ipt.imerode: erosion by a flat or non-flat structuring element given as its
// neighbourhood (and heights), planned by backends/common/ops/imerode.hpp.
// The kernels are shared with ipt.imdilate (common/morphology.hpp;
// docs/cpu-morphology.md).
#include "common/morphology.hpp"
#include "common/op_registry.hpp"
#include "common/ops/imerode.hpp"

namespace {

void run_imerode(const ipt::plugin::KernelArgs& args) {
    ipt::cpu::morph::run_operator(args, ipt::frontend::plan_imerode(args));
}

}  // namespace

IPT_CPU_OP("ipt.imerode", "", 100, run_imerode)
