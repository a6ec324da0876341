// otsuthresh: the front-end computes T and EM on the host from the counts
// (common/ops/otsuthresh.hpp); this copies them to the device outputs.
#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/ops/otsuthresh.hpp"

namespace ipt::cuda {
namespace {

void run_otsuthresh(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::OtsuthreshPlan plan = ipt::frontend::plan_otsuthresh(args);
    // Pageable sources: each copy is staged before cudaMemcpyAsync returns.
    const ipt_tensor* t = args.output("T", plan.out_dtype, 1, 1, 1);
    check(cudaMemcpyAsync(t->data, &plan.T, sizeof(double), cudaMemcpyHostToDevice, dev.stream),
          "cudaMemcpyAsync (T)");
    if (args.wanted("EM")) {
        const ipt_tensor* em = args.output("EM", plan.out_dtype, 1, 1, 1);
        check(cudaMemcpyAsync(em->data, &plan.EM, sizeof(double), cudaMemcpyHostToDevice, dev.stream),
              "cudaMemcpyAsync (EM)");
    }
}

IPT_CUDA_OP("ipt.otsuthresh", "", 100, run_otsuthresh)

}  // namespace
}  // namespace ipt::cuda
