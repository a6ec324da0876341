// SPDX-License-Identifier: Apache-2.0
// ipt.im2uint16: J = im2uint16(I), planned by backends/common/ops/im2uint16.hpp; the
// engine is shared with the other class conversions (common/class_conversion.hpp).
#include "common/class_conversion.hpp"
#include "common/op_registry.hpp"
#include "common/ops/im2uint16.hpp"

namespace {

void run_im2uint16(const ipt::plugin::KernelArgs& args) {
    ipt::cpu::run_im2class(args, ipt::frontend::plan_im2uint16(args));
}

}  // namespace

IPT_CPU_OP("ipt.im2uint16", "", 100, run_im2uint16)
