// SPDX-License-Identifier: Apache-2.0
// ipt.im2single on CUDA, planned by backends/common/ops/im2single.hpp; the
// kernel is shared with the other class conversions (common/class_conversion.cuh).
#include "common/class_conversion.cuh"
#include "common/op_registry.hpp"
#include "common/ops/im2single.hpp"

namespace ipt::cuda {
namespace {

void run_im2single(const ipt::plugin::KernelArgs& args) {
    run_im2class<float>(args, ipt::frontend::plan_im2single(args));
}

IPT_CUDA_OP("ipt.im2single", "", 100, run_im2single)

}  // namespace
}  // namespace ipt::cuda
