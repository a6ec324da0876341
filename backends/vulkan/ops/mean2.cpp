// SPDX-License-Identifier: Apache-2.0
// ipt.mean2 on Vulkan as the front-end plans it (common/ops/mean2.hpp): a
// two-pass reduction (per-group partials, then one
// group), exact in int64 for integer and logical classes.
#include <algorithm>

#include "op_support.hpp"
#include "common/ops/mean2.hpp"

namespace {

using namespace ipt::vk;

struct PartialPush {
    uint64_t a, partials;
    int32_t n, chunk;
};
struct FinalPush {
    uint64_t partials, m;
    double count;
    int32_t groups;
};

void run_mean2(OpContext& ctx) {
    const ipt::frontend::Mean2Plan plan = ipt::frontend::plan_mean2(ctx.args);
    const ipt_tensor* a = plan.A;
    const int64_t n = plan.numel;
    check_size("ipt.mean2", n);
    const ipt_tensor* m = ctx.args.output("m", plan.out_dtype, 1, 1, 1);
    const uint32_t width = ctx.tuning.group_size;
    // At most 1024 partials; each group takes a multiple of its width.
    int64_t chunk = std::max<int64_t>(int64_t(width) * ctx.tuning.per_invocation * 4, (n + 1023) / 1024);
    chunk = (chunk + width - 1) / width * width;
    const int64_t groups = std::max<int64_t>(1, (n + chunk - 1) / chunk);

    Recorder rec(ctx.device);
    Buffer* partials = rec.scratch(uint64_t(groups) * 8);
    PartialPush p1{ctx.address(a), partials->address, int32_t(n), int32_t(chunk)};
    if (n == 0) rec.fill(partials, 0, 8, 0);  // the sum of nothing; 0/0 gives NaN as in MATLAB
    else
        rec.dispatch(ctx.pipeline("mean2_partial", width, 1, {uint32_t(a->dtype)}), &p1, sizeof p1,
                     uint32_t(groups));
    FinalPush p2{partials->address, ctx.address(m), double(n), int32_t(groups)};
    rec.dispatch(ctx.pipeline("mean2_final", width, 1, {uint32_t(a->dtype)}), &p2, sizeof p2, 1);
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.mean2", "wave32", 60, run_mean2)
IPT_VK_OP("ipt.mean2", "wave64", 50, run_mean2)
