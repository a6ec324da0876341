// SPDX-License-Identifier: Apache-2.0
// otsuthresh: the front-end computes T and EM on the host from the counts
// (common/ops/otsuthresh.hpp); this copies them to the device outputs.
#include "common/context.hpp"
#include "common/host_scalars.hpp"
#include "common/op_registry.hpp"
#include "common/ops/otsuthresh.hpp"

namespace ipt::cuda {
namespace {

void run_otsuthresh(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::OtsuthreshPlan plan = ipt::frontend::plan_otsuthresh(args);
    write_host_scalars(args, dev, plan.out_dtype, {{"T", plan.T}, {"EM", plan.EM}});
}

IPT_CUDA_OP("ipt.otsuthresh", "", 100, run_otsuthresh)

}  // namespace
}  // namespace ipt::cuda
