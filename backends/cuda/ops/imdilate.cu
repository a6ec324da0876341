// SPDX-License-Identifier: Apache-2.0
// imdilate: the front-end's plan (backends/common/ops/imdilate.hpp) run by
// the morphology engine shared with imerode (common/morphology.cuh).
#include "common/morphology.cuh"
#include "common/op_registry.hpp"
#include "common/ops/imdilate.hpp"

namespace ipt::cuda {
namespace {

void run_imdilate(const ipt::plugin::KernelArgs& args) { run_morphology(args, ipt::frontend::plan_imdilate(args)); }

IPT_CUDA_OP("ipt.imdilate", "", 100, run_imdilate)

}  // namespace
}  // namespace ipt::cuda
