// SPDX-License-Identifier: Apache-2.0
// ipt.imerode on Vulkan: the front-end's plan (backends/common/ops/imerode.hpp)
// run by the morphology engine shared with ipt.imdilate (common/morphology.cpp).
#include "common/ops/imerode.hpp"
#include "common/morphology.hpp"

namespace {

void run_imerode(ipt::vk::OpContext& ctx) { ipt::vk::run_morphology(ctx, ipt::frontend::plan_imerode(ctx.args)); }

}  // namespace

IPT_VK_OP("ipt.imerode", "wave32", 60, run_imerode)
IPT_VK_OP("ipt.imerode", "wave64", 50, run_imerode)
