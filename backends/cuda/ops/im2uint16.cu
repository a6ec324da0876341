// SPDX-License-Identifier: Apache-2.0
// ipt.im2uint16 on CUDA, planned by backends/common/ops/im2uint16.hpp; the
// kernel is shared with the other class conversions (common/class_conversion.cuh).
#include "common/class_conversion.cuh"
#include "common/op_registry.hpp"
#include "common/ops/im2uint16.hpp"

namespace ipt::cuda {
namespace {

void run_im2uint16(const ipt::plugin::KernelArgs& args) {
    run_im2class<uint16_t>(args, ipt::frontend::plan_im2uint16(args));
}

IPT_CUDA_OP("ipt.im2uint16", "", 100, run_im2uint16)

}  // namespace
}  // namespace ipt::cuda
