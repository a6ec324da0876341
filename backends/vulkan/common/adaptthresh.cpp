// SPDX-License-Identifier: Apache-2.0
// adaptthresh's passes (adaptthresh.hpp): I to [0,1] in double, then for
// 'mean' the replicated integral image and the windows scaled and clipped;
// for 'median' medfilt2's order filter (order_filter.cpp) and for 'gaussian'
// imgaussfilt's double route (imgaussfilt.cpp) on the converted image, each
// value then scaled and clipped.
#include "adaptthresh.hpp"

#include "imgaussfilt.hpp"
#include "integral_image.hpp"
#include "order_filter.hpp"

namespace ipt::vk {

namespace {

struct Push {
    uint64_t a, t;
    double norm;
    int32_t m, n, fr, fc, stride;
};

}  // namespace

void record_adaptthresh(OpContext& ctx, Recorder& rec, const ipt::frontend::AdaptthreshPlan& p, VkDeviceAddress T) {
    const ipt::frontend::ImboxfiltPlan& b = p.box;
    const int64_t n = p.rows * p.cols;
    if (n == 0) return;
    check_size("adaptthresh", n);
    const int64_t stride = b.padded_cols + 1;
    Buffer* unit = rec.scratch(uint64_t(n) * sizeof(double));
    const uint32_t group = ctx.tuning.group_size;
    const Grid g = grid_for(ctx.device, uint64_t(n), uint64_t(group) * ctx.tuning.per_invocation);
    Push push{ctx.address(p.I), unit->address, b.norm, int32_t(p.rows), int32_t(p.cols), int32_t(b.fr),
              int32_t(b.fc), int32_t(stride)};
    rec.dispatch(ctx.pipeline("adaptthresh", group, 1, {uint32_t(p.dtype), 0u}), &push, sizeof push, g.x, g.y);
    if (p.statistic != ipt::frontend::AdaptStatistic::Mean) {
        Buffer* stat = rec.scratch(uint64_t(n) * sizeof(double));
        if (p.statistic == ipt::frontend::AdaptStatistic::Median) {
            OrderFilter f;
            f.rect = true;
            f.rect_rows = p.window_rows;
            f.rect_cols = p.window_cols;
            f.origin_r = p.centre_row;
            f.origin_c = p.centre_col;
            f.order = p.order;
            f.set_padding(p.median_pad);
            f.out_dtype = IPT_DOUBLE;
            record_order_filter_into(ctx, rec, f, unit->address, IPT_DOUBLE, p.rows, p.cols, 1, stat->address);
        } else {
            record_imgaussfilt(ctx, rec, p.gauss, unit->address, IPT_DOUBLE, stat->address);
        }
        push.a = stat->address;
        push.t = T;
        push.norm = p.scale;
        rec.dispatch(ctx.pipeline("adaptthresh", group, 1, {uint32_t(IPT_DOUBLE), 2u}), &push, sizeof push, g.x, g.y);
        return;
    }
    check_size("adaptthresh", (b.padded_rows + 1) * stride);
    Buffer* J = rec.scratch(uint64_t((b.padded_rows + 1) * stride) * sizeof(double));
    IntegralSource s;
    s.a = unit->address;
    s.dtype = IPT_DOUBLE;
    s.m = b.rows;
    s.n = b.cols;
    s.pad = Pad::Replicate;
    s.top = b.top;
    s.left = b.left;
    s.pm = b.padded_rows;
    s.pn = b.padded_cols;
    record_integral_image(ctx, rec, s, J->address);
    push.a = J->address;
    push.t = T;
    rec.dispatch(ctx.pipeline("adaptthresh", group, 1, {uint32_t(IPT_DOUBLE), 1u}), &push, sizeof push, g.x, g.y);
}

}  // namespace ipt::vk
