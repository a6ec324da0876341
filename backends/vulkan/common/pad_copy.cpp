// SPDX-License-Identifier: Apache-2.0
// The padded copy on Vulkan (common/pad_copy.hpp).
#include "pad_copy.hpp"

#include <cstring>

namespace ipt::vk {
namespace {

struct Push {
    uint64_t a, b, fill;
    int32_t rows, cols, out_rows, out_cols, top, left, method, items, total, unused;
};

// The bits of a value of class dtype, as wide as one element.
uint64_t fill_bits(int32_t dtype, double v) {
    switch (dtype) {
    case IPT_LOGICAL:
    case IPT_UINT8: return static_cast<uint8_t>(v);
    case IPT_UINT16: return static_cast<uint16_t>(v);
    case IPT_INT16: return static_cast<uint16_t>(static_cast<int16_t>(v));
    case IPT_INT32: return static_cast<uint32_t>(static_cast<int32_t>(v));
    case IPT_UINT32: return static_cast<uint32_t>(v);
    case IPT_SINGLE: {
        const float f = static_cast<float>(v);
        uint32_t bits;
        std::memcpy(&bits, &f, sizeof bits);
        return bits;
    }
    default: {
        uint64_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        return bits;
    }
    }
}

}  // namespace

void run_pad_copy(OpContext& ctx, const PadCopy& copy) {
    const int64_t total = copy.planes * copy.out_rows * copy.out_cols;
    const int64_t source = copy.planes * copy.rows * copy.cols;
    check_size(ctx.op(), total);
    check_size(ctx.op(), source);
    // symmetric folds indices over 2 * size in 32-bit arithmetic.
    if (copy.rows > (int64_t(1) << 29) || copy.cols > (int64_t(1) << 29) || copy.top > (int64_t(1) << 29) ||
        copy.left > (int64_t(1) << 29))
        ipt::plugin::unsupported(std::string(ctx.op()) + ": a dimension beyond 2^29 elements");
    if (total == 0) return;
    Push push{};
    push.a = source ? ctx.address(copy.A) : 0;
    push.b = ctx.address(copy.B);
    push.fill = fill_bits(copy.dtype, copy.fill);
    push.rows = static_cast<int32_t>(copy.rows);
    push.cols = static_cast<int32_t>(copy.cols);
    push.out_rows = static_cast<int32_t>(copy.out_rows);
    push.out_cols = static_cast<int32_t>(copy.out_cols);
    push.top = static_cast<int32_t>(copy.top);
    push.left = static_cast<int32_t>(copy.left);
    push.method = static_cast<int32_t>(copy.method);
    push.total = static_cast<int32_t>(total);
    const size_t element = ipt::plugin::dtype_size(copy.dtype);
    const bool words = element < 4 && OpContext::aligned({push.b}, 4);
    const int64_t per_word = words ? 4 / static_cast<int64_t>(element) : 1;
    push.items = static_cast<int32_t>((total + per_word - 1) / per_word);
    const uint32_t group = ctx.tuning.group_size;
    VkPipeline pipeline = ctx.pipeline("pad_copy", group, 1, {uint32_t(copy.dtype), words ? 1u : 0u});
    Grid grid = grid_for(ctx.device, uint64_t(push.items), uint64_t(group) * ctx.tuning.per_invocation);
    Recorder rec(ctx.device);
    rec.dispatch(pipeline, &push, sizeof push, grid.x, grid.y);
    rec.submit();
}

}  // namespace ipt::vk
