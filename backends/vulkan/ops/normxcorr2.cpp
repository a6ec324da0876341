// SPDX-License-Identifier: Apache-2.0
// ipt.normxcorr2 on Vulkan as the front-end plans it
// (common/ops/normxcorr2.hpp): the template read back for its checks and
// statistics, A's minimum and finiteness read back for the shift, the window
// sums and denominators (shaders/normxcorr2.comp), the largest denominator
// read back for the tolerance, then the coefficients.
#include <memory>
#include <vector>

#include "op_support.hpp"
#include "common/dtype.hpp"
#include "common/ops/normxcorr2.hpp"

namespace {

using namespace ipt::vk;
using ipt::frontend::Normxcorr2Plan;

struct Release {
    Device* device;
    void operator()(Buffer* b) const { device->release(b); }
};

struct Push {
    uint64_t a, c, denom, t, result;
    double shift, sum_t, denom_t, mn, tol;
    int32_t m, n, p, q, out_rows, out_cols;
};

template <class T>
ipt::frontend::Normxcorr2Template read_template(OpContext& ctx, const Normxcorr2Plan& p) {
    std::vector<T> host(static_cast<size_t>(p.m * p.n));
    ctx.address(p.T);  // checks that it is on this device
    ctx.device.download(static_cast<Buffer*>(p.T->buffer), p.T->offset, host.data(), host.size() * sizeof(T));
    return ipt::frontend::normxcorr2_template(p, host.data());
}

void run_normxcorr2(OpContext& ctx) {
    const Normxcorr2Plan p = ipt::frontend::plan_normxcorr2(ctx.args);
    const int64_t total = p.out_rows * p.out_cols;
    check_size("ipt.normxcorr2", total);
    const ipt::frontend::Normxcorr2Template tp = ipt::common::visit_dtype(p.t_dtype, [&](auto tag) {
        using T = std::conditional_t<std::is_same_v<decltype(tag), bool>, uint8_t, decltype(tag)>;
        return read_template<T>(ctx, p);
    });
    const ipt_tensor* C = ctx.args.output("C", IPT_DOUBLE, p.out_rows, p.out_cols, 1);
    const uint32_t group = ctx.tuning.group_size;
    const uint32_t dt = uint32_t(p.a_dtype);
    std::unique_ptr<Buffer, Release> denom(ctx.device.allocate(uint64_t(total) * 8, MemoryKind::DeviceLocal),
                                           Release{&ctx.device});
    std::unique_ptr<Buffer, Release> result(ctx.device.allocate(16, MemoryKind::DeviceLocal), Release{&ctx.device});
    Push push{};
    push.a = ctx.address(p.A);
    push.c = ctx.address(C);
    push.denom = denom->address;
    push.result = result->address;
    push.sum_t = tp.sum;
    push.denom_t = tp.denom_t;
    push.mn = p.mn;
    push.m = int32_t(p.m);
    push.n = int32_t(p.n);
    push.p = int32_t(p.p);
    push.q = int32_t(p.q);
    push.out_rows = int32_t(p.out_rows);
    push.out_cols = int32_t(p.out_cols);
    double stats[2] = {0, 0};
    {
        Recorder rec(ctx.device);
        rec.dispatch(ctx.pipeline("normxcorr2", group, 1, {0u, dt}), &push, sizeof push, 1);
        rec.submit();
    }
    ctx.device.download(result.get(), 0, stats, sizeof stats);
    push.shift = ipt::frontend::normxcorr2_a_shift(p, stats[0], stats[1] != 0);
    const Grid grid = grid_for(ctx.device, uint64_t(total), uint64_t(group) * ctx.tuning.per_invocation);
    {
        Recorder rec(ctx.device);
        push.t = rec.params(tp.t);
        rec.dispatch(ctx.pipeline("normxcorr2", group, 1, {1u, dt}), &push, sizeof push, grid.x, grid.y);
        rec.dispatch(ctx.pipeline("normxcorr2", group, 1, {2u, dt}), &push, sizeof push, 1);
        rec.submit();
    }
    double max_denom = 0;
    ctx.device.download(result.get(), 0, &max_denom, sizeof max_denom);
    push.tol = ipt::frontend::normxcorr2_tolerance(max_denom);
    Recorder rec(ctx.device);
    rec.dispatch(ctx.pipeline("normxcorr2", group, 1, {3u, dt}), &push, sizeof push, grid.x, grid.y);
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.normxcorr2", "wave32", 60, run_normxcorr2)
IPT_VK_OP("ipt.normxcorr2", "wave64", 50, run_normxcorr2)
