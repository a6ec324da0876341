// imdilate: see common/morphology.cuh.
#include "common/morphology.cuh"
#include "common/op_registry.hpp"

namespace ipt::cuda {
namespace {

void run_imdilate(const ipt::plugin::KernelArgs& args) { run_morphology<true>(args); }

IPT_CUDA_OP("ipt.imdilate", "", 100, run_imdilate)

}  // namespace
}  // namespace ipt::cuda
