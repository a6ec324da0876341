// SPDX-License-Identifier: Apache-2.0
// ipt.radon on Vulkan: one invocation per (bin, angle), gathering the
// sub-pixel projections that land in its bin (shaders/radon.comp). The
// geometry and the angles' cos and sin are the front-end's
// (backends/common/ops/radon.hpp).
#include <vector>

#include "op_support.hpp"
#include "common/ops/radon.hpp"

namespace {

using namespace ipt::vk;

struct Push {
    uint64_t img, trig, r;
    double shift;
    int32_t rows, cols, bins, angles, x_origin, y_origin;
};

void run_radon(OpContext& ctx) {
    const auto& args = ctx.args;
    const ipt::frontend::RadonPlan plan = ipt::frontend::plan_radon(args);
    const ipt_tensor* img = args.image("I");
    check_size("ipt.radon", plan.rows * plan.cols);
    check_size("ipt.radon", plan.bins * plan.angles);
    std::vector<double> trig(static_cast<size_t>(2 * plan.angles));
    for (int64_t k = 0; k < plan.angles; ++k) {
        trig[2 * k] = plan.cos_theta[k];
        trig[2 * k + 1] = plan.sin_theta[k];
    }
    const ipt_tensor* R = args.output("R", IPT_DOUBLE, plan.bins, plan.angles, 1);
    const ipt_tensor* xp = plan.want_xp ? args.output("xp", IPT_DOUBLE, plan.bins, 1, 1) : nullptr;
    Recorder rec(ctx.device);
    if (xp) {
        ctx.address(xp);
        rec.write(static_cast<Buffer*>(xp->buffer), xp->offset, plan.xp.data(), plan.xp.size() * sizeof(double));
    }
    Push p{ctx.address(img), rec.params(trig), ctx.address(R), static_cast<double>(plan.r_first), int32_t(plan.rows),
           int32_t(plan.cols), int32_t(plan.bins), int32_t(plan.angles), int32_t(plan.x_origin),
           int32_t(plan.y_origin)};
    const uint32_t gx = ctx.tuning.group_x, gy = ctx.tuning.group_y;
    rec.dispatch(ctx.pipeline("radon", gx, gy, {uint32_t(img->dtype)}), &p, sizeof p, div_up(plan.bins, gx),
                 div_up(plan.angles, gy));
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.radon", "wave32", 60, run_radon)
IPT_VK_OP("ipt.radon", "wave64", 50, run_radon)
