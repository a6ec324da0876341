// SPDX-License-Identifier: Apache-2.0
// ipt.integralImage on Vulkan (common/ops/integralimage.hpp): the upright
// table through the shared integral-image passes (common/integral_image.hpp),
// the rotated one with shaders/integral_rotated.comp; plane by plane, in the
// CPU reference's order of additions.
#include "common/integral_image.hpp"
#include "common/ops/integralimage.hpp"

namespace {

using namespace ipt::vk;
using ipt::frontend::IntegralImagePlan;

struct RotatedPush {
    uint64_t a, j;
    int32_t m, n;
};

void run_integralimage(OpContext& ctx) {
    const IntegralImagePlan p = ipt::frontend::plan_integralimage(ctx.args);
    const ipt_tensor* J = ctx.args.output("J", IPT_DOUBLE, p.out_rows, p.out_cols, p.channels);
    const int64_t plane = p.out_rows * p.out_cols;
    if (plane * p.channels == 0) return;
    check_size("ipt.integralimage", plane * p.channels);
    check_size("ipt.integralimage", p.rows * p.cols * p.channels);
    const VkDeviceAddress in = ctx.address(p.I), out = ctx.address(J);
    const uint64_t in_plane = uint64_t(p.rows * p.cols) * dtype_bytes(p.I->dtype);
    Recorder rec(ctx.device);
    for (int64_t ch = 0; ch < p.channels; ++ch) {
        const VkDeviceAddress a = in + uint64_t(ch) * in_plane, j = out + uint64_t(ch * plane) * sizeof(double);
        if (p.rotated) {
            RotatedPush rp{a, j, int32_t(p.rows), int32_t(p.cols)};
            rec.dispatch(ctx.pipeline("integral_rotated", ctx.tuning.group_size, 1, {uint32_t(p.I->dtype)}), &rp,
                         sizeof rp, 1);
        } else {
            IntegralSource s;
            s.a = a;
            s.dtype = p.I->dtype;
            s.m = s.pm = p.rows;
            s.n = s.pn = p.cols;
            record_integral_image(ctx, rec, s, j);
        }
    }
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.integralimage", "wave32", 60, run_integralimage)
IPT_VK_OP("ipt.integralimage", "wave64", 50, run_integralimage)
