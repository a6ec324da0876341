// SPDX-License-Identifier: Apache-2.0
// ipt.fspecial: h = fspecial(type, ...). The front-end (backends/common/ops/
// fspecial.hpp) builds the filter; the reference copies it into the output.
#include <cstring>

#include "common/op_registry.hpp"
#include "common/ops/fspecial.hpp"

namespace {

void run_fspecial(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::FspecialPlan plan = ipt::frontend::plan_fspecial(args);
    const ipt_tensor* out = args.output("h", IPT_DOUBLE, plan.h.rows, plan.h.cols, 1);
    if (!plan.h.h.empty()) std::memcpy(out->data, plan.h.h.data(), plan.h.h.size() * sizeof(double));
}

}  // namespace

IPT_CPU_OP("ipt.fspecial", "", 100, run_fspecial)
