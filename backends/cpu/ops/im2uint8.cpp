// SPDX-License-Identifier: Apache-2.0
// ipt.im2uint8: J = im2uint8(I), planned by backends/common/ops/im2uint8.hpp; the
// engine is shared with the other class conversions (common/class_conversion.hpp).
#include "common/class_conversion.hpp"
#include "common/op_registry.hpp"
#include "common/ops/im2uint8.hpp"

namespace {

void run_im2uint8(const ipt::plugin::KernelArgs& args) {
    ipt::cpu::run_im2class(args, ipt::frontend::plan_im2uint8(args));
}

}  // namespace

IPT_CPU_OP("ipt.im2uint8", "", 100, run_im2uint8)
