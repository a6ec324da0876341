// SPDX-License-Identifier: Apache-2.0
// Minimum and maximum on the device (common/minmax.hpp): shaders/minmax.comp
// twice, as edge's reductions are laid out: each group takes a chunk of whole
// multiples of its width, then one group reduces the groups' (min, max) pairs.
#include <algorithm>

#include "minmax.hpp"

namespace ipt::vk {
namespace {

struct MinmaxPush {
    uint64_t src, partials, out;
    int32_t n, chunk;
};
static_assert(sizeof(MinmaxPush) == 32);

}  // namespace

void record_minmax(OpContext& ctx, Recorder& rec, VkDeviceAddress src, int32_t dtype, int64_t n,
                   VkDeviceAddress out) {
    check_size(ctx.op(), n);
    const uint32_t width = ctx.tuning.group_size;
    int64_t chunk = std::max<int64_t>(int64_t(width) * 4, (n + 1023) / 1024);
    chunk = (chunk + width - 1) / width * width;
    const int64_t groups = std::max<int64_t>(1, (n + chunk - 1) / chunk);
    Buffer* partials = rec.scratch(uint64_t(groups) * 16);
    MinmaxPush p1{src, partials->address, out, int32_t(n), int32_t(chunk)};
    rec.dispatch(ctx.pipeline("minmax", width, 1, {uint32_t(dtype), 0u}), &p1, sizeof p1, uint32_t(groups));
    MinmaxPush p2{partials->address, partials->address, out, int32_t(groups), int32_t(chunk)};
    rec.dispatch(ctx.pipeline("minmax", width, 1, {uint32_t(IPT_DOUBLE), 1u}), &p2, sizeof p2, 1);
}

}  // namespace ipt::vk
