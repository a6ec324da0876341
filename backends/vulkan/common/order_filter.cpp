// SPDX-License-Identifier: Apache-2.0
// Order-statistic filtering on the device, shared by ipt.ordfilt2 and
// ipt.medfilt2: radix selection over the window offsets, or for medfilt2's
// small windows a sorting network (shaders/order_filter.comp).
#include <vector>

#include "order_filter.hpp"

namespace ipt::vk {

struct OrderPush {
    uint64_t a, out, offsets, s;
    double pad_value;
    int32_t rows, cols, count, order, rect_rows, rect_cols, origin_r, origin_c;
};

// The network path's limits: order_filter.comp's NET_TILE_CAP32 and 64 (keys
// of 32 bits for every class but double), and the window (an odd-even
// transposition sort of n keys unrolls to about n*n/2 compare-exchanges).
constexpr int64_t kNetworkMaxWindow = 25;
int64_t network_tile_cap(int32_t dtype) { return dtype == IPT_DOUBLE ? 1536 : 2048; }

void record_order_filter(OpContext& ctx, const OrderFilter& f) {
    const ipt_tensor* a = f.a;
    const int64_t plane = a->rows * a->cols;
    check_size(ctx.op(), plane * a->channels);
    const ipt_tensor* out = ctx.args.output(f.out_name, f.out_dtype, a->rows, a->cols, a->channels);
    if (plane == 0) return;
    Recorder rec(ctx.device);
    record_order_filter_into(ctx, rec, f, ctx.address(a), a->dtype, a->rows, a->cols, a->channels, ctx.address(out));
    rec.submit();
}

void record_order_filter_into(OpContext& ctx, Recorder& rec, const OrderFilter& f, VkDeviceAddress a, int32_t dtype,
                              int64_t rows, int64_t cols, int64_t planes, VkDeviceAddress out) {
    OrderPush p{};
    p.a = a;
    p.out = out;
    if (!f.rect) {
        p.offsets = rec.params(f.offsets);
        if (!f.s.empty()) p.s = rec.params(f.s);
        p.count = int32_t(f.offsets.size() / 2);
    }
    p.pad_value = f.pad_value;
    p.rows = int32_t(rows);
    p.cols = int32_t(cols);
    p.order = int32_t(f.order);
    p.rect_rows = int32_t(f.rect_rows);
    p.rect_cols = int32_t(f.rect_cols);
    p.origin_r = int32_t(f.origin_r);
    p.origin_c = int32_t(f.origin_c);
    const uint32_t gx = ctx.tuning.group_x, gy = ctx.tuning.group_y, per = ctx.tuning.per_invocation;
    // Windows of up to 25 values are sorted in registers from a shared tile
    // (order_filter.comp's network path); the rest take the radix select.
    const bool network = f.rect && f.s.empty() && f.rect_rows * f.rect_cols <= kNetworkMaxWindow &&
                         (gx + f.rect_cols - 1) * (gy * per + f.rect_rows - 1) <= network_tile_cap(dtype);
    VkPipeline pipeline = ctx.pipeline("order_filter", gx, gy,
                                       {uint32_t(dtype), f.s.empty() ? 0u : 1u, f.symmetric ? 2u : 0u,
                                        f.rect ? 1u : 0u, f.median_even ? 1u : 0u, uint32_t(f.out_dtype),
                                        network ? uint32_t(f.rect_rows) : 0u, network ? uint32_t(f.rect_cols) : 0u});
    rec.dispatch(pipeline, &p, sizeof p, div_up(cols, gx), div_up(rows, uint64_t(gy) * (network ? per : 1)),
                 uint32_t(planes));
}

}  // namespace ipt::vk
