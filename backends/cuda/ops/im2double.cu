// SPDX-License-Identifier: Apache-2.0
// ipt.im2double on CUDA, planned by backends/common/ops/im2double.hpp; the
// kernel is shared with the other class conversions (common/class_conversion.cuh).
#include "common/class_conversion.cuh"
#include "common/op_registry.hpp"
#include "common/ops/im2double.hpp"

namespace ipt::cuda {
namespace {

void run_im2double(const ipt::plugin::KernelArgs& args) {
    run_im2class<double>(args, ipt::frontend::plan_im2double(args));
}

IPT_CUDA_OP("ipt.im2double", "", 100, run_im2double)

}  // namespace
}  // namespace ipt::cuda
