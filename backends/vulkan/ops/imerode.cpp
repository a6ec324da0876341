// ipt.imerode on Vulkan: the SE as given (not reflected), min over it; the
// host side is shared with ipt.imdilate (ops/imdilate.cpp).
#include "common/morphology.hpp"

namespace {

void run_imerode(ipt::vk::OpContext& ctx) { ipt::vk::run_morphology(ctx, false); }

}  // namespace

IPT_VK_OP("ipt.imerode", run_imerode)
