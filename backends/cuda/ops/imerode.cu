// SPDX-License-Identifier: Apache-2.0
// imerode: the front-end's plan (backends/common/ops/imerode.hpp) run by the
// morphology engine shared with imdilate (common/morphology.cuh).
#include "common/morphology.cuh"
#include "common/op_registry.hpp"
#include "common/ops/imerode.hpp"

namespace ipt::cuda {
namespace {

void run_imerode(const ipt::plugin::KernelArgs& args) { run_morphology(args, ipt::frontend::plan_imerode(args)); }

IPT_CUDA_OP("ipt.imerode", "", 100, run_imerode)

}  // namespace
}  // namespace ipt::cuda
