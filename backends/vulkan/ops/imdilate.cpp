// SPDX-License-Identifier: Apache-2.0
// ipt.imdilate on Vulkan: the front-end's plan (backends/common/ops/imdilate.hpp)
// run by the morphology engine shared with ipt.imerode (common/morphology.cpp).
#include "common/ops/imdilate.hpp"
#include "common/morphology.hpp"

namespace {

void run_imdilate(ipt::vk::OpContext& ctx) { ipt::vk::run_morphology(ctx, ipt::frontend::plan_imdilate(ctx.args)); }

}  // namespace

IPT_VK_OP("ipt.imdilate", "wave32", 60, run_imdilate)
IPT_VK_OP("ipt.imdilate", "wave64", 50, run_imdilate)
