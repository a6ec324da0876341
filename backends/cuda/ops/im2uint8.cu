// SPDX-License-Identifier: Apache-2.0
// ipt.im2uint8 on CUDA, planned by backends/common/ops/im2uint8.hpp; the
// kernel is shared with the other class conversions (common/class_conversion.cuh).
#include "common/class_conversion.cuh"
#include "common/op_registry.hpp"
#include "common/ops/im2uint8.hpp"

namespace ipt::cuda {
namespace {

void run_im2uint8(const ipt::plugin::KernelArgs& args) {
    run_im2class<uint8_t>(args, ipt::frontend::plan_im2uint8(args));
}

IPT_CUDA_OP("ipt.im2uint8", "", 100, run_im2uint8)

}  // namespace
}  // namespace ipt::cuda
