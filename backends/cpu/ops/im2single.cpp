// SPDX-License-Identifier: Apache-2.0
// ipt.im2single: J = im2single(I), planned by backends/common/ops/im2single.hpp; the
// engine is shared with the other class conversions (common/class_conversion.hpp).
#include "common/class_conversion.hpp"
#include "common/op_registry.hpp"
#include "common/ops/im2single.hpp"

namespace {

void run_im2single(const ipt::plugin::KernelArgs& args) {
    ipt::cpu::run_im2class(args, ipt::frontend::plan_im2single(args));
}

}  // namespace

IPT_CPU_OP("ipt.im2single", "", 100, run_im2single)
