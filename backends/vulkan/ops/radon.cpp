// SPDX-License-Identifier: Apache-2.0
// ipt.radon on Vulkan, as the CUDA plugin computes it: bin owners
// (shaders/radon_owners.comp: each sub-pixel projected once, by the
// invocation of its bin, from the angle's sorted coordinate tables and the
// image's quarter values), or with IPT_VULKAN_RADON=strip the strip gather
// (shaders/radon.comp: each invocation evaluates every sub-pixel near its
// bin). The geometry and the angles' cos and sin are the front-end's
// (backends/common/ops/radon.hpp).
#include <cstdlib>
#include <cstring>
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
struct QuarterPush {
    uint64_t img, quarter, quarter_t;
    int32_t rows, cols;
};
struct TablesPush {
    uint64_t trig, tables;
    int32_t rows, cols, angles, x_origin, y_origin;
};
struct OwnersPush {
    uint64_t quarter, quarter_t, trig, tables, r;
    double shift;
    int32_t rows, cols, bins, angles;
};

constexpr uint32_t kOwnerLanes = 128;  // bins per work group: kOwnerLanes - 1

// IPT_VULKAN_RADON=strip selects the strip gather (to time both on a GPU).
bool strip_gather_forced() {
    const char* v = std::getenv("IPT_VULKAN_RADON");
    return v && std::strcmp(v, "strip") == 0;
}

void bin_owners(OpContext& ctx, Recorder& rec, const ipt_tensor* img, const ipt::frontend::RadonPlan& plan,
                VkDeviceAddress trig, VkDeviceAddress r) {
    const int64_t pixels = plan.rows * plan.cols, per_angle = 2 * (plan.rows + plan.cols);
    check_size("ipt.radon", per_angle * plan.angles);
    Buffer* quarter = rec.scratch(uint64_t(pixels) * 8);
    Buffer* quarter_t = rec.scratch(uint64_t(pixels) * 8);
    Buffer* tables = rec.scratch(uint64_t(per_angle * plan.angles) * 8);
    const uint32_t gx = ctx.tuning.group_x, gy = ctx.tuning.group_y;
    QuarterPush q{ctx.address(img), quarter->address, quarter_t->address, int32_t(plan.rows), int32_t(plan.cols)};
    rec.dispatch(ctx.pipeline("radon_quarter", gx, gy, {uint32_t(img->dtype)}), &q, sizeof q, div_up(plan.cols, gx),
                 div_up(plan.rows, gy));
    TablesPush t{trig, tables->address, int32_t(plan.rows), int32_t(plan.cols), int32_t(plan.angles),
                 int32_t(plan.x_origin), int32_t(plan.y_origin)};
    const uint32_t width = ctx.tuning.group_size;
    rec.dispatch(ctx.pipeline("radon_tables", width, 1, {}), &t, sizeof t, div_up(per_angle, width),
                 uint32_t(plan.angles));
    // An angle's tables go to shared memory when they fit beside the lanes'
    // sums; the length is a pipeline constant, rounded up to 512 doubles so
    // that few sizes make pipelines.
    const int64_t staged = (per_angle + 511) / 512 * 512;
    const bool fits = (staged + kOwnerLanes) * 8 <= int64_t(ctx.device.max_shared_bytes());
    OwnersPush o{quarter->address, quarter_t->address, trig, tables->address, r, static_cast<double>(plan.r_first),
                 int32_t(plan.rows), int32_t(plan.cols), int32_t(plan.bins), int32_t(plan.angles)};
    rec.dispatch(ctx.pipeline("radon_owners", kOwnerLanes, 1, {fits ? uint32_t(staged) : 0u}), &o, sizeof o,
                 div_up(plan.bins, kOwnerLanes - 1), uint32_t(plan.angles));
}

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
    const VkDeviceAddress trig_address = rec.params(trig);
    if (!strip_gather_forced() && plan.rows > 0 && plan.cols > 0 && plan.angles > 0 && plan.angles <= 65535) {
        bin_owners(ctx, rec, img, plan, trig_address, ctx.address(R));
        rec.submit();
        return;
    }
    Push p{ctx.address(img), trig_address, ctx.address(R), static_cast<double>(plan.r_first), int32_t(plan.rows),
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
