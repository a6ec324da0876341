// ipt.imregionalmax on Vulkan: plateaus labelled by lock-free union-find, a
// plateau disqualified by any strictly higher neighbour of any of its pixels
// (shaders/imregionalmax.comp). Five dispatches, no host round trip.
#include "op_support.hpp"

namespace {

using namespace ipt::vk;

struct Push {
    uint64_t a, labels, flags, bw;
    int32_t rows, cols;
};

void run_imregionalmax(OpContext& ctx) {
    const auto& args = ctx.args;
    const ipt_tensor* a = args.image("I");
    if (a->channels != 1) ipt::plugin::invalid("ipt.imregionalmax: parameter 'I' must be a 2-D image");
    const int64_t conn = args.integer("conn");
    if (conn != 4 && conn != 8) ipt::plugin::invalid("ipt.imregionalmax: parameter 'conn' must be 4 or 8");
    const int64_t n = a->rows * a->cols;
    check_size("ipt.imregionalmax", n);
    const ipt_tensor* bw = args.output("BW", IPT_LOGICAL, a->rows, a->cols, 1);
    if (n == 0) return;
    Recorder rec(ctx.device);
    Buffer* labels = rec.scratch(uint64_t(n) * 4);
    Buffer* flags = rec.scratch(uint64_t(n) * 4);
    rec.fill(flags, 0, uint64_t(n) * 4, 0);
    Push p{ctx.address(a), labels->address, flags->address, ctx.address(bw), int32_t(a->rows), int32_t(a->cols)};
    const uint32_t gx = ctx.tuning.group_x, gy = ctx.tuning.group_y;
    for (uint32_t pass = 0; pass < 5; ++pass)
        rec.dispatch(ctx.pipeline("imregionalmax", gx, gy, {uint32_t(a->dtype), uint32_t(conn), pass}), &p, sizeof p,
                     div_up(a->cols, gx), div_up(a->rows, gy));
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.imregionalmax", "wave32", 60, run_imregionalmax)
IPT_VK_OP("ipt.imregionalmax", "wave64", 50, run_imregionalmax)
