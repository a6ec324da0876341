// imerode: see common/morphology.cuh.
#include "common/morphology.cuh"
#include "common/op_registry.hpp"

namespace ipt::cuda {
namespace {

void run_imerode(const ipt::plugin::KernelArgs& args) { run_morphology<false>(args); }

IPT_CUDA_OP("ipt.imerode", "", 100, run_imerode)

}  // namespace
}  // namespace ipt::cuda
