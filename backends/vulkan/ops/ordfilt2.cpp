// ipt.ordfilt2 on Vulkan (and the shared host side of ipt.medfilt2): radix
// selection over the window offsets, or for medfilt2's small windows a
// sorting network (shaders/order_filter.comp).
#include <string>
#include <vector>

#include "common/order_filter.hpp"

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
    OrderPush p{};
    p.a = ctx.address(a);
    p.out = ctx.address(out);
    if (!f.rect) {
        p.offsets = rec.params(f.offsets);
        if (!f.s.empty()) p.s = rec.params(f.s);
        p.count = int32_t(f.offsets.size() / 2);
    }
    p.pad_value = f.pad_value;
    p.rows = int32_t(a->rows);
    p.cols = int32_t(a->cols);
    p.order = int32_t(f.order);
    p.rect_rows = int32_t(f.rect_rows);
    p.rect_cols = int32_t(f.rect_cols);
    p.origin_r = int32_t((f.rect_rows + 1) / 2 - 1);
    p.origin_c = int32_t((f.rect_cols + 1) / 2 - 1);
    const uint32_t gx = ctx.tuning.group_x, gy = ctx.tuning.group_y, per = ctx.tuning.per_invocation;
    // Windows of up to 25 values are sorted in registers from a shared tile
    // (order_filter.comp's network path); the rest take the radix select.
    const bool network = f.rect && f.s.empty() && f.rect_rows * f.rect_cols <= kNetworkMaxWindow &&
                         (gx + f.rect_cols - 1) * (gy * per + f.rect_rows - 1) <= network_tile_cap(a->dtype);
    VkPipeline pipeline = ctx.pipeline("order_filter", gx, gy,
                                       {uint32_t(a->dtype), f.s.empty() ? 0u : 1u, f.symmetric ? 2u : 0u,
                                        f.rect ? 1u : 0u, f.median_even ? 1u : 0u, uint32_t(f.out_dtype),
                                        network ? uint32_t(f.rect_rows) : 0u, network ? uint32_t(f.rect_cols) : 0u});
    rec.dispatch(pipeline, &p, sizeof p, div_up(a->cols, gx), div_up(a->rows, uint64_t(gy) * (network ? per : 1)),
                 uint32_t(a->channels));
    rec.submit();
}

}  // namespace ipt::vk

namespace {

using namespace ipt::vk;

void run_ordfilt2(OpContext& ctx) {
    const auto& args = ctx.args;
    OrderFilter f;
    f.a = args.image("A");
    const ipt_tensor* domain = args.image("domain");
    const ipt_tensor* S = args.image("S");
    if (domain->dtype != IPT_LOGICAL || domain->channels != 1)
        ipt::plugin::invalid("ipt.ordfilt2: parameter 'domain' must be a 2-D logical array");
    if (S && (S->dtype != IPT_DOUBLE || S->rows != domain->rows || S->cols != domain->cols || S->channels != 1))
        ipt::plugin::invalid("ipt.ordfilt2: parameter 'S' must be a double array of the size of domain");
    const auto* mask = static_cast<const uint8_t*>(domain->data);
    const double* s = S ? static_cast<const double*>(S->data) : nullptr;
    const int64_t r0 = (domain->rows + 1) / 2 - 1, c0 = (domain->cols + 1) / 2 - 1;
    for (int64_t r = 0; r < domain->rows; ++r)
        for (int64_t c = 0; c < domain->cols; ++c) {
            if (!mask[r * domain->cols + c]) continue;
            f.offsets.push_back(int32_t(r - r0));
            f.offsets.push_back(int32_t(c - c0));
            if (s) f.s.push_back(s[r * domain->cols + c]);
        }
    const int64_t order = args.integer("order");
    const int64_t count = int64_t(f.offsets.size() / 2);
    if (order < 1 || order > count)
        ipt::plugin::invalid("ipt.ordfilt2: parameter 'order' must be between 1 and nnz(domain) = " +
                             std::to_string(count));
    f.order = order;
    f.symmetric = args.is("padopt", "symmetric");
    f.out_name = "B";
    f.out_dtype = S ? IPT_DOUBLE : f.a->dtype;
    record_order_filter(ctx, f);
}

}  // namespace

IPT_VK_OP("ipt.ordfilt2", run_ordfilt2)
