// SPDX-License-Identifier: Apache-2.0
// Histograms on the device (ipt.imhist, ipt.graythresh) and stretchlim
// (common/stretchlim.hpp), shared by ipt.stretchlim and ipt.imadjust:
// per-channel histogram with imhist's binning, then the
// first bins where the cumulative count reaches the plan's count thresholds
// (the reference's cdf comparisons as integers).
#include <algorithm>
#include <vector>

#include "stretchlim.hpp"

namespace ipt::vk {
namespace {

struct HistPush {
    uint64_t a, hist;
    double int_scale;
    int32_t plane;
};
struct LimitsPush {
    uint64_t hist, limits;
    uint32_t count_low, count_high;
    int32_t channels;
};

}  // namespace

void record_histogram(OpContext& ctx, Recorder& rec, int32_t dtype, VkDeviceAddress a, int64_t plane,
                      int64_t channels, Buffer* hist, uint32_t nbins, Binning binning) {
    rec.fill(hist, 0, uint64_t(channels) * nbins * 4, 0);
    if (plane == 0) return;
    double top = 4294967295.0;  // int32 and uint32
    if (dtype == IPT_UINT8) top = 255.0;
    if (dtype == IPT_UINT16 || dtype == IPT_INT16) top = 65535.0;
    const uint32_t width = ctx.tuning.group_size;
    HistPush hp{a, hist->address, double(nbins - 1) / top, int32_t(plane)};
    // Enough groups to fill the device a few times over; each strides over the plane.
    constexpr uint64_t kMaxGroups = 1024;
    const uint64_t groups = std::min<uint64_t>((uint64_t(plane) + width - 1) / width, kMaxGroups);
    Grid grid = grid_for(ctx.device, groups * width, width);
    rec.dispatch(ctx.pipeline("stretchlim_hist", width, 1, {uint32_t(dtype), nbins, uint32_t(binning)}), &hp,
                 sizeof hp, grid.x, grid.y, uint32_t(channels));
}

void record_stretchlim(OpContext& ctx, Recorder& rec, const ipt::frontend::StretchlimPlan& plan, Buffer* limits,
                       VkDeviceSize limits_offset) {
    const int64_t channels = plan.channels;
    if (!plan.needs_histogram) {
        std::vector<double> v(size_t(2 * channels));
        for (int64_t ch = 0; ch < channels; ++ch) {
            v[ch] = 0.0;
            v[channels + ch] = 1.0;
        }
        rec.write(limits, limits_offset, v.data(), v.size() * sizeof(double));
        return;
    }
    const uint32_t nbins = uint32_t(plan.nbins);
    Buffer* hist = rec.scratch(uint64_t(channels) * nbins * 4);
    record_histogram(ctx, rec, plan.dtype, ctx.address(plan.I), plan.plane, channels, hist, nbins, Binning::Imhist);
    const uint32_t width = ctx.tuning.group_size;
    LimitsPush lp{hist->address, limits->address + limits_offset, uint32_t(plan.count_low),
                  uint32_t(plan.count_high), int32_t(channels)};
    rec.dispatch(ctx.pipeline("stretchlim_limits", width, 1, {nbins}), &lp, sizeof lp, 1, 1, uint32_t(channels));
}

}  // namespace ipt::vk
