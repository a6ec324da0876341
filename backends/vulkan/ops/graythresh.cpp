// SPDX-License-Identifier: Apache-2.0
// ipt.graythresh on Vulkan as the front-end plans it
// (common/ops/graythresh.hpp): the 256-bin histogram of im2uint8 values over
// every element, counted on the device (common/stretchlim.cpp) and read
// back; Otsu's arithmetic on the host; T and EM written to the outputs.
#include <memory>
#include <vector>

#include "common/host_scalars.hpp"
#include "common/ops/graythresh.hpp"
#include "common/stretchlim.hpp"

namespace {

using namespace ipt::vk;
using ipt::frontend::GraythreshPlan;

struct Release {
    Device* device;
    void operator()(Buffer* b) const { device->release(b); }
};

std::vector<uint32_t> read_histogram(OpContext& ctx, const GraythreshPlan& plan) {
    std::vector<uint32_t> counts(GraythreshPlan::nbins, 0u);
    if (!plan.needs_histogram) return counts;
    const uint64_t bytes = counts.size() * sizeof(uint32_t);
    std::unique_ptr<Buffer, Release> hist(ctx.device.allocate(bytes, MemoryKind::DeviceLocal), Release{&ctx.device});
    {
        Recorder rec(ctx.device);
        record_histogram(ctx, rec, plan.dtype, ctx.address(plan.I), plan.plane * plan.channels, 1, hist.get(),
                         uint32_t(GraythreshPlan::nbins), Binning::Im2uint8);
        rec.submit();
    }
    ctx.device.download(hist.get(), 0, counts.data(), bytes);
    return counts;
}

void run_graythresh(OpContext& ctx) {
    const GraythreshPlan plan = ipt::frontend::plan_graythresh(ctx.args);
    check_size("ipt.graythresh", plan.plane * plan.channels);
    const std::vector<uint32_t> counts = read_histogram(ctx, plan);
    const ipt::common::OtsuResult r = ipt::frontend::graythresh_result(plan, counts.data());
    write_host_scalars(ctx, plan.out_dtype, {{"T", r.T}, {"EM", r.EM}});
}

}  // namespace

IPT_VK_OP("ipt.graythresh", "wave32", 60, run_graythresh)
IPT_VK_OP("ipt.graythresh", "wave64", 50, run_graythresh)
