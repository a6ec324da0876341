// SPDX-License-Identifier: Apache-2.0
// Image class conversions on Vulkan (common/class_conversion.hpp).
#include "class_conversion.hpp"

#include <cstring>
#include <vector>

#include "common/class_scaling.hpp"

namespace ipt::vk {
namespace {

struct Push {
    uint64_t a;
    uint64_t z;
    uint64_t lut;  // uint8 to single or double: the 256 results (im2class.comp's LUT)
    int32_t n;
};

// The 8-byte words of the table of the 256 results of class Out, by the
// shared rule (common/class_scaling.hpp).
template <class Out>
std::vector<uint64_t> byte_table() {
    std::vector<uint64_t> words((256 * sizeof(Out) + 7) / 8);
    for (int v = 0; v < 256; ++v) {
        const Out r = ipt::common::convert_image_class<Out>(static_cast<uint8_t>(v));
        std::memcpy(reinterpret_cast<unsigned char*>(words.data()) + v * sizeof(Out), &r, sizeof r);
    }
    return words;
}

}  // namespace

void run_im2class(OpContext& ctx, const ipt::frontend::Im2ClassPlan& plan) {
    const int64_t n = plan.numel;
    check_size(ctx.op(), n);
    const ipt_tensor* z = ctx.args.output("J", plan.out_dtype, plan.rows, plan.cols, plan.channels);
    if (n == 0) return;
    Recorder rec(ctx.device);
    Push push{};
    push.a = ctx.address(plan.I);
    push.z = ctx.address(z);
    push.n = static_cast<int32_t>(n);
    // uint8 to a floating class: one table read instead of a division in
    // emulated double per element.
    const bool table = plan.in_dtype == IPT_UINT8 && (plan.out_dtype == IPT_SINGLE || plan.out_dtype == IPT_DOUBLE);
    if (table) push.lut = rec.params(plan.out_dtype == IPT_SINGLE ? byte_table<float>() : byte_table<double>());
    const uint32_t group = ctx.tuning.group_size;
    VkPipeline pipeline = ctx.pipeline("im2class", group, 1,
                                       {uint32_t(plan.in_dtype), uint32_t(plan.out_dtype), table ? 1u : 0u});
    Grid grid = grid_for(ctx.device, n, uint64_t(group) * ctx.tuning.per_invocation);
    rec.dispatch(pipeline, &push, sizeof push, grid.x, grid.y);
    rec.submit();
}

}  // namespace ipt::vk
