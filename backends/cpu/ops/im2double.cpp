// ipt.im2double: J = im2double(I), planned by backends/common/ops/im2double.hpp; the
// engine is shared with the other class conversions (common/class_conversion.hpp).
#include "common/class_conversion.hpp"
#include "common/op_registry.hpp"
#include "common/ops/im2double.hpp"

namespace {

void run_im2double(const ipt::plugin::KernelArgs& args) {
    ipt::cpu::run_im2class(args, ipt::frontend::plan_im2double(args));
}

}  // namespace

IPT_CPU_OP("ipt.im2double", "", 100, run_im2double)
