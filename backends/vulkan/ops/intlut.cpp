// ipt.intlut on Vulkan: one pass, B(i) = LUT(A(i)+1) (LUT(A(i)+32769) for
// int16). The wave64 tuning converts a 32-bit word per load.
#include "op_support.hpp"

namespace {

using namespace ipt::vk;

struct Push {
    uint64_t a, lut, b;
    int32_t n;
};

void run_intlut(OpContext& ctx) {
    const auto& args = ctx.args;
    const ipt_tensor* a = args.image("A");
    const ipt_tensor* lut = args.image("LUT");
    if (a->dtype != IPT_UINT8 && a->dtype != IPT_UINT16 && a->dtype != IPT_INT16)
        ipt::plugin::invalid("ipt.intlut: parameter 'A' must be uint8, uint16 or int16");
    if (lut->dtype != a->dtype)
        ipt::plugin::invalid("ipt.intlut: parameter 'LUT' must have the class of A");
    const int64_t entries = a->dtype == IPT_UINT8 ? 256 : 65536;
    if (lut->rows * lut->cols * lut->channels != entries || lut->channels != 1 ||
        (lut->rows != 1 && lut->cols != 1))
        ipt::plugin::invalid("ipt.intlut: parameter 'LUT' must be a vector of " +
                             std::to_string(entries) + " entries");
    const int64_t n = a->rows * a->cols * a->channels;
    check_size("ipt.intlut", n);

    const ipt_tensor* b = args.output("B", a->dtype, a->rows, a->cols, a->channels);
    if (n == 0) return;
    Push push{ctx.address(a), ctx.address(lut), ctx.address(b), static_cast<int32_t>(n)};
    const bool vec = ctx.tuning.vector_width > 1 && OpContext::aligned({push.a, push.b}, 4);
    const uint32_t per_word = vec ? (a->dtype == IPT_UINT8 ? 4 : 2) : 1;
    const uint32_t group = ctx.tuning.group_size;
    VkPipeline pipeline = ctx.pipeline("intlut", group, 1, {uint32_t(a->dtype)}, vec ? 4 : 1);
    Grid grid = grid_for(ctx.device, n, uint64_t(group) * ctx.tuning.per_invocation * per_word);
    Recorder rec(ctx.device);
    rec.dispatch(pipeline, &push, sizeof push, grid.x, grid.y);
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.intlut", "wave32", 60, run_intlut)
IPT_VK_OP("ipt.intlut", "wave64", 50, run_intlut)
