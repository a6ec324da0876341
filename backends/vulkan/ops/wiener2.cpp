// SPDX-License-Identifier: Apache-2.0
// ipt.wiener2 on Vulkan as the front-end plans it (common/ops/wiener2.hpp):
// four passes of shaders/wiener2.comp (local statistics, column sums of the
// variances, the noise, the filtered image), in the reference's order.
#include "op_support.hpp"
#include "common/ops/wiener2.hpp"

namespace {

using namespace ipt::vk;

struct Push {
    uint64_t a, z, mu, var, column, noise, noise_out;
    double given;
    int32_t rows, cols, m, n, top, left, has_given, pad;
};

void run_wiener2(OpContext& ctx) {
    const ipt::frontend::Wiener2Plan p = ipt::frontend::plan_wiener2(ctx.args);
    const int64_t n = p.rows * p.cols;
    check_size("ipt.wiener2", n);
    if (p.m * p.n > (int64_t(1) << 24)) ipt::plugin::unsupported("ipt.wiener2: window too large for one pass");
    const ipt_tensor* J = ctx.args.output("J", p.dtype, p.rows, p.cols, 1);
    const ipt_tensor* noise_out =
        ctx.args.wanted("noise_out") ? ctx.args.output("noise_out", IPT_DOUBLE, 1, 1, 1) : nullptr;
    const uint32_t group = ctx.tuning.group_size;
    Recorder rec(ctx.device);
    Buffer* stats = rec.scratch(uint64_t(n > 0 ? n : 1) * 16);
    Buffer* column = rec.scratch(uint64_t(p.cols > 0 ? p.cols : 1) * 8);
    Buffer* noise = rec.scratch(8);
    Push push{};
    push.a = ctx.address(p.I);
    push.z = ctx.address(J);
    push.mu = stats->address;
    push.var = stats->address + uint64_t(n > 0 ? n : 1) * 8;
    push.column = column->address;
    push.noise = noise->address;
    push.noise_out = noise_out ? ctx.address(noise_out) : 0;
    push.given = p.noise;
    push.rows = int32_t(p.rows);
    push.cols = int32_t(p.cols);
    push.m = int32_t(p.m);
    push.n = int32_t(p.n);
    push.top = int32_t(p.top);
    push.left = int32_t(p.left);
    push.has_given = p.noise_given ? 1 : 0;
    const uint32_t dt = uint32_t(p.dtype);
    const uint64_t per_group = uint64_t(group) * ctx.tuning.per_invocation;
    auto pass = [&](int mode, uint64_t items) {
        const Grid grid = grid_for(ctx.device, items, per_group);
        rec.dispatch(ctx.pipeline("wiener2", group, 1, {uint32_t(mode), dt}), &push, sizeof push, grid.x, grid.y);
    };
    if (n > 0) {
        pass(0, uint64_t(n));
        if (!p.noise_given) pass(1, uint64_t(p.cols));
    }
    rec.dispatch(ctx.pipeline("wiener2", group, 1, {2u, dt}), &push, sizeof push, 1);
    if (n > 0) pass(3, uint64_t(n));
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.wiener2", "wave32", 60, run_wiener2)
IPT_VK_OP("ipt.wiener2", "wave64", 50, run_wiener2)
